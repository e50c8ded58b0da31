/** Transport failures: timeouts, body caps, resets, aborts and bad options, each a coded error that keeps secrets out. */
import { once } from "node:events";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { BodyTooLarge, errorCodeOf, formatBytes, toClientError } from "../../../runtime/transport/failures.js";
import { Ended, newCallState } from "../../../runtime/transport/state.js";
import { ClientErrorCode, PhotonClientError } from "../../../runtime/errors.js";
import { postJson } from "../../../runtime/transport.js";
import { agent, API_KEY, BODY, failure, fakeSleep, json, serve, useServers } from "./servers.js";

useServers();

const request = { method: "POST", url: "https://u:pw@example.com/?api-key=SECRET", headers: {}, callerHeaders: undefined };

describe("transport failures", () => {
  it("finds an error code in causes and aggregate errors", () => {
    expect(errorCodeOf({ cause: { errors: [{}, { code: "ECONNREFUSED" }] } })).toBe("ECONNREFUSED");
    expect(errorCodeOf(new Error("x"))).toBeUndefined();
  });

  it("formats byte counts", () => {
    expect([formatBytes(1024 * 1024), formatBytes(2048), formatBytes(10)]).toEqual(["1048576 bytes (1 MiB)", "2048 bytes (2 KiB)", "10 bytes"]);
  });

  it("maps each way a call ends to its code, never naming a credential", () => {
    const state = newCallState({ maxBodyBytes: 1024 });
    state.attempts = 1;
    const cases: [unknown, number, string][] = [
      [new BodyTooLarge(200, 0, 4096), Ended.NO, ClientErrorCode.BODY_TOO_LARGE],
      [new Error("late"), Ended.TIMED_OUT, ClientErrorCode.TIMEOUT],
      [Object.assign(new Error("refused SECRET"), { code: "ECONNREFUSED" }), Ended.NO, ClientErrorCode.NETWORK],
      [Object.assign(new Error("bad"), { code: "ERR_INVALID_URL" }), Ended.NO, ClientErrorCode.INVALID_OPTIONS],
    ];
    for (const [err, why, code] of cases) {
      state.why = why;
      const mapped = toClientError(err, state, request) as PhotonClientError;
      expect(mapped).toBeInstanceOf(PhotonClientError);
      expect(mapped.code).toBe(code);
      expect(mapped.message).not.toContain("SECRET");
      expect(mapped.message).not.toContain("pw");
    }
  });
});

describe("postJson: failures", () => {
  it("times out on a server that never answers", async () => {
    const t = await serve(() => {});
    const started = performance.now();
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, timeoutMs: 200 }));
    const elapsed = performance.now() - started;
    expect(err.code).toBe(ClientErrorCode.TIMEOUT);
    expect(err.message).toContain("after 200 ms");
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(t.hits).toHaveLength(1);
  });

  it("times out on a server dripping one byte every 100 ms (overall deadline, not per phase)", async () => {
    let dripped = 0;
    const t = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      const timer = setInterval(() => {
        res.write(" ");
        dripped++;
      }, 100);
      res.on("close", () => clearInterval(timer));
    });
    const started = performance.now();
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, timeoutMs: 500 }));
    const elapsed = performance.now() - started;
    expect(err.code).toBe(ClientErrorCode.TIMEOUT);
    expect(err.message).toContain("after 500 ms");
    expect(err.message).toContain("reading the HTTP 200 response body");
    expect(err.status).toBe(200);
    expect(dripped).toBeGreaterThanOrEqual(2);
    expect(elapsed).toBeGreaterThanOrEqual(480);
  });

  it("aborts a streamed body over maxBodyBytes without buffering the rest", async () => {
    const total = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let written = 0;
    let closed!: Promise<unknown>;
    const t = await serve((_req, res) => {
      closed = once(res, "close");
      res.writeHead(200, { "content-type": "application/json" }); // chunked: no content-length
      const pump = (): void => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once("drain", pump);
            return;
          }
        }
        if (written >= total) res.end();
      };
      pump();
    });
    const limit = 256 * 1024;
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, maxBodyBytes: limit }));
    expect(err.code).toBe(ClientErrorCode.BODY_TOO_LARGE);
    expect(err.message).toContain("262144 bytes");
    const details = err.details as { limit: number; received: number };
    expect(details.limit).toBe(limit);
    expect(details.received).toBeGreaterThan(limit);
    expect(details.received).toBeLessThan(limit + 1024 * 1024);
    await closed; // the server saw the connection torn down…
    expect(written).toBeLessThan(total); // …before it could send the whole body
  });

  it("rejects a content-length over the cap before reading the body", async () => {
    let closed!: Promise<unknown>;
    const t = await serve((_req, res) => {
      closed = once(res, "close");
      res.writeHead(200, { "content-type": "application/json", "content-length": String(100 * 1024 * 1024) });
      res.write("{"); // and then nothing more
    });
    // Waiting for the body would end in TIMEOUT: the server sends one byte of it.
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, maxBodyBytes: 1024 * 1024, timeoutMs: 4_000 }));
    expect(err.code).toBe(ClientErrorCode.BODY_TOO_LARGE);
    expect(err.message).toContain("1048576 bytes (1 MiB)");
    expect(err.details).toMatchObject({ contentLength: 100 * 1024 * 1024, received: 0 });
    await closed;
  });

  it("reports a connection reset mid-body as NETWORK with the error code, without retrying", async () => {
    const t = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"jsonrpc":"2.0",');
      setTimeout(() => res.socket?.resetAndDestroy(), 20);
    });
    const { sleeps, sleep } = fakeSleep();
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, sleep }));
    expect(err.code).toBe(ClientErrorCode.NETWORK);
    expect(err.message).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    expect(err.message).toContain("while reading the HTTP 200 response body");
    expect(err.status).toBe(200);
    expect(t.hits).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("aborts an in-flight request when the caller's signal fires", async () => {
    const t = await serve(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user cancelled")), 50);
    // Not aborted, the call would end in TIMEOUT.
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, signal: controller.signal, timeoutMs: 4_000 }));
    expect(err.code).toBe(ClientErrorCode.ABORTED);
    expect((err.cause as Error).message).toBe("user cancelled");
  });

  it("aborts a backoff wait at once (real sleep and a sleep that ignores the signal)", async () => {
    // An hour's wait: only an abort that ends the wait at once lets the test finish.
    const t = await serve((_req, res) => json(res, 503, {}, { "retry-after": "3600" }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, signal: controller.signal, retry: { maxDelayMs: 3_600_000 } }));
    expect(err.code).toBe(ClientErrorCode.ABORTED);
    expect(t.hits).toHaveLength(1);

    const second = new AbortController();
    setTimeout(() => second.abort(), 50);
    const stubborn = (): Promise<void> => new Promise(() => {});
    const err2 = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, signal: second.signal, sleep: stubborn, retry: { maxDelayMs: 3_600_000 } }));
    expect(err2.code).toBe(ClientErrorCode.ABORTED);
    expect(t.hits).toHaveLength(2);
  });

  it("aborts every call sharing one signal, without a MaxListeners warning", async () => {
    const t = await serve(() => {});
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const controller = new AbortController();
      const calls = Array.from({ length: 24 }, () => failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, signal: controller.signal })));
      await new Promise((r) => setTimeout(r, 50));
      controller.abort();
      const errors = await Promise.all(calls);
      expect(errors.every((e) => e.code === ClientErrorCode.ABORTED)).toBe(true);
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("does not send anything when the signal is already aborted", async () => {
    const t = await serve((_req, res) => json(res, 200, {}));
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, signal: AbortSignal.abort() }));
    expect(err.code).toBe(ClientErrorCode.ABORTED);
    expect(t.hits).toHaveLength(0);
  });

  it("reports an unusable URL or header as INVALID_OPTIONS", async () => {
    const bad = await failure(postJson(`not a url?api-key=${API_KEY}`, BODY));
    expect(bad.code).toBe(ClientErrorCode.INVALID_OPTIONS);
    expect(bad.message).toContain("<invalid url>");
    const t = await serve((_req, res) => json(res, 200, {}));
    const header = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, headers: { "x-api-key": `${API_KEY}\r\nx-evil: 1` } }));
    expect(header.code).toBe(ClientErrorCode.INVALID_OPTIONS);
    expect(t.hits).toHaveLength(0);
  });

  it("never puts the URL's api-key, userinfo or header secrets into an error", async () => {
    const headers = { authorization: "Bearer TOPSECRET-TOKEN-42" };
    const silent = await serve(() => {});
    const big = await serve((_req, res) => {
      res.writeHead(200, { "content-length": String(64 * 1024 * 1024) });
      res.write("x");
    });
    const reset = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "100" });
      res.write("{");
      setTimeout(() => res.socket?.resetAndDestroy(), 10);
    });
    const refused = await serve(() => {});
    await new Promise<void>((resolve) => refused.server.close(() => resolve()));
    const q = `?api-key=${API_KEY}&other=${encodeURIComponent("pa$$ word")}`;
    const userinfo = (base: string): string => base.replace("http://", "http://admin:hunter22@");
    const { sleep } = fakeSleep();
    const errors = await Promise.all([
      failure(postJson(`${silent.base}/t${q}`, BODY, { dispatcher: agent, headers, timeoutMs: 100 })),
      failure(postJson(`${userinfo(silent.base)}/a${q}`, BODY, { dispatcher: agent, headers, signal: AbortSignal.timeout(50) })),
      failure(postJson(`${big.base}/b${q}`, BODY, { dispatcher: agent, headers, maxBodyBytes: 1024 })),
      failure(postJson(`${reset.base}/r${q}`, BODY, { dispatcher: agent, headers })),
      failure(postJson(`${userinfo(refused.base)}/n${q}`, BODY, { dispatcher: agent, headers, sleep })),
      failure(postJson(`${silent.base}/h${q}`, BODY, { dispatcher: agent, headers: { ...headers, "x-bad": `${API_KEY}\n` } })),
      failure(postJson(`http://admin:hunter22@[not-a-host/u${q}`, BODY, { dispatcher: agent, headers })),
    ]);
    expect(errors.map((e) => e.code)).toEqual([
      ClientErrorCode.TIMEOUT,
      ClientErrorCode.ABORTED,
      ClientErrorCode.BODY_TOO_LARGE,
      ClientErrorCode.NETWORK,
      ClientErrorCode.NETWORK,
      ClientErrorCode.INVALID_OPTIONS,
      ClientErrorCode.INVALID_OPTIONS,
    ]);
    for (const err of errors) {
      // inspect() shows the message, stack, details and the whole cause chain.
      const text = `${inspect(err, { depth: 6 })}\n${JSON.stringify(err.details ?? null)}`;
      for (const secret of [API_KEY, "pa$$", "pa%24%24", "hunter22", "admin", "TOPSECRET-TOKEN-42"]) expect(text).not.toContain(secret);
      expect(err.message).toMatch(/api-key=\*\*\*|<invalid url>/);
    }
  });
});
