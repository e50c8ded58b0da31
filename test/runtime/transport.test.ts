import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { inspect } from "node:util";
import { Agent, interceptors, request } from "undici";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ClientErrorCode, PhotonClientError } from "../../runtime/errors.js";
import { parseRetryAfter, postJson, type TransportOptions } from "../../runtime/transport.js";

const API_KEY = "sk-live-0123456789abcdef";

interface Hit {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

interface TestServer {
  base: string;
  hits: Hit[];
  server: Server;
}

type Handler = (req: IncomingMessage, res: ServerResponse, hit: Hit, index: number) => void;

const servers: Server[] = [];
const agent = new Agent({ keepAliveTimeout: 2_000 });

async function serve(handler: Handler): Promise<TestServer> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const hit = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      hits.push(hit);
      handler(req, res, hit, hits.length - 1);
    });
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, hits, server };
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(async (s) => {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }),
  );
});

afterAll(async () => {
  await agent.destroy();
});

/** Records the waits asked for and returns at once. */
function fakeSleep(): { sleeps: number[]; sleep: NonNullable<TransportOptions["sleep"]> } {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms) => void sleeps.push(ms) };
}

async function failure(promise: Promise<unknown>): Promise<PhotonClientError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(PhotonClientError);
    return err as PhotonClientError;
  }
  throw new Error("expected the call to fail");
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

const BODY = '{"jsonrpc":"2.0","id":1,"method":"getIndexerHealth"}';

describe("postJson: exchanges", { timeout: 5_000 }, () => {
  it("POSTs to the URL exactly as given (query string kept) with JSON and caller headers", async () => {
    const t = await serve((_req, res) => {
      res.setHeader("set-cookie", ["a=1", "b=2"]);
      res.setHeader("X-Custom", "Yes");
      json(res, 200, { jsonrpc: "2.0", id: 1, result: "ok" });
    });
    const ex = await postJson(`${t.base}/rpc/v1?api-key=${API_KEY}&cluster=devnet`, BODY, {
      headers: { Authorization: "Bearer tkn-12345", "X-Trace": "t-1" },
    });
    expect(t.hits).toHaveLength(1);
    const hit = t.hits[0]!;
    expect(hit.method).toBe("POST");
    expect(hit.url).toBe(`/rpc/v1?api-key=${API_KEY}&cluster=devnet`);
    expect(hit.body).toBe(BODY);
    expect(hit.headers["content-type"]).toBe("application/json");
    expect(hit.headers.accept).toBe("application/json");
    expect(hit.headers.authorization).toBe("Bearer tkn-12345");
    expect(hit.headers["x-trace"]).toBe("t-1");
    expect(ex.status).toBe(200);
    expect(ex.body).toBe('{"jsonrpc":"2.0","id":1,"result":"ok"}');
    expect(ex.attempts).toBe(1);
    expect(ex.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(ex.headers["x-custom"]).toBe("Yes");
    expect(ex.headers["set-cookie"]).toBe("a=1, b=2");
    expect(Object.keys(ex.headers).every((k) => k === k.toLowerCase())).toBe(true);
  });

  it("decodes UTF-8 split across chunks and drops a byte order mark", async () => {
    const payload = Buffer.from('\ufeff{"name":"żółć €"}', "utf8");
    const t = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      // Split inside the multi-byte "ż" and send the halves separately.
      res.write(payload.subarray(0, 13));
      setTimeout(() => res.end(payload.subarray(13)), 20);
    });
    const ex = await postJson(`${t.base}/`, BODY, { dispatcher: agent });
    expect(ex.body).toBe('{"name":"żółć €"}');
  });

  it("lets caller headers override the defaults case-insensitively, and supports method/contentType", async () => {
    const t = await serve((_req, res) => json(res, 200, {}));
    await postJson(`${t.base}/a`, BODY, { dispatcher: agent, headers: { "Content-Type": "application/json; charset=utf-8" } });
    await postJson(`${t.base}/b`, "", { dispatcher: agent, method: "GET", contentType: null });
    expect(t.hits[0]!.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(t.hits[1]!.method).toBe("GET");
    expect(t.hits[1]!.headers["content-type"]).toBeUndefined();
  });

  it("returns a 302 without following it, even through a redirect-following dispatcher", async () => {
    const other = await serve((_req, res) => json(res, 200, { followed: true }));
    const t = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.base}/elsewhere` });
      res.end();
    });
    const ex = await postJson(`${t.base}/rpc`, BODY, { dispatcher: agent });
    expect(ex.status).toBe(302);
    expect(ex.headers.location).toBe(`${other.base}/elsewhere`);

    const following = new Agent().compose(interceptors.redirect({ maxRedirections: 3 }));
    try {
      const viaInterceptor = await postJson(`${t.base}/rpc`, BODY, { dispatcher: following });
      expect(viaInterceptor.status).toBe(302);
      expect(other.hits).toHaveLength(0);
      // The same dispatcher does follow when undici is left to its defaults: the guard matters.
      const raw = await request(`${t.base}/rpc`, { method: "POST", body: BODY, dispatcher: following });
      await raw.body.text();
      expect(other.hits).toHaveLength(1);
    } finally {
      await following.destroy();
    }
  });
});

describe("postJson: retries", { timeout: 5_000 }, () => {
  it("honours Retry-After: 1 on a 429, then returns the success", async () => {
    const t = await serve((_req, res, _hit, i) => (i === 0 ? json(res, 429, { error: "slow down" }, { "retry-after": "1" }) : json(res, 200, { ok: true })));
    const { sleeps, sleep } = fakeSleep();
    const retries: { attempt: number; delayMs: number; reason: string }[] = [];
    const ex = await postJson(`${t.base}/`, BODY, { dispatcher: agent, sleep, onRetry: (info) => retries.push(info) });
    expect(ex.status).toBe(200);
    expect(ex.attempts).toBe(2);
    expect(t.hits).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 2, delayMs: 1000 });
    expect(retries[0]!.reason).toContain("429");
  });

  it("returns a 429 at once when its Retry-After is longer than maxDelayMs", async () => {
    const t = await serve((_req, res) => json(res, 429, { error: "come back later" }, { "retry-after": "60" }));
    const { sleeps, sleep } = fakeSleep();
    const ex = await postJson(`${t.base}/`, BODY, { dispatcher: agent, sleep, retry: { maxDelayMs: 5_000 } });
    expect(ex.status).toBe(429);
    expect(ex.attempts).toBe(1);
    expect(ex.headers["retry-after"]).toBe("60");
    expect(ex.body).toContain("come back later");
    expect(sleeps).toEqual([]);
    expect(t.hits).toHaveLength(1);
  });

  it("retries a 503 with bounded exponential backoff and returns the last response", async () => {
    const t = await serve((_req, res, _hit, i) => json(res, 503, { attempt: i + 1 }));
    const { sleeps, sleep } = fakeSleep();
    const ex = await postJson(`${t.base}/`, BODY, { dispatcher: agent, sleep, retry: { retries: 2, minDelayMs: 10, maxDelayMs: 15 } });
    expect(ex.status).toBe(503);
    expect(ex.attempts).toBe(3);
    expect(t.hits).toHaveLength(3);
    expect(ex.body).toBe('{"attempt":3}');
    // Full jitter: each wait is in [0, min(maxDelay, minDelay * 2^(n-1))); a wait of 0 is not
    // slept at all, so the recorded waits cannot be matched to attempts: bound each by the cap.
    expect(sleeps.length).toBeLessThanOrEqual(2);
    for (const ms of sleeps) {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(15);
    }
  });

  it("does not retry a 500, nor anything when retry is false", async () => {
    const t = await serve((_req, res, hit) => json(res, hit.url === "/500" ? 500 : 503, { error: "boom" }));
    const { sleeps, sleep } = fakeSleep();
    const ex = await postJson(`${t.base}/500`, BODY, { dispatcher: agent, sleep });
    expect(ex.status).toBe(500);
    expect(ex.attempts).toBe(1);
    const off = await postJson(`${t.base}/503`, BODY, { dispatcher: agent, sleep, retry: false });
    expect(off.status).toBe(503);
    expect(off.attempts).toBe(1);
    expect(t.hits).toHaveLength(2);
    expect(sleeps).toEqual([]);
  });

  it("does not start a wait that would overrun budgetMs", async () => {
    const t = await serve((_req, res) => json(res, 503, {}, { "retry-after": "1" }));
    const { sleeps, sleep } = fakeSleep();
    const ex = await postJson(`${t.base}/`, BODY, { dispatcher: agent, sleep, retry: { budgetMs: 500 } });
    expect(ex.status).toBe(503);
    expect(ex.attempts).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("caps an attempt's deadline by the remaining budget", async () => {
    const t = await serve(() => {});
    const started = performance.now();
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, timeoutMs: 4_000, retry: { budgetMs: 150 } }));
    expect(err.code).toBe(ClientErrorCode.TIMEOUT);
    expect(err.message).toContain("budget");
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("retries a refused connection, bounded by retries", async () => {
    const t = await serve(() => {});
    const url = `${t.base}/rpc?api-key=${API_KEY}`;
    await new Promise<void>((resolve) => t.server.close(() => resolve()));
    const { sleeps, sleep } = fakeSleep();
    const reasons: string[] = [];
    const err = await failure(postJson(url, BODY, { dispatcher: agent, sleep, retry: { retries: 2, minDelayMs: 1 }, onRetry: (i) => reasons.push(i.reason) }));
    expect(err.code).toBe(ClientErrorCode.NETWORK);
    expect(err.message).toContain("ECONNREFUSED");
    expect(err.message).toContain("after 3 attempts");
    expect(err.details).toMatchObject({ attempts: 3, errorCode: "ECONNREFUSED" });
    expect(reasons).toEqual(["ECONNREFUSED", "ECONNREFUSED"]);
    expect(sleeps.length).toBeLessThanOrEqual(2);

    const once = await failure(postJson(url, BODY, { dispatcher: agent, sleep, retry: { retryNetworkErrors: false } }));
    expect(once.details).toMatchObject({ attempts: 1 });
  });
});

describe("postJson: failures", { timeout: 5_000 }, () => {
  it("times out on a server that never answers", async () => {
    const t = await serve(() => {});
    const started = performance.now();
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, timeoutMs: 200 }));
    const elapsed = performance.now() - started;
    expect(err.code).toBe(ClientErrorCode.TIMEOUT);
    expect(err.message).toContain("after 200 ms");
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1_500);
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
    expect(elapsed).toBeLessThan(2_000);
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
    const started = performance.now();
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, maxBodyBytes: 1024 * 1024, timeoutMs: 4_000 }));
    expect(err.code).toBe(ClientErrorCode.BODY_TOO_LARGE);
    expect(err.message).toContain("1048576 bytes (1 MiB)");
    expect(err.details).toMatchObject({ contentLength: 100 * 1024 * 1024, received: 0 });
    expect(performance.now() - started).toBeLessThan(1_000);
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
    const started = performance.now();
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, signal: controller.signal, timeoutMs: 4_000 }));
    expect(err.code).toBe(ClientErrorCode.ABORTED);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((err.cause as Error).message).toBe("user cancelled");
  });

  it("aborts a backoff wait at once (real sleep and a sleep that ignores the signal)", async () => {
    const t = await serve((_req, res) => json(res, 503, {}, { "retry-after": "3" }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, signal: controller.signal }));
    expect(err.code).toBe(ClientErrorCode.ABORTED);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(t.hits).toHaveLength(1);

    const second = new AbortController();
    setTimeout(() => second.abort(), 50);
    const stubborn = (): Promise<void> => new Promise(() => {});
    const err2 = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, signal: second.signal, sleep: stubborn }));
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

describe("parseRetryAfter", { timeout: 5_000 }, () => {
  it("reads delay-seconds and HTTP dates", () => {
    const now = Date.parse("Sun, 06 Nov 1994 08:49:37 GMT");
    expect(parseRetryAfter("1", now)).toBe(1000);
    expect(parseRetryAfter(" 120 ", now)).toBe(120_000);
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("Sun, 06 Nov 1994 08:49:40 GMT", now)).toBe(3000);
    expect(parseRetryAfter("Sun, 06 Nov 1994 08:49:00 GMT", now)).toBe(0);
  });

  it("gives null for absent or unusable values", () => {
    for (const v of [undefined, "", "soon", "-5", "1e3", "Infinity"]) expect(parseRetryAfter(v)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Raw-socket servers for framing a node:http server would never write (issue 12 §6, HTTP).

const rawServers: NetServer[] = [];
const rawSockets = new Set<Socket>();

/** A net server that, per request head received, writes `reply(head)` (raw bytes). Returns its base URL and the heads. */
async function rawServe(reply: (head: string, socket: Socket) => void): Promise<{ base: string; heads: string[] }> {
  const heads: string[] = [];
  const server = createNetServer((socket) => {
    rawSockets.add(socket);
    socket.on("close", () => rawSockets.delete(socket));
    socket.on("error", () => {});
    let buffered = "";
    socket.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("latin1");
      for (;;) {
        const end = buffered.indexOf("\r\n\r\n");
        if (end === -1) return;
        const head = buffered.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        heads.push(head);
        reply(head, socket);
      }
    });
  });
  rawServers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, heads };
}

afterEach(async () => {
  for (const socket of rawSockets) socket.destroy();
  await Promise.all(rawServers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

const RESULT = '{"jsonrpc":"2.0","id":1,"result":"ok"}';
const final200 = (body: string | Buffer, extra = ""): Buffer =>
  Buffer.concat([
    Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n`, "latin1"),
    Buffer.from(body),
  ]);

describe("postJson: unusual HTTP framing", { timeout: 5_000 }, () => {
  it("accepts an unsolicited 100 Continue and uses the final response", async () => {
    const t = await rawServe((_head, socket) => {
      socket.write("HTTP/1.1 100 Continue\r\n\r\n");
      socket.write(final200(RESULT));
    });
    const ex = await postJson(`${t.base}/`, BODY, { retry: false });
    expect([ex.status, ex.body]).toEqual([200, RESULT]);
  });

  it("accepts interim responses split across packets, several in a row, on a reused connection", async () => {
    const t = await rawServe((_head, socket) => {
      socket.write("HTTP/1.1 10");
      setTimeout(() => {
        socket.write("0 Continue\r\nx-note: early\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n");
        setTimeout(() => socket.write(final200(RESULT, "connection: keep-alive\r\n")), 10);
      }, 10);
    });
    for (let i = 0; i < 3; i++) {
      const ex = await postJson(`${t.base}/`, BODY, { retry: false });
      expect([ex.status, ex.body]).toEqual([200, RESULT]);
    }
    expect(t.heads).toHaveLength(3);
  });

  it("still fails on a response that is not HTTP at all", async () => {
    const t = await rawServe((_head, socket) => socket.end("HTTP/1.1 10x nonsense\r\n\r\n"));
    const err = await failure(postJson(`${t.base}/`, BODY, { retry: false }));
    expect(err.code).toBe(ClientErrorCode.NETWORK);
  });

  it("reports a gzip-encoded body that was never negotiated as such, not as bad JSON text", async () => {
    const t = await rawServe((_head, socket) => socket.write(final200(gzipSync(RESULT), "content-encoding: gzip\r\n")));
    const err = await failure(postJson(`${t.base}/`, BODY, { retry: false }));
    expect(err.code).toBe(ClientErrorCode.BAD_JSON);
    expect(err.status).toBe(200);
    expect(err.message).toContain("response is gzip-encoded but no encoding was negotiated");
    expect(t.heads[0]!.toLowerCase()).not.toContain("accept-encoding");
  });

  it("accepts Content-Encoding: identity", async () => {
    const t = await rawServe((_head, socket) => socket.write(final200(RESULT, "content-encoding: identity\r\n")));
    expect((await postJson(`${t.base}/`, BODY, { retry: false })).body).toBe(RESULT);
  });

  it("sends URL userinfo as Basic auth (percent-decoded) and requests the URL without it", async () => {
    const t = await rawServe((_head, socket) => socket.write(final200(RESULT)));
    const url = `${t.base.replace("http://", "http://us%40er:p%3Ass%20w@")}/rpc?api-key=k1`;
    const ex = await postJson(url, BODY, { retry: false });
    expect(ex.body).toBe(RESULT);
    const head = t.heads[0]!;
    expect(head.split("\r\n")[0]).toBe("POST /rpc?api-key=k1 HTTP/1.1");
    expect(head).toContain(`authorization: Basic ${Buffer.from("us@er:p:ss w").toString("base64")}`);
    expect(head).not.toContain("us%40er");
  });

  it("keeps a caller's own authorization header over URL userinfo; a user without password is `user:`", async () => {
    const t = await rawServe((_head, socket) => socket.write(final200(RESULT)));
    await postJson(`${t.base.replace("http://", "http://alice:pw@")}/`, BODY, { retry: false, headers: { Authorization: "Bearer tkn" } });
    await postJson(`${t.base.replace("http://", "http://bob@")}/`, BODY, { retry: false });
    expect(t.heads[0]).toContain("authorization: Bearer tkn");
    expect(t.heads[0]).not.toContain("Basic");
    expect(t.heads[1]).toContain(`authorization: Basic ${Buffer.from("bob:").toString("base64")}`);
  });
});
