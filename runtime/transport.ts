/**
 * The one HTTP transport: a JSON POST over undici with a deadline per attempt, a response-size cap, bounded retries,
 * caller cancellation and credential-free errors. Any status is returned (redirects are never followed); only failing
 * to get a complete response throws (`PhotonClientError`). `postJson` drives the interceptors of transport/.
 */
import { errors, type Dispatcher } from "undici";
import { Collector } from "./transport/collect.js";
import { transportDispatcher } from "./transport/compose.js";
import { toClientError, type FailedRequest } from "./transport/failures.js";
import { defaultDispatcher } from "./transport/interim.js";
import { policyOf, type HttpExchange, type TransportOptions } from "./transport/options.js";
import { newCallState } from "./transport/state.js";
import { splitUserinfo } from "./transport/userinfo.js";

export { bodyCap } from "./transport/body-cap.js";
export { transportDispatcher, transportInterceptors } from "./transport/compose.js";
export { deadline } from "./transport/deadline.js";
export { rejectEncoded } from "./transport/encoding.js";
export { defaultDispatcher, tolerateInterimResponses } from "./transport/interim.js";
export type { HttpExchange, Pacer, RetryOptions, TransportOptions } from "./transport/options.js";
export { createPacer, nextSlot, pace } from "./transport/pace.js";
export { retry } from "./transport/retry.js";
export { parseRetryAfter } from "./transport/retry-after.js";

const BASE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json",
  accept: "application/json",
});

function mergeHeaders(extra: Record<string, string> | undefined, contentType: string | null | undefined): Record<string, string> {
  if (extra === undefined && contentType === undefined) return BASE_HEADERS as Record<string, string>;
  const out: Record<string, string> =
    contentType === null ? { accept: BASE_HEADERS.accept! } : { "content-type": contentType ?? BASE_HEADERS["content-type"]!, accept: BASE_HEADERS.accept! };
  if (extra === undefined) return out;
  for (const name of Object.keys(extra)) {
    const value = extra[name];
    if (value !== undefined) out[name.toLowerCase()] = value;
  }
  return out;
}

interface Destination {
  readonly origin: string;
  readonly path: string;
}

/** Parsed request URLs: a client posts to the same few URLs again and again. */
const destinations = new Map<string, Destination>();

/** Origin and path of `url`, as undici's `request()` splits it (http and https only). */
function destinationOf(url: string): Destination {
  let hit = destinations.get(url);
  if (hit === undefined) {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:")
      throw new errors.InvalidArgumentError("Invalid URL protocol: the URL must start with `http:` or `https:`.");
    hit = { origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname };
    if (destinations.size >= 256) destinations.clear();
    destinations.set(url, hit);
  }
  return hit;
}

/**
 * POSTs `body` to `url` as given and returns the final exchange for any HTTP status, retrying per
 * `options.retry`. Throws `PhotonClientError` (TIMEOUT, ABORTED, NETWORK, BODY_TOO_LARGE, BAD_JSON,
 * INVALID_OPTIONS); messages name the target through `redactUrl`, never with credentials.
 */
export function postJson(url: string, body: string, options: TransportOptions = {}): Promise<HttpExchange> {
  const state = newCallState(options, policyOf(options.retry));
  let headers = mergeHeaders(options.headers, options.contentType);
  // Messages keep naming `url` (redactUrl masks its userinfo); the request goes to `requestUrl`.
  let requestUrl = url;
  const userinfo = splitUserinfo(url);
  if (userinfo !== undefined) {
    requestUrl = userinfo.url;
    if (headers.authorization === undefined) headers = { ...headers, authorization: userinfo.authorization };
  }
  const method = options.method ?? "POST";
  const failed: FailedRequest = { method, url, headers, callerHeaders: options.headers };
  return new Promise((resolve, reject) => {
    let destination: Destination;
    try {
      destination = destinationOf(requestUrl);
    } catch (err) {
      reject(toClientError(err, state, failed));
      return;
    }
    const collector = new Collector(state, resolve, (err) => reject(toClientError(err, state, failed)));
    const dispatcher = transportDispatcher(options.dispatcher ?? defaultDispatcher());
    dispatcher.dispatch(
      {
        origin: destination.origin,
        path: destination.path,
        method,
        headers,
        body,
        // A dispatcher composed with undici's redirect interceptor would otherwise follow 3xx.
        maxRedirections: 0,
        photon: state,
      } as Dispatcher.DispatchOptions,
      collector,
    );
  });
}
