/**
 * Output injection end to end: a JSON-RPC server whose every error message (and
 * error data, and a response header) is made of injections, certified through the CLI with
 * every reporter. No output may carry a forged verdict, a terminal escape, a second GitHub
 * command, HTML or a link from the server, or be anything but well-formed XML and JSON.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { parseJson } from "../../runtime/index.js";
import { captured } from "../helpers/capture.js";
import { useScratch } from "../helpers/scratch.js";
import { closeAll, respond, startRaw, type RawServer } from "../hostile/servers.js";
import {
  expectConsoleStructure,
  expectSafeConsole,
  expectSafeGithub,
  expectSafeJson,
  expectSafeJunit,
  expectSafeMarkdown,
  HOSTILE,
} from "./support/reporters-safety.js";

const dir = useScratch("injection-e2e");
let server: RawServer;

/** Every call answered with a JSON-RPC error whose message and data are the injections. */
function hostileError(body: string): string {
  const error = (id: unknown) => ({ jsonrpc: "2.0", id: id ?? null, error: { code: -32601, message: HOSTILE, data: { why: HOSTILE } } });
  try {
    const request = JSON.parse(body) as unknown;
    if (Array.isArray(request)) return JSON.stringify(request.map((r) => error((r as { id?: unknown }).id)));
    return JSON.stringify(error((request as { id?: unknown }).id));
  } catch {
    return JSON.stringify(error(null));
  }
}

beforeAll(async () => {
  server = await startRaw((x) => respond(x.socket, 200, hostileError(x.request.body), { "x-note": "<img src=x onerror=alert(1)> ![x](http://track/p.png)" }), {
    lifetimeMs: 60_000,
  });
});
afterAll(async () => {
  await closeAll();
});

interface Reported {
  passed: boolean;
  cases: { id: string; status: string; checks: { status: string }[] }[];
  methods: { method: string; status: string; fails: boolean }[];
}

describe("a target whose error messages are injections", () => {
  it("gets a truthful NOT CONFORMANT from every reporter, none of them taken over", async () => {
    const files = { json: join(dir, "r.json"), junit: join(dir, "r.xml"), markdown: join(dir, "r.md"), github: join(dir, "r.txt") };
    const r = await captured(main, [
      "run",
      "--url",
      server.url,
      "--timeout",
      "2000",
      "--case",
      "protocol/unknown-method",
      "--case",
      "slot/indexer-slot",
      "--case",
      "account/by-address",
      "--reporter",
      "console",
      "--reporter",
      "json",
      "--output",
      files.json,
      "--reporter",
      "junit",
      "--output",
      files.junit,
      "--reporter",
      "markdown",
      "--output",
      files.markdown,
      "--reporter",
      "github",
      "--output",
      files.github,
    ]);
    expect(r.code).toBe(1);
    expectSafeConsole(r.out, false);
    expectConsoleStructure(r.out);
    // The injection did reach the report (shown escaped), so these properties mean something.
    expect(r.out).toContain("\\x1b[2K");

    const json = readFileSync(files.json, "utf8");
    expectSafeJson(json, false);
    const report = parseJson(json) as Reported;
    expect(report.cases).toHaveLength(3);
    const shown = report.cases
      .filter((c) => c.status === "fail" || c.status === "warn")
      .flatMap((c) => c.checks.filter((f) => f.status === "fail" || f.status === "warn")).length;
    expect(shown).toBeGreaterThan(0);

    const md = readFileSync(files.markdown, "utf8");
    expectSafeMarkdown(md, false, shown);
    expect(md).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expectSafeJunit(readFileSync(files.junit, "utf8"), false);
    // Every call answered -32601: its two spec methods are not served, one error annotation each besides the findings'.
    const notServed = report.methods.filter((m) => m.fails);
    expect(notServed.map((m) => m.status)).toEqual(["not served", "not served"]);
    expectSafeGithub(readFileSync(files.github, "utf8"), false, shown + notServed.length);
  });
});
