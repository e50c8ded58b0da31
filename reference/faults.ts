/**
 * The reference indexer's fault switches as listener middleware (`(next) => (req, res) => …`,
 * see runtime/server/middleware.ts), used to test clients and runners: `rateLimit(n)` answers
 * HTTP 429 with a JSON-RPC error body (code -32429) and Retry-After above n requests per
 * second; `latency(ms)` delays each answer.
 */
import type { Middleware } from "@photon-indexer-kit/runtime";
import { RefRpcCode } from "./errors.js";

/** The JSON-RPC error code sent with HTTP 429 (gateways' rate limits; Photon has none of its own). */
export const RATE_LIMIT_CODE = RefRpcCode.RATE_LIMITED;

const RATE_LIMITED_BODY = `{"jsonrpc":"2.0","error":{"code":${RATE_LIMIT_CODE},"message":"Exceeded rate limit."},"id":null}`;

/** At most `limit` requests per one-second window; the rest get 429, -32429 and the seconds to the next window. */
export function rateLimit(limit: number): Middleware {
  return (next) => {
    let windowStart = Date.now();
    let count = 0;
    return (req, res) => {
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        count = 0;
      }
      if (++count <= limit) return next(req, res);
      req.resume();
      const retryAfter = Math.max(1, Math.ceil((windowStart + 1000 - now) / 1000));
      res.writeHead(429, {
        "content-type": "application/json; charset=utf-8",
        "retry-after": String(retryAfter),
        "content-length": Buffer.byteLength(RATE_LIMITED_BODY),
      });
      res.end(RATE_LIMITED_BODY);
    };
  };
}

/** Waits `ms` before passing each request on (nothing is answered for a client that went away). */
export function latency(ms: number): Middleware {
  return (next) => (req, res) => {
    const timer = setTimeout(() => next(req, res), ms);
    res.once("close", () => clearTimeout(timer));
  };
}
