/**
 * Listener middleware: `(next) => (req, res) => …`, a piece that may answer a request itself
 * or pass it on (the reference indexer's rate limit and latency faults are such pieces).
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
export type Middleware = (next: RequestListener) => RequestListener;

/** `listener` behind `middlewares`, the first one outermost (it sees each request first). Null entries are skipped. */
export function withMiddleware(listener: RequestListener, ...middlewares: readonly (Middleware | null | undefined | false)[]): RequestListener {
  let out = listener;
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const middleware = middlewares[i];
    if (middleware) out = middleware(out);
  }
  return out;
}
