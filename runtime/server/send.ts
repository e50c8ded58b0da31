/**
 * Writing answers: JSON (whole, or in three parts without copying the middle one) and
 * text/plain refusals, each with CORS's `access-control-allow-origin: *` and a content-length.
 * Nothing is written to a response already answered or gone.
 */
import type { ServerResponse } from "node:http";

export const JSON_TYPE = "application/json; charset=utf-8";
export const TEXT_TYPE = "text/plain";
export const EMPTY = Buffer.alloc(0);

export function sendBytes(res: ServerResponse, status: number, contentType: string, body: Buffer): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(status, {
    "content-type": contentType,
    "access-control-allow-origin": "*",
    "content-length": body.length,
  });
  res.end(body);
}

export const RESULT_HEAD = Buffer.from(`{"jsonrpc":"2.0","result":`);

/** HTTP 200 JSON in three parts (no copy of the middle one). */
export function sendParts(res: ServerResponse, head: Buffer, body: Buffer, tail: Buffer): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(200, {
    "content-type": JSON_TYPE,
    "access-control-allow-origin": "*",
    "content-length": head.length + body.length + tail.length,
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

/** A text/plain refusal after which the connection is closed. */
export function sendClosing(res: ServerResponse, status: number, body: Buffer, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": TEXT_TYPE, "access-control-allow-origin": "*", ...extra, connection: "close", "content-length": body.length });
  res.end(body);
}
