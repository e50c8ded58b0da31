/**
 * Where a case's request goes on a real deployment's URL (a query-string key, a base path, both),
 * health probes on the origin, and userinfo sent as Basic auth, seen by a gateway.
 */
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
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
    // A base path without a query, and a bare origin.
    expect(requestUrl("https://gw.example.com/rpc", { path: "/getCompressedAccount" })).toBe("https://gw.example.com/rpc/getCompressedAccount");
    expect(requestUrl("https://gw.example.com/rpc/", { path: "/" })).toBe("https://gw.example.com/rpc/");
    expect(requestUrl("http://h:1/", { path: "/getIndexerSlot" })).toBe("http://h:1/getIndexerSlot");
    // The case's own query never replaces the gateway's key; other parameters are added after it.
    expect(requestUrl(base, { path: "/?api-key=conformance-test-key&x=1" })).toBe("https://gw.example.com/rpc?api-key=K&x=1");
    expect(requestUrl("http://h:1/", { path: "/?api-key=conformance-test-key" })).toBe("http://h:1/?api-key=conformance-test-key");
    expect(requestUrl(base, { path: "/liveness", origin: true })).toBe("https://gw.example.com/liveness");
    expect(requestUrl(base, { path: "/liveness?verbose=1", origin: true })).toBe("https://gw.example.com/liveness?verbose=1");
    expect(requestUrl("http://u:p@h:1/rpc", { path: "/readiness", origin: true })).toBe("http://u:p@h:1/readiness");
  });
});

describe("requests behind a gateway", () => {
  it("sends the URL's key with every JSON-RPC POST and health probes to the origin's /liveness and /readiness", async () => {
    const gw = await gateway(indexer().url, () => true);
    try {
      const r = await run("run", "--url", `${gw.url}rpc?api-key=${KEY}`, "--case", "http/*", "--case", "slot/*");
      expect(r.code).toBe(0);
      expect(r.out).not.toContain(KEY);
      const posts = gw.seen.filter((s) => s.method === "POST");
      expect(posts.length).toBeGreaterThan(5);
      for (const p of posts) expect(p.url).toMatch(new RegExp(`^/rpc(/[A-Za-z]*)?\\?api-key=${KEY}(&|$)`));
      const probes = gw.seen.filter((s) => s.method === "GET" && /^\/(liveness|readiness)/.test(s.url)).map((s) => s.url);
      expect(probes.sort()).toEqual(["/liveness", "/liveness?verbose=1", "/readiness"]);
    } finally {
      await gw.close();
    }
  }, 60_000);

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
