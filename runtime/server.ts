/**
 * The node:http request listener: JSON-RPC 2.0 over HTTP as Photon (jsonrpsee 0.16) serves it, from the generated
 * method table and validators and the user's handlers; each protocol and HTTP rule lives once in server/.
 * `DECISIONS #n` is row n of spec/DECISIONS.md; `jsonrpsee:` refers to paritytech/jsonrpsee v0.16.
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
