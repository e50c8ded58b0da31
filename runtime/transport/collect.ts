/**
 * The end of the chain: a handler that collects the final response into an HttpExchange
 * (headers joined, body decoded as UTF-8 without a byte order mark) and settles a promise.
 * It replaces undici's `request()` (no stream, no async resource per call).
 */
import type { Dispatcher } from "undici";
import type { Controller, Headers } from "./forward.js";
import type { HttpExchange } from "./options.js";
import type { CallState } from "./state.js";

export class Collector implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: Record<string, string> = {};
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly state: CallState,
    private readonly resolve: (exchange: HttpExchange) => void,
    private readonly reject: (err: unknown) => void,
  ) {}

  onRequestStart(): void {}

  onResponseStart(_controller: Controller, statusCode: number, headers: Headers): void {
    if (statusCode < 200) return;
    this.status = statusCode;
    // undici's names are already lower-case, in a fresh object; only repeated headers need joining.
    for (const name in headers) {
      const value = headers[name];
      if (typeof value !== "string") {
        if (Array.isArray(value)) headers[name] = value.join(", ");
        else delete headers[name];
      }
    }
    this.headers = headers as Record<string, string>;
    this.chunks = [];
    this.size = 0;
  }

  onResponseData(_controller: Controller, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  onResponseEnd(): void {
    const chunks = this.chunks;
    let body = "";
    if (chunks.length > 0) {
      const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size);
      // A UTF-8 byte order mark is not part of the JSON text.
      body = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.toString("utf8", 3) : buf.toString("utf8");
    }
    this.chunks = [];
    const state = this.state;
    this.resolve({ status: this.status, headers: this.headers, body, attempts: state.attempts, elapsedMs: performance.now() - state.started });
  }

  onResponseError(_controller: Controller, error: Error): void {
    this.chunks = [];
    this.reject(error);
  }
}
