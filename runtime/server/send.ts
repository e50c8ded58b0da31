/**
 * Writing answers: JSON (whole, or in three parts without copying the middle one) and
 * text/plain refusals, each with a content-length and the headers Photon's CORS layer adds to
 * every answer that passes it (`CORS_HEADERS`). Nothing is written to a response already
 * answered or gone.
 */
import type { ServerResponse } from "node:http";

/**
 * What Photon's `CorsLayer` (tower-http 0.3.5, `allow_origin(Any)`, default `vary`) adds to every
 * answer: `access-control-allow-origin: *` and three `Vary` headers, one per request header a
 * preflight depends on (tower-http cors/mod.rs:580-604 and 706-714; Photon src/api/rpc_server.rs:19-27).
 */
export const CORS_HEADERS: Readonly<Record<string, string | string[]>> = Object.freeze({
  "access-control-allow-origin": "*",
  vary: ["origin", "access-control-request-method", "access-control-request-headers"],
});

export const JSON_TYPE = "application/json; charset=utf-8";
export const TEXT_TYPE = "text/plain";
export const EMPTY = Buffer.alloc(0);

export function sendBytes(res: ServerResponse, status: number, contentType: string, body: Buffer): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(status, {
    "content-type": contentType,
    "content-length": body.length,
    ...CORS_HEADERS,
  });
  res.end(body);
}

export const RESULT_HEAD = Buffer.from(`{"jsonrpc":"2.0","result":`);

/** HTTP 200 JSON in three parts (no copy of the middle one). */
export function sendParts(res: ServerResponse, head: Buffer, body: Buffer, tail: Buffer): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(200, {
    "content-type": JSON_TYPE,
    "content-length": head.length + body.length + tail.length,
    ...CORS_HEADERS,
  });
  res.cork();
  res.write(head);
  res.write(body);
  res.end(tail);
  res.uncork();
}

export function sendJson(res: ServerResponse, status: number, body: string | Buffer): void {
  sendBytes(res, status, JSON_TYPE, typeof body === "string" ? Buffer.from(body, "utf8") : body);
}

/**
 * A text/plain refusal after which the connection is closed. `cors: false` for an answer Photon
 * gives outside its middleware (jsonrpsee's connection-limit 429, server.rs `reject_connection`).
 */
export function sendClosing(res: ServerResponse, status: number, body: Buffer, extra: Record<string, string> = {}, cors = true): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": TEXT_TYPE, ...extra, connection: "close", "content-length": body.length, ...(cors ? CORS_HEADERS : {}) });
  res.end(body);
}

/**
 * The answer to every OPTIONS request, whatever its path or headers, as Photon's CorsLayer gives it
 * before the request reaches jsonrpsee: HTTP 200, no body, the CORS headers and the allowed methods
 * and headers of rpc_server.rs:19-22 (tower-http joins a list with "," and no space).
 */
export function sendPreflight(res: ServerResponse): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(200, {
    ...CORS_HEADERS,
    "access-control-allow-methods": "POST,GET",
    "access-control-allow-headers": "content-type",
    "content-length": 0,
  });
  res.end();
}
