/**
 * A server failing every way in rotation and echoing the credentials it gets: no byte of stdout,
 * stderr or any report holds the URL's api key, the `--header` key or the bearer token.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";
import { createClient } from "../../generated/index.js";
import { parseJson, stringifyJson } from "../../runtime/index.js";
import { behaviours, HUGE_BYTES, rateLimitedOnce } from "./behaviours.js";
import { cli, TIMEOUT_MS } from "./harness.js";
import { closeAll, closeUpstreamAgent, idOf, respond, startRaw, streamHuge, type Behaviour } from "./servers.js";

const QUERY_KEY = "hk_live_5f3a9c0e7b2d4a61";
const HEADER_KEY = "xk-9d8c7b6a5f4e3d2c1b0a";
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.sig_0123456789";
const SECRETS = [QUERY_KEY, HEADER_KEY, TOKEN];

const dir = useScratch("hostile-secrets");
const reference = useReferenceIndexer();
afterAll(async () => {
  await closeAll();
  await closeUpstreamAgent();
});

/** Behaviours that hand the request's credentials back. */
const echoes: Behaviour[] = [
  // An HTML error page quoting the whole request: URL, headers and body.
  (x) => respond(x.socket, 500, `<html><body><h1>Bad gateway</h1><pre>${x.request.raw}</pre></body></html>`, { "content-type": "text/html" }),
  // A JSON-RPC error naming the keys, with the request headers as its data.
  (x) =>
    respond(
      x.socket,
      200,
      JSON.stringify({
        jsonrpc: "2.0",
        id: idOf(x.request.body),
        error: {
          code: -32000,
          message: `invalid api key ${x.request.path} ${x.request.headers["x-api-key"]} for ${x.request.headers.authorization}`,
          data: x.request.headers,
        },
      }),
    ),
  // A result made of the request (fails the schema, and is shown as the actual value).
  (x) =>
    respond(
      x.socket,
      200,
      JSON.stringify({
        jsonrpc: "2.0",
        id: idOf(x.request.body),
        result: { context: { slot: 1 }, value: { echo: x.request.raw, headers: x.request.headers } },
      }),
    ),
  // The request as the response's id.
  (x) => respond(x.socket, 200, JSON.stringify({ jsonrpc: "2.0", id: `${x.request.path} ${x.request.headers.authorization}`, result: 1 })),
  // Credentials in response headers and a cookie, with a right answer.
  async (x) => {
    const a = await x.answer();
    respond(x.socket, a.status, a.body, {
      "x-echo": `${x.request.headers["x-api-key"]} ${x.request.headers.authorization}`,
      "set-cookie": `session=${x.request.path}`,
    });
  },
  // A 429 quoting the key, with a Retry-After too long to wait.
  (x) => respond(x.socket, 429, `rate limited: ${x.request.path} ${x.request.headers["x-api-key"]}`, { "content-type": "text/plain", "retry-after": "3600" }),
];

/** The credentials as the server received them. */
function received(x: Parameters<Behaviour>[0]): string[] {
  const query = /api-key=([^&]*)/.exec(x.request.path)?.[1] ?? "";
  return [query, x.request.headers["x-api-key"] ?? "", (x.request.headers.authorization ?? "").replace(/^Bearer /, "")];
}

/** Every string of `value` replaced by `text`. */
function fill(value: unknown, text: string): unknown {
  if (typeof value === "string") return text;
  if (Array.isArray(value)) return value.map((v) => fill(v, text));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, text)]));
  return value;
}

/**
 * Echoes placed where excerpts cut them: checks show values up to 160 characters, the runner
 * keeps 4096 characters of a body, the client 200, V8 quotes the first ten of unparseable
 * text. A credential cut in two is no longer recognised by a redactor matching whole values.
 */
const cutEchoes: Behaviour[] = [
  ...[150, 140, 130].map(
    (pad): Behaviour =>
      async (x) => {
        const right = parseJson((await x.answer()).body) as { result?: unknown };
        const secret = received(x)[pad % 3]!;
        respond(x.socket, 200, stringifyJson({ ...right, result: fill(right.result, "p".repeat(pad) + secret) }));
      },
  ),
  (x) => respond(x.socket, 502, "p".repeat(4086) + received(x)[2], { "content-type": "text/plain" }),
  (x) => respond(x.socket, 502, "p".repeat(190) + received(x)[1], { "content-type": "text/plain" }),
  (x) => respond(x.socket, 200, `${received(x)[0]} is not a valid api key`),
];

/** The first 8-character piece of a secret found in `text`, if any. */
function leak(text: string | Buffer): string | null {
  const t = text.toString();
  for (const secret of SECRETS) for (let i = 0; i + 8 <= secret.length; i++) if (t.includes(secret.slice(i, i + 8))) return secret.slice(i, i + 8);
  return null;
}

/** Every failure of the catalogue, the echoes, and a 429 that passes after a second. */
function rotation(): Behaviour[] {
  const all: Behaviour[] = [];
  for (const [name, entry] of Object.entries(behaviours)) {
    if (name === "never answers")
      all.push(() => "close"); // read, then silence (pauseOnConnect is per server)
    else if (name === "sends a 200 MB body") all.push((x) => (streamHuge(x.socket, HUGE_BYTES, false), "close"));
    else all.push(entry.behaviour);
  }
  all.push(...echoes, ...cutEchoes, rateLimitedOnce());
  return all;
}

describe("secrets", () => {
  it("no api key or token in any byte of stdout, stderr or any report, whatever the server does", async () => {
    const list = rotation();
    const server = await startRaw((x) => list[(x.index - 1) % list.length]!(x), { upstream: reference().url, lifetimeMs: 40_000 });
    const files = {
      console: join(dir, "console.txt"),
      json: join(dir, "report.json"),
      junit: join(dir, "report.xml"),
      github: join(dir, "github.txt"),
      markdown: join(dir, "report.md"),
    };
    const r = await cli([
      "run",
      "--url",
      `${server.url}?api-key=${QUERY_KEY}&cluster=mainnet`,
      "--header",
      `x-api-key: ${HEADER_KEY}`,
      "--header",
      `Authorization: Bearer ${TOKEN}`,
      "--timeout",
      String(TIMEOUT_MS),
      "--case",
      "account/*",
      "--case",
      "batch/*",
      "--case",
      "slot/*",
      "--reporter",
      "console",
      ...Object.entries(files).flatMap(([name, file]) => ["--reporter", name, "--output", file]),
    ]);

    // The server got the credentials, and the run went through the whole rotation and more.
    expect(server.requests.length).toBeGreaterThan(list.length);
    const sent = server.requests.map((q) => q.raw).join("\n");
    for (const secret of SECRETS) expect(sent).toContain(secret);

    expect(r.stderr).not.toContain("unexpected error");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("VERDICT: NOT CONFORMANT");
    const outputs: [string, Buffer][] = [
      ["stdout", Buffer.from(r.stdout)],
      ["stderr", Buffer.from(r.stderr)],
      ...Object.entries(files).map(([name, file]): [string, Buffer] => [name, readFileSync(file)]),
    ];
    for (const [name, bytes] of outputs) {
      for (const secret of SECRETS) expect(bytes.includes(secret), `${name} holds ${secret}`).toBe(false);
      expect(leak(bytes), `${name} holds a piece of a secret`).toBeNull();
      if (name !== "stderr") expect(bytes.length, name).toBeGreaterThan(200);
    }
    // The reports still say where the run went and what failed, masked.
    expect(readFileSync(files.json, "utf8")).toContain("api-key=***&cluster=***");
    expect(readFileSync(files.console, "utf8")).toMatch(/reproduce: curl .*-H 'x-api-key: \*\*\*' -H 'authorization: \*\*\*'/);
  }, 40_000);

  it("the generated client: no secret, nor a piece of one, in any error message", async () => {
    const list = [...echoes, ...cutEchoes];
    const server = await startRaw((x) => list[(x.index - 1) % list.length]!(x), { upstream: reference().url });
    const client = createClient({
      url: `${server.url}?api-key=${QUERY_KEY}`,
      headers: { "x-api-key": HEADER_KEY, authorization: `Bearer ${TOKEN}` },
      timeoutMs: TIMEOUT_MS,
      retry: false,
    });
    const messages: string[] = [];
    for (let i = 0; i < list.length; i++) {
      await client.getCompressedAccount({ address: "3B5wEYuxHq6JYsaGiWrHAkmQDinJVaog3ZCYxeen5ii7" }).then(
        () => messages.push("(answered)"),
        (err: Error) => messages.push(`${err.name}: ${err.message}`),
      );
    }
    expect(server.requests).toHaveLength(list.length);
    expect(messages.filter((m) => m.includes("***")).length).toBeGreaterThan(0);
    for (const m of messages) expect(leak(m), m).toBeNull();
  }, 20_000);
});
