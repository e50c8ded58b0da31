/**
 * Real deployment URLs: a credential in the query string, a base path, both; health probes on
 * the origin; a URL typed without a scheme; userinfo sent as Basic auth, end to end.
 */
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { main } from "../../conformance/cli.js";
import { requestUrl } from "../../conformance/target.js";
import { captured } from "../helpers/capture.js";
import { useReferenceIndexer } from "../helpers/reference.js";

const KEY = "k3y-in-the-query-str1ng";
const indexer = useReferenceIndexer();
const run = (...args: string[]) => captured(main, args);

/** A gateway in front of the reference: refuses (401) any request `allowed` rejects, forwards the rest; remembers what it saw. */
async function gateway(
  upstream: string,
  allowed: (req: IncomingMessage) => boolean,
): Promise<{ url: string; seen: { method: string; url: string; authorization?: string }[]; close(): Promise<void> }> {
  const seen: { method: string; url: string; authorization?: string }[] = [];
  const target = new URL(upstream);
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization });
    if (!allowed(req)) {
      req.resume();
      res.writeHead(401, { "content-type": "text/plain" }).end("unauthorised");
      return;
    }
    const { authorization: _a, host: _h, ...headers } = req.headers;
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    seen,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

describe("where a case's request goes", () => {
  it("resolves POST paths against the URL's path, keeps its query first, and sends health probes to the origin alone", () => {
    const base = "https://gw.example.com/rpc?api-key=K";
    expect(requestUrl(base, null)).toBe(base);
    expect(requestUrl(base, { path: "/getCompressedAccount" })).toBe("https://gw.example.com/rpc/getCompressedAccount?api-key=K");
    expect(requestUrl(base, { path: "/" })).toBe(base);
    // The case's own query never replaces the gateway's key; other parameters are added after it.
    expect(requestUrl(base, { path: "/?api-key=conformance-test-key&x=1" })).toBe("https://gw.example.com/rpc?api-key=K&x=1");
    expect(requestUrl("http://h:1/", { path: "/?api-key=conformance-test-key" })).toBe("http://h:1/?api-key=conformance-test-key");
    expect(requestUrl(base, { path: "/liveness", origin: true })).toBe("https://gw.example.com/liveness");
    expect(requestUrl(base, { path: "/liveness?verbose=1", origin: true })).toBe("https://gw.example.com/liveness?verbose=1");
    expect(requestUrl("http://u:p@h:1/rpc", { path: "/readiness", origin: true })).toBe("http://u:p@h:1/readiness");
  });
});

describe("the whole suite against the reference indexer behind a real deployment's URL", () => {
  for (const [name, suffix] of [
    ["a query-string key", `?api-key=${KEY}`],
    ["a base path", "rpc"],
    ["a base path and a query-string key", `rpc?api-key=${KEY}`],
  ] as const) {
    it(`passes every case behind ${name}`, async () => {
      const r = await run("run", "--url", `${indexer().url}${suffix}`, "--reporter", "console");
      expect(r.out).not.toMatch(/^✗/m);
      expect(r.out).toContain("VERDICT: CONFORMANT");
      expect(r.code).toBe(0);
      expect(r.out).not.toContain(KEY);
    }, 60_000);
  }

  it("sends the URL's key with every JSON-RPC POST and health probes to the origin's /liveness and /readiness", async () => {
    const gw = await gateway(indexer().url, () => true);
    try {
      const r = await run("run", "--url", `${gw.url}rpc?api-key=${KEY}`, "--case", "http/*", "--case", "slot/*");
      expect(r.code).toBe(0);
      const posts = gw.seen.filter((s) => s.method === "POST");
      expect(posts.length).toBeGreaterThan(5);
      for (const p of posts) expect(p.url).toMatch(new RegExp(`^/rpc(/[A-Za-z]*)?\\?api-key=${KEY}(&|$)`));
      const probes = gw.seen.filter((s) => s.method === "GET" && /^\/(liveness|readiness)/.test(s.url)).map((s) => s.url);
      expect(probes.sort()).toEqual(["/liveness", "/liveness?verbose=1", "/readiness"]);
    } finally {
      await gw.close();
    }
  }, 60_000);
});

describe("the URL as typed", () => {
  it("refuses a URL without a scheme with exit 2, showing what was typed with its credentials masked", async () => {
    const plain = await run("run", "--url", "127.0.0.1:8784");
    expect(plain.code).toBe(2);
    expect(plain.out).toContain("--url must be an http:// or https:// URL");
    expect(plain.out).toContain("(got '127.0.0.1:8784')");
    const secret = await run("run", "--url", `operator:${KEY}@indexer.example.com:8784/?token=${KEY}`);
    expect(secret.code).toBe(2);
    expect(secret.out).toContain("(got 'operator:***@indexer.example.com:8784/?token=***')");
    expect(secret.out).not.toContain(KEY);
    const ftp = await run("diff", "--url", indexer().url, "--against", "ftp://example.com/");
    expect(ftp.code).toBe(2);
    expect(ftp.out).toContain("--against must be an http:// or https:// URL");
    expect((await run("record", "--url", "localhost:8784", "--out", "x")).code).toBe(2);
  });

  it("sends user:pass@ as Basic auth on every request, and never prints the password", async () => {
    const expected = `Basic ${Buffer.from(`operator:${KEY}`).toString("base64")}`;
    const gw = await gateway(indexer().url, (req) => req.headers.authorization === expected);
    try {
      const url = gw.url.replace("http://", `http://operator:${KEY}@`);
      const r = await run("run", "--url", url, "--case", "http/*", "--case", "slot/*", "--case", "account/*");
      expect(r.out).toContain("VERDICT: CONFORMANT");
      expect(r.code).toBe(0);
      expect(gw.seen.length).toBeGreaterThan(10);
      expect(gw.seen.every((s) => s.authorization === expected)).toBe(true);
      expect(r.out).not.toContain(KEY);
      expect(r.out).not.toContain(Buffer.from(`operator:${KEY}`).toString("base64"));
    } finally {
      await gw.close();
    }
  }, 60_000);
});
