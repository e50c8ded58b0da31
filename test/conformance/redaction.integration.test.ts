/**
 * Redaction happens at the output edge only: the data being judged is what the
 * target sent, whatever the run's secrets are; every output (stdout, stderr, each report,
 * recorded case files) masks them. Secrets are the values of credential-like query keys,
 * userinfo, every --header value whatever its name, and --secret / PHOTON_SECRETS values.
 */
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { parseJson } from "../../runtime/index.js";
import { captured } from "../helpers/capture.js";
import { root } from "../helpers/paths.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("conformance-redaction");
const KEY = "k3y-of-the-operator-77";
const JWT = "jwt.payload-of-the-operator";
/** A value that also occurs in the data being judged: the reference dataset's busiest owner. */
const fixtures = parseJson(readFileSync(join(root, "conformance", "fixtures", "reference.json"), "utf8")) as { ownerWithManyAccounts: { owner: string } };
const OWNER = fixtures.ownerWithManyAccounts.owner;
/** Every JSON-RPC case folder (the HTTP-surface cases probe paths of their own). */
const RPC_CASES = [
  "account/*",
  "accounts-by-owner/*",
  "batch/*",
  "multiple/*",
  "protocol/*",
  "signatures/*",
  "slot/*",
  "token-accounts/*",
  "token-balances/*",
].flatMap((g) => ["--case", g]);

const indexer = useReferenceIndexer();
const run = (...args: string[]) => captured(main, args);
afterAll(async () => {
  vi.unstubAllEnvs();
});

describe("redaction at the output edge", () => {
  it("judges the target's own answers: `?format=json`, a header valued `jsonrpc` and a secret that is in the data change no verdict", async () => {
    const files = { json: join(dir, "r.json"), junit: join(dir, "r.xml"), markdown: join(dir, "r.md"), github: join(dir, "r.txt") };
    const r = await run(
      "run",
      "--url",
      `${indexer().url}?format=json&cluster=mainnet&api-key=${KEY}`,
      "--header",
      "x-session-id: jsonrpc",
      "--header",
      `x-jwt: ${JWT}`,
      "--secret",
      OWNER,
      ...RPC_CASES,
      "--reporter",
      "console",
      ...Object.entries(files).flatMap(([name, file]) => ["--reporter", name, "--output", file]),
    );
    expect(r.out).toContain("VERDICT: CONFORMANT");
    expect(r.code).toBe(0);
    const report = parseJson(readFileSync(files.json, "utf8")) as { counts: Record<string, number> };
    expect(report.counts.fail).toBe(0);
    expect(report.counts.pass).toBeGreaterThan(150);
    // The outputs mask every secret, including the one that is also a judged value.
    const outputs = [r.out, ...Object.values(files).map((f) => readFileSync(f, "utf8"))];
    for (const text of outputs) {
      for (const secret of [KEY, JWT, OWNER]) expect(text).not.toContain(secret);
    }
    // Non-credential query values are not secrets: they stay readable where the run names its target...
    expect(readFileSync(files.json, "utf8")).toContain("format=");
    // ...and the header named nothing special is masked where requests are shown.
    expect(r.out).not.toMatch(/x-session-id: jsonrpc/);
  }, 60_000);

  it("masks PHOTON_SECRETS values and the short secrets of credential keys as whole tokens", async () => {
    vi.stubEnv("PHOTON_SECRETS", `${OWNER}\n`);
    const file = join(dir, "env.md");
    const r = await run("run", "--url", `${indexer().url}?token=ab`, "--case", "accounts-by-owner/*", "--reporter", "markdown", "--output", file);
    vi.unstubAllEnvs();
    expect(r.code).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(OWNER);
    expect(text).not.toMatch(/(?<![\p{L}\p{N}_])ab(?![\p{L}\p{N}_])/u);
    expect(text).toMatch(/Verdict: CONFORMANT/i);
  }, 60_000);

  it("record writes the answers with the secrets masked, and the judged data is the target's", async () => {
    const out = join(dir, "recorded");
    const cases = join(dir, "cases");
    cpSync(join(root, "conformance", "cases"), cases, { recursive: true });
    const r = await run(
      "record",
      "--url",
      `${indexer().url}?format=json`,
      "--cases",
      cases,
      "--out",
      out,
      "--case",
      "accounts-by-owner/*",
      "--secret",
      OWNER,
      "--header",
      `x-jwt: ${JWT}`,
    );
    expect(r.code).toBe(0);
    const written = readdirSync(join(out, "accounts-by-owner")).map((f) => readFileSync(join(out, "accounts-by-owner", f), "utf8"));
    expect(written.length).toBeGreaterThan(10);
    for (const text of [r.out, ...written]) {
      expect(text).not.toContain(OWNER);
      expect(text).not.toContain(JWT);
    }
    // `jsonrpc` was not a secret here and stays whole in the recorded envelopes.
    expect(written.join("\n")).toContain("jsonrpc");
  }, 60_000);
});
