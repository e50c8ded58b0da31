/**
 * A target that refuses every request alike (401/403: wrong credentials; an HTML page: wrong
 * URL) stops the command after its first answers with one line saying so (exit 2), not 880
 * failures; a target refusing only some requests is judged as usual.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { REFUSAL_ANSWERS } from "../../conformance/refusals.js";
import { TOKEN_PROGRAM } from "../../reference/index.js";
import { captured } from "../helpers/capture.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";

const run = (...args: string[]) => captured(main, args);
const indexer = useReferenceIndexer();
const dir = useScratch("conformance-refusals");

/** A server answering each request with `answer(n)` (n: 1 for the first request); `count()` says how many came. */
async function serve(answer: (n: number, req: IncomingMessage, res: ServerResponse, body: string) => void) {
  let n = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => answer(++n, req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    count: () => n,
    close: () => (server.closeAllConnections(), new Promise((resolve) => server.close(resolve))),
  };
}

const unauthorized = (_n: number, _req: IncomingMessage, res: ServerResponse) =>
  res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid api key"}');
const html = (_n: number, _req: IncomingMessage, res: ServerResponse) =>
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!DOCTYPE html><html><head><title>Welcome</title></head><body>hi</body></html>");

/** Relays a request to the reference indexer. */
async function relay(res: ServerResponse, body: string): Promise<void> {
  const answer = await fetch(indexer().url, { method: "POST", headers: { "content-type": "application/json" }, body });
  res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" }).end(await answer.text());
}

describe("a target refusing every request", () => {
  it("401 to everything: one line naming the status and the credentials, exit 2, after the first answers", async () => {
    const target = await serve(unauthorized);
    try {
      const r = await run("run", "--url", `${target.url}?api-key=SECRET`);
      expect(r.code).toBe(2);
      expect(r.out).toBe(
        `photon-conformance: ${target.url}?api-key=***: every request answered HTTP 401 (the first ${REFUSAL_ANSWERS}; nothing judged): check the credentials (the URL's api-key, --header)\n`,
      );
      // The reachability probe, asked again while refused: no case was sent.
      expect(target.count()).toBe(REFUSAL_ANSWERS);
      // diff names the refusing side, and --discover stops as soon (its calls are answers too).
      const diffed = await run("diff", "--url", indexer().url, "--against", target.url);
      expect(diffed.code).toBe(2);
      expect(diffed.out).toContain(`${target.url}: every request answered HTTP 401`);
      const before = target.count();
      const discovered = await run("run", "--url", target.url, "--discover", "--seed-owner", TOKEN_PROGRAM);
      expect(discovered.code).toBe(2);
      expect(discovered.out).toContain("every request answered HTTP 401");
      expect(target.count() - before).toBe(REFUSAL_ANSWERS);
    } finally {
      await target.close();
    }
  }, 60_000);

  it("an HTML page to everything: one line saying so, exit 2 (record too)", async () => {
    const target = await serve(html);
    try {
      // The target answers HTML: refused, no case runs.
      for (const args of [
        ["run", "--url", target.url],
        ["record", "--url", target.url, "--out", join(dir, "never")],
      ]) {
        const r = await run(...args);
        expect(r.code, args.join(" ")).toBe(2);
        expect(r.out).toBe(
          `photon-conformance: ${target.url} answers HTML, not JSON-RPC (HTTP 200 to each of the first ${REFUSAL_ANSWERS} requests; nothing judged): check the URL, the indexer's JSON-RPC endpoint\n`,
        );
      }
      expect(existsSync(join(dir, "never"))).toBe(false);
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe("a target refusing only some requests is judged", () => {
  type Answer = (n: number, req: IncomingMessage, res: ServerResponse, body: string) => void;
  const cases: [string, Answer, number][] = [
    // The first answers refused (one fewer than stops a command), then the reference's own: judged, and it conforms.
    ["refusals, then JSON-RPC", (n, req, res, body) => (n < REFUSAL_ANSWERS ? unauthorized(n, req, res) : void relay(res, body)), 0],
    // Every answer a refusal, but not all the same one: judged, and it fails.
    ["401s mixed with HTML", (n, req, res) => (n % 2 === 0 ? unauthorized(n, req, res) : html(n, req, res)), 1],
  ];
  it.each(cases)(
    "%s: the cases are judged and the verdict given",
    async (_name, answer, code) => {
      const target = await serve(answer);
      try {
        const r = await run("run", "--url", target.url, "--case", "slot/*", "--case", "account/*", "--concurrency", "1", "--verbose");
        expect(r.code).toBe(code);
        expect(r.out).toContain(code === 0 ? "VERDICT: CONFORMANT" : "VERDICT: NOT CONFORMANT");
        expect(r.out).toMatch(code === 0 ? /✓ account\// : /✗ account\//);
      } finally {
        await target.close();
      }
    },
    60_000,
  );
});
