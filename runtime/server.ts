/**
 * The node:http request listener core: JSON-RPC 2.0 over HTTP as the real indexer (Photon,
 * on jsonrpsee 0.16) serves it. Generated code supplies the method table, the precompiled
 * validators and the user's handlers; every protocol and HTTP rule lives in server/, once:
 * `http.ts` (methods, content types, health probes, connection cap), `body.ts` (reading under
 * the caps and the buffered-bytes budget, parsing), `rpc.ts` (single, batch, notifications,
 * calls), `envelope.ts`, `bytes.ts` (a single call's answer holding kept items, written straight
 * to bytes), `memo.ts`, `send.ts`, and `middleware.ts` for pieces in front of it.
 *
 * `DECISIONS #n` in comments is row n of spec/DECISIONS.md (each with Photon's or jsonrpsee's
 * file:line); `jsonrpsee:` refers to paritytech/jsonrpsee v0.16 (server/src/transport/http.rs,
 * core/src/server/helpers.rs, server/src/middleware/proxy_get_request.rs).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ClientErrorCode, PhotonError } from "./errors.js";
import { BodyReader } from "./server/body.js";
import { HttpFront } from "./server/http.js";
import { DEFAULT_MAX_BUFFERED_BYTES, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_REQUEST_BYTES, limit, type ListenerOptions } from "./server/options.js";
import { RpcCore } from "./server/rpc.js";

export { withMiddleware, type Middleware, type RequestListener } from "./server/middleware.js";
export type { CallContext, Handler, ListenerOptions, StateGate } from "./server/options.js";

/**
 * The node:http request listener: JSON-RPC 2.0 on POST to any path, `GET /liveness`,
 * `GET /readiness`, CORS preflight, and the real indexer's error codes and HTTP statuses.
 */
export function createRequestListener(options: ListenerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const maxRequestBytes = limit(options.maxRequestBytes, DEFAULT_MAX_REQUEST_BYTES, "maxRequestBytes");
  // Checked in the order the options were always checked (RpcCore checks it again, with the batch bound).
  limit(options.maxResponseBytes, DEFAULT_MAX_REQUEST_BYTES, "maxResponseBytes");
  const maxConnections = limit(options.maxConnections, DEFAULT_MAX_CONNECTIONS, "maxConnections");
  const maxBufferedBytes = limit(options.maxBufferedBytes, Math.max(DEFAULT_MAX_BUFFERED_BYTES, maxRequestBytes), "maxBufferedBytes");
  if (maxBufferedBytes < maxRequestBytes)
    throw new PhotonError(ClientErrorCode.LISTENER_OPTIONS, `maxBufferedBytes (${maxBufferedBytes}) must be at least maxRequestBytes (${maxRequestBytes})`);
  const core = new RpcCore(options);
  const front = new HttpFront(core, new BodyReader(maxRequestBytes, maxBufferedBytes, (req, res, body) => core.answer(req, res, body)), maxConnections);
  return (req, res) => {
    try {
      front.handle(req, res);
    } catch (err) {
      core.internalFailure(res, err, "");
    }
  };
}
