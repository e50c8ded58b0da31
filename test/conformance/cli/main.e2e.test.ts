/**
 * No credential reaches stdout or stderr on an error path. Each CLI is
 * spawned as a user runs it, and the secret's text must be absent from everything it prints:
 * a config file's syntax error next to a key (JSON and YAML), an unresolved YAML alias or tag
 * named after one, a config whose values are wrong beside its credentials, a `--spec URL`
 * with userinfo and a token (run, diff, record, check and photon-gen), and a `--header` value
 * commander refuses and quotes.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliArgs } from "../../helpers/cli.js";
import { root } from "../../helpers/paths.js";
import { useScratch } from "../../helpers/scratch.js";

const dir = useScratch("secrets-stderr");
const UNREACHABLE = "http://127.0.0.1:1/";
const SPAWN_MS = 60_000;

/** Runs a CLI from source as a child process (no terminal): its exit code and what it printed. */
function spawnCli(cli: "conformance" | "gen", args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      cliArgs(args, cli),
      { cwd: root, timeout: SPAWN_MS, env: { ...process.env, PHOTON_SECRETS: "", GITHUB_ACTIONS: "" } },
      (err, stdout, stderr) => resolve({ code: typeof err?.code === "number" ? err.code : err ? -1 : 0, out: `${stdout}${stderr}` }),
    );
  });
}

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** Exit 2, something said, and not one of `secrets` (nor its first 8 characters) in it. */
function expectMasked(r: { code: number; out: string }, secrets: readonly string[]): void {
  expect(r.code, r.out).toBe(2);
  expect(r.out.trim().length).toBeGreaterThan(0);
  for (const secret of secrets) {
    expect(r.out).not.toContain(secret);
    expect(r.out).not.toContain(secret.slice(0, 8));
  }
}

describe("a config file's errors", () => {
  it(
    "never quote the text around a syntax fault, in JSON or YAML",
    async () => {
      const json = file("leak.json", `{\n  "url": "${UNREACHABLE}",\n  "api-key": sk_live_AB12cd34EF56\n}\n`);
      const r1 = await spawnCli("conformance", ["run", "--config", json, "--list"]);
      expectMasked(r1, ["sk_live_AB12cd34EF56"]);
      expect(r1.out).toContain(`${json}:3: invalid JSON`);
      const yaml = file("leak.yaml", `url: ${UNREACHABLE}\nsecrets: [!sk_live_TAG77aa "x"]\nheaders:\n  x-api-key: "sk_live_ESC\\q99"\n`);
      const r2 = await spawnCli("conformance", ["run", "--config", yaml, "--list"]);
      expectMasked(r2, ["sk_live_TAG77aa", "sk_live_ESC"]);
      expect(r2.out).toContain(`${yaml}:4: invalid YAML: invalid escape sequence`);
    },
    2 * SPAWN_MS,
  );

  it(
    "never name an unresolved alias",
    async () => {
      const yaml = file("alias.yaml", `url: ${UNREACHABLE}\nsecrets: [*sk_live_ALIAS99xy]\n`);
      const r = await spawnCli("conformance", ["run", "--config", yaml, "--list"]);
      expectMasked(r, ["sk_live_ALIAS99xy"]);
      expect(r.out).toContain(`${yaml}:2: invalid YAML: an alias names no anchor set before it`);
    },
    SPAWN_MS,
  );

  it(
    "mask its credentials in the problems of its own values",
    async () => {
      const yaml = file(
        "values.yaml",
        [
          "url: ftp://deploy:pw_sk_live_USER01@indexer.example/?api-key=qk_sk_live_QUERY2",
          "headers:",
          "  authorization: Bearer hk_sk_live_BEARER3",
          "  x-trace: [not, a, string]",
          "secrets: [sv_sk_live_VALUE44]",
          "timeout: sv_sk_live_VALUE44",
          "",
        ].join("\n"),
      );
      const r = await spawnCli("conformance", ["run", "--config", yaml, "--list"]);
      expectMasked(r, ["pw_sk_live_USER01", "qk_sk_live_QUERY2", "hk_sk_live_BEARER3", "sv_sk_live_VALUE44"]);
      expect(r.out).toContain(`${yaml}:1: /url: --url must be an http:// or https:// URL`);
      expect(r.out).toContain(`${yaml}:6: /timeout:`);
    },
    SPAWN_MS,
  );
});

describe("a --spec URL with userinfo and a token", () => {
  const spec = "http://spec-user:PW_spec_7781@127.0.0.1:1/spec.yaml?token=TK_spec_9932";
  const secrets = ["PW_spec_7781", "TK_spec_9932"];

  it(
    "is never echoed by run, diff, record or check",
    async () => {
      const capture = file("capture.jsonl", "");
      const runs = await Promise.all([
        spawnCli("conformance", ["run", "--spec", spec, "--url", UNREACHABLE]),
        spawnCli("conformance", ["diff", "--spec", spec, "--url", UNREACHABLE, "--against", UNREACHABLE]),
        spawnCli("conformance", ["record", "--spec", spec, "--url", UNREACHABLE, "--out", join(dir, "recorded")]),
        spawnCli("conformance", ["check", "--spec", spec, capture]),
      ]);
      for (const r of runs) {
        expectMasked(r, secrets);
        expect(r.out).toContain("cannot fetch the spec");
      }
    },
    2 * SPAWN_MS,
  );

  it(
    "is never echoed by photon-gen generate or diff",
    async () => {
      const runs = await Promise.all([
        spawnCli("gen", ["generate", "--spec", spec, "--out", join(dir, "out")]),
        spawnCli("gen", ["diff", spec, join(root, "spec", "photon-indexer.yaml")]),
      ]);
      for (const r of runs) {
        expectMasked(r, secrets);
        expect(r.out).toContain("cannot fetch the spec");
      }
    },
    2 * SPAWN_MS,
  );
});

describe("a credential option commander refuses", () => {
  it(
    "is masked in commander's own error, which quotes the value",
    async () => {
      const runs = await Promise.all([
        spawnCli("conformance", ["run", "--header", "Bearer-hd_sk_live_HEADER5", "--list"]),
        spawnCli("conformance", ["diff", "--against-header=ah_sk_live_AGAINST6", "--url", UNREACHABLE, "--list"]),
      ]);
      for (const r of runs) {
        expectMasked(r, ["hd_sk_live_HEADER5", "ah_sk_live_AGAINST6"]);
        expect(r.out).toContain("is invalid. a header is 'Name: value'");
      }
    },
    2 * SPAWN_MS,
  );
});
