/**
 * CORS as Photon's `CorsLayer` (tower-http 0.3.5, src/api/rpc_server.rs:19-27) answers it: a
 * preflight is HTTP 200 with `access-control-allow-methods: POST,GET`, and every answer that passes
 * the middleware carries `access-control-allow-origin: *` and three `Vary` headers; jsonrpsee's
 * connection-limit 429 is sent before the middleware, without them.
 */
import { request as httpRequest } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { createRequestListener, type ListenerOptions } from "../../../runtime/server.js";
import { closeListeners, listen } from "../../helpers/listener.js";
import { methodInfo } from "../../helpers/method-info.js";

afterAll(closeListeners);

const VARY = ["origin", "access-control-request-method", "access-control-request-headers"];

function start(extra: Partial<ListenerOptions> = {}): Promise<string> {
  return listen(
    createRequestListener({
      methods: { getSlot: methodInfo("getSlot", { hasParams: false }) },
      validators: {},
      handlers: { getSlot: () => 7 },
      ...extra,
    }),
  );
}

interface RawAnswer {
  status: number;
  body: string;
  /** Header lines as sent: [lower-case name, value], in order. */
  lines: [string, string][];
}

function send(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const lines: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push([(res.rawHeaders[i] as string).toLowerCase(), res.rawHeaders[i + 1] as string]);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), lines });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const values = (a: RawAnswer, name: string) => a.lines.filter(([n]) => n === name).map(([, v]) => v);
const JSON_HEADERS = { "content-type": "application/json" };
const CALL = '{"jsonrpc":"2.0","id":1,"method":"getSlot"}';

describe("CORS, as tower-http 0.3.5 answers it for Photon", () => {
  it("answers a preflight on any path with 200, no body, POST,GET and content-type allowed", async () => {
    const base = await start();
    const a = await send(base, "OPTIONS", "/any/path", { origin: "http://x", "access-control-request-method": "POST" });
    expect(a.status).toBe(200);
    expect(a.body).toBe("");
    expect(values(a, "access-control-allow-origin")).toEqual(["*"]);
    expect(values(a, "access-control-allow-methods")).toEqual(["POST,GET"]);
    expect(values(a, "access-control-allow-headers")).toEqual(["content-type"]);
    expect(values(a, "vary")).toEqual(VARY);
    expect(values(a, "content-length")).toEqual(["0"]);
  });

  it("sends three Vary headers and the allowed origin on every answer that passes the middleware", async () => {
    const base = await start({ maxRequestBytes: 64 });
    const answers = [
      await send(base, "POST", "/", JSON_HEADERS, CALL),
      await send(base, "POST", "/", JSON_HEADERS, "[1]"),
      await send(base, "POST", "/", JSON_HEADERS, "{"),
      await send(base, "POST", "/", { "content-type": "text/plain" }, CALL),
      await send(base, "POST", "/", JSON_HEADERS, `{"pad":"${"x".repeat(100)}"}`),
      await send(base, "GET", "/liveness", {}),
      await send(base, "PUT", "/", {}),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 415, 413, 200, 405]);
    for (const a of answers) {
      expect(values(a, "vary"), `HTTP ${a.status}`).toEqual(VARY);
      expect(values(a, "access-control-allow-origin"), `HTTP ${a.status}`).toEqual(["*"]);
      expect(values(a, "access-control-allow-methods"), `HTTP ${a.status}`).toEqual([]);
    }
  });

  it("sends no CORS header on the connection-limit 429 (jsonrpsee refuses it before the middleware)", async () => {
    const base = await start({ maxConnections: 1 });
    const url = new URL(base);
    // One connection held open (keep-alive) takes the only slot.
    const held = await new Promise<import("node:http").ClientRequest>((resolve) => {
      const req = httpRequest({ host: url.hostname, port: url.port, method: "POST", path: "/", headers: JSON_HEADERS }, (res) => {
        res.resume();
        resolve(req);
      });
      req.end(CALL);
    });
    const refused = await send(base, "POST", "/", JSON_HEADERS, CALL);
    expect(refused.status).toBe(429);
    expect(values(refused, "vary")).toEqual([]);
    expect(values(refused, "access-control-allow-origin")).toEqual([]);
    held.destroy();
  });
});
