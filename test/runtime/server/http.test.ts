/** The HTTP front: content types, the HTTP surface, robustness, and bounds on connections, bytes and batch CPU. */
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { isJsonContentType } from "../../../runtime/server/http.js";
import { createRequestListener, type ListenerOptions } from "../../../runtime/server.js";
import { post, raw } from "../../helpers/listener.js";
import { anything, base, err, errors, expectJson, handlers, info, methods, ok, PARSE, rpc, sleep, start, useListener, validators } from "./fake-listener.js";

useListener();

describe("HTTP surface", () => {
  it("accepts the three JSON content types jsonrpsee does, case-insensitively, and nothing else", () => {
    for (const t of ["application/json", "Application/JSON; charset=UTF-8", "application/json;charset=utf-8"]) expect(isJsonContentType(t)).toBe(true);
    for (const t of [undefined, "", "text/plain", "application/json; charset=latin1", "application/json ", "application/jsonx"])
      expect(isJsonContentType(t)).toBe(false);
  });
});

describe("HTTP surface", () => {
  it("OPTIONS is a CORS preflight answer", async () => {
    const a = await raw(base, { method: "OPTIONS", path: "/any", headers: { origin: "http://x", "access-control-request-method": "POST" } });
    expect(a.status).toBe(200);
    expect(a.body).toBe("");
    expect(a.headers["access-control-allow-origin"]).toBe("*");
    expect(a.headers["access-control-allow-methods"]).toBe("POST,GET");
    expect(a.headers["access-control-allow-headers"]).toBe("content-type");
  });

  it("GET /liveness and GET /readiness answer 200 null", async () => {
    for (const path of ["/liveness", "/readiness"]) {
      const a = await raw(base, { method: "GET", path });
      expectJson(a, 200, "null");
    }
  });

  it("liveness and readiness are JSON-RPC methods too", async () => {
    expectJson(await post(base, rpc("liveness", [])), 200, ok("null"));
    expectJson(await post(base, rpc("readiness")), 200, ok("null"));
  });

  it("readiness false or throwing: GET is HTTP 500 -32603, the method is -32000", async () => {
    const notReady = await start({ readiness: () => false });
    expectJson(await raw(notReady, { method: "GET", path: "/readiness" }), 500, err(-32603, "Internal error"));
    expectJson(await raw(notReady, { method: "GET", path: "/liveness" }), 200, "null");
    expectJson(await post(notReady, rpc("readiness")), 200, err(-32000, "Internal server error", "1"));

    errors.length = 0;
    const throwing = await start({
      readiness: async () => {
        await sleep(1);
        throw new Error("SELECT 1 failed");
      },
    });
    expectJson(await raw(throwing, { method: "GET", path: "/readiness" }), 500, err(-32603, "Internal error"));
    expect(errors.map((e) => e.method)).toEqual(["readiness"]);

    const asyncReady = await start({ readiness: async () => true });
    expectJson(await raw(asyncReady, { method: "GET", path: "/readiness" }), 200, "null");
  });

  it("any other verb or path is 405 text/plain", async () => {
    const cases: [string, string][] = [
      ["GET", "/"],
      ["GET", "/liveness?x=1"],
      ["GET", "/readiness/"],
      ["GET", "/getThing"],
      ["PUT", "/"],
      ["DELETE", "/liveness"],
      ["PATCH", "/getThing"],
    ];
    for (const [method, path] of cases) {
      const a = await raw(base, { method, path });
      expect(a.status).toBe(405);
      expect(a.headers["content-type"]).toBe("text/plain");
      expect(a.body).toBe("Used HTTP Method is not allowed. POST or OPTIONS is required\n");
    }
    const head = await raw(base, { method: "HEAD", path: "/liveness" });
    expect(head.status).toBe(405);
  });

  it("POST with a non-JSON content type is 415 text/plain", async () => {
    const variants: Record<string, string>[] = [
      {},
      { "content-type": "text/plain" },
      { "content-type": "application/json; charset=utf8" },
      { "content-type": "application/jsonx" },
    ];
    for (const headers of variants) {
      const a = await post(base, rpc("nothing"), headers);
      expect(a.status).toBe(415);
      expect(a.headers["content-type"]).toBe("text/plain");
      expect(a.body).toBe("Supplied content type is not allowed. Content-Type: application/json is required\n");
    }
  });
});

describe("robustness", () => {
  it("a client aborting mid-body neither crashes nor blocks the server", async () => {
    const port = Number(new URL(base).port);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"jsonrpc":');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 20);
      });
      socket.on("error", reject);
    });
    // And one whose handler is still running when the client goes away.
    await new Promise<void>((resolve) => {
      const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/", agent: false, headers: { "content-type": "application/json" } });
      req.on("error", () => resolve());
      req.end(rpc("slow", { ms: 50, tag: "gone" }));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 10);
    });
    await sleep(80);
    expectJson(await post(base, rpc("nothing")), 200, ok("null"));
  });

  it("serves many concurrent requests", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => post(base, rpc("slow", { ms: 5, tag: `t${i}` }, String(i)))));
    answers.forEach((a, i) => expectJson(a, 200, ok(`"t${i}"`, String(i))));
  });
});

// Bounds: connections, buffered bytes across connections, batch CPU, long numbers.

/** Connects, writes `head` (and `body` if given), and collects what comes back until the socket closes or `until` holds. */
function rawSocket(base: string): { socket: Socket; text: () => string; closed: Promise<void>; wait: (until: (t: string) => boolean) => Promise<string> } {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  socket.on("error", () => {});
  let text = "";
  const waiters: (() => void)[] = [];
  socket.on("data", (c: Buffer) => {
    text += c.toString("latin1");
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => (resolve(), waiters.splice(0).forEach((w) => w()))));
  const wait = async (until: (t: string) => boolean): Promise<string> => {
    while (!until(text) && !socket.destroyed) await new Promise<void>((r) => waiters.push(r));
    return text;
  };
  return { socket, text: () => text, closed, wait };
}

const requestBytes = (body: string, extra = ""): string =>
  `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
/** A complete response: the head and content-length bytes of body. */
const complete = (t: string): boolean => {
  const end = t.indexOf("\r\n\r\n");
  const m = /content-length: (\d+)/i.exec(t);
  return end !== -1 && m !== null && t.length >= end + 4 + Number(m[1]);
};

let spins = 0;
/** A handler that holds the event loop for about 2 ms. */
function spin(): number {
  const until = performance.now() + 2;
  while (performance.now() < until);
  return ++spins;
}
const withSpin = (extra: Partial<ListenerOptions> = {}): Promise<string> =>
  start({
    methods: { ...methods, spin: info("spin", false) },
    validators: { ...validators, spin: { params: anything, result: anything } },
    handlers: { ...handlers, spin },
    ...extra,
  });

describe("listener bounds", () => {
  it("answers requests on connections past maxConnections with 429 and closes them; a freed slot serves again", async () => {
    const url = await start({ maxConnections: 2 });
    const slot = rpc("getIndexerSlot");
    const first = [rawSocket(url), rawSocket(url)];
    for (const c of first) {
      c.socket.write(requestBytes(slot));
      expect(await c.wait(complete)).toMatch(/^HTTP\/1\.1 200/);
    }
    const third = rawSocket(url);
    third.socket.write(requestBytes(slot));
    await third.closed;
    expect(third.text()).toMatch(/^HTTP\/1\.1 429/);
    expect(third.text()).toContain("Too many connections. Please try again later.");
    expect(third.text().toLowerCase()).toContain("connection: close");
    first[0]!.socket.destroy();
    await first[0]!.closed;
    // The server sees the close a moment later; a new connection is then served.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await post(url, slot)).status;
      if (status !== 200) await sleep(10);
    }
    expect(status).toBe(200);
    first[1]!.socket.destroy();
  });

  it("holds at most maxBufferedBytes of unfinished bodies across connections: 503 and close past it, released when a body ends", async () => {
    const KiB = 1024;
    const url = await start({ maxRequestBytes: 1024 * KiB, maxBufferedBytes: 2048 * KiB });
    const prefix = `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","pad":"`;
    const body = prefix + "x".repeat(900 * KiB - prefix.length - 2) + `"}`;
    const head = (n: number) => `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${n}\r\n\r\n`;
    const slow = [rawSocket(url), rawSocket(url), rawSocket(url), rawSocket(url)];
    // Each declares 900 KiB and sends 100 KiB of it: two fit in 2 MiB, the others are refused at once.
    for (const c of slow) c.socket.write(head(body.length) + body.slice(0, 100 * KiB));
    await Promise.all(slow.slice(2).map((c) => c.closed));
    for (const c of slow.slice(2)) {
      expect(c.text()).toMatch(/^HTTP\/1\.1 503/);
      expect(c.text().toLowerCase()).toContain("retry-after: 1");
    }
    expect(slow[0]!.text()).toBe("");
    // A chunked body is counted as it arrives: 300 KiB more does not fit.
    const chunked = rawSocket(url);
    chunked.socket.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    for (let i = 0; i < 3 && !chunked.socket.destroyed; i++) chunked.socket.write(`${(100 * KiB).toString(16)}\r\n${"x".repeat(100 * KiB)}\r\n`);
    await chunked.closed;
    expect(chunked.text()).toMatch(/^HTTP\/1\.1 503/);
    // The first body ends: answered, and its bytes are free again for a new request.
    slow[0]!.socket.write(body.slice(100 * KiB));
    expect(await slow[0]!.wait(complete)).toMatch(/^HTTP\/1\.1 200/);
    expect((await post(url, body)).status).toBe(200);
    slow[1]!.socket.destroy();
    await slow[1]!.closed;
    await sleep(20);
    expect((await post(url, body)).status).toBe(200);
    slow[0]!.socket.destroy();
  });

  it("refuses maxBufferedBytes below maxRequestBytes", () => {
    expect(() => createRequestListener({ methods, validators, handlers, maxRequestBytes: 2048, maxBufferedBytes: 1024 })).toThrow(
      expect.objectContaining({ code: "PHOTON_ERR_LISTENER_OPTIONS" }),
    );
  });

  it("serves other connections while a heavy batch runs (the batch yields to the event loop)", async () => {
    // A budget far above the batch's time, so that a loaded machine cannot cut it: yielding is the subject here.
    const url = await withSpin({ maxBatchMs: 60_000 });
    spins = 0;
    const n = 300; // about 600 ms of handler time
    const batch = post(url, `[${Array.from({ length: n }, (_, i) => rpc("spin", undefined, String(i))).join(",")}]`);
    while (spins === 0) await new Promise<void>((r) => setImmediate(r));
    const other = await post(url, rpc("getIndexerSlot"));
    const doneWhenAnswered = spins;
    expectJson(other, 200, ok("18446744073709551615"));
    expect(doneWhenAnswered).toBeLessThan(n);
    const answers = JSON.parse((await batch).body) as { result: number }[];
    expect(answers.map((a) => a.result)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });

  it("stops running a batch's elements once its time budget is spent (-32000 in their slots)", async () => {
    const url = await withSpin({ maxBatchMs: 20 });
    spins = 0;
    const calls = Array.from({ length: 100 }, (_, i) => rpc("spin", undefined, String(i)));
    calls.push(`{"jsonrpc":"2.0","method":"spin","params":null}`, `{"jsonrpc":"1.0","id":"bad","method":"spin"}`);
    const answers = JSON.parse((await post(url, `[${calls.join(",")}]`)).body) as { id: unknown; result?: number; error?: { code: number; message: string } }[];
    expect(answers).toHaveLength(101); // the notification gets no slot
    expect(answers[0]).toEqual({ jsonrpc: "2.0", result: 1, id: 0 });
    expect(answers[99]).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Batch time budget of 20 ms spent: call not run" }, id: 99 });
    expect(answers[100]).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: "bad" });
    expect(spins).toBeLessThan(100);
  });

  it("never parses a number literal longer than 40 characters", async () => {
    const long = "9".repeat(9 * 1024 * 1024);
    // In params: replaced by 2^64 before parsing (validators refuse it; this fake one passes it through).
    const a = await post(base, `{"jsonrpc":"2.0","id":1,"method":"getThing","params":{"owner":"o","limit":${long}}}`);
    expect(JSON.parse(a.body.replace(/"limit":(\d+)/, '"limit":"$1"')).result.value.limit).toBe("18446744073709551616");
    // As the id: unusable, so a notification (no answer), as jsonrpsee.
    expectJson(await post(base, `{"jsonrpc":"2.0","id":${long},"method":"getIndexerSlot"}`), 200, "");
    // A run of number characters that is not a number: not JSON.
    expectJson(await post(base, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","params":[1-${"1".repeat(50)}]}`), 200, PARSE);
    // Long digit runs inside strings are data, not numbers.
    const digits = "1".repeat(60);
    expectJson(await post(base, rpc("getThing", { owner: digits })), 200, ok(`{"value":{"owner":"${digits}","amount":18446744073709551615,"limit":null}}`));
    // A 40-character literal is still read.
    const forty = `1${"0".repeat(39)}`;
    const b = await post(
      base,
      `[{"jsonrpc":"2.0","id":1,"method":"getThing","params":{"owner":"o","limit":${forty}}},{"jsonrpc":"2.0","id":2,"method":"getThing","params":{"owner":"o","limit":-${long}.5e7}}]`,
    );
    expect(b.body).toContain(`"limit":${forty}`);
    expect(b.body).toContain(`"limit":-18446744073709551616`);
  });
});
