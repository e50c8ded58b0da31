/**
 * `diff` keeps each side's headers to itself, masks both sides' secrets, names the trusted side,
 * and cannot be passed by an indexer that answers wrong data at a fresh slot every time.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { diffTargets } from "../../conformance/compare.js";
import { INCONCLUSIVE_ID } from "../../conformance/verdict.js";
import { createListener } from "../../generated/index.js";
import { createReferenceHandlers, datasetProfile, generateDataset, ReferenceStore, TOKEN_PROGRAM } from "../../reference/index.js";
import { captured } from "../helpers/capture.js";
import { root } from "../helpers/paths.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";
import { editValue, startBroken, type BrokenServer } from "./support/broken-servers.js";

const dir = useScratch("compare-sides");
const casesDir = join(root, "conformance", "cases");
const dataset = generateDataset();
const fixtures = () => datasetProfile(dataset) as never;
const SLOT = 301002501; // the reference dataset's slot (conformance/fixtures/reference.json)

/** A reference indexer that records the headers of every request it gets. */
async function recording(seed: number): Promise<{ url: string; seen: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const listener = createListener(createReferenceHandlers(new ReferenceStore(seed === 1 ? dataset : generateDataset({ seed }))));
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => (seen.push(req.headers), listener(req, res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    seen,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

/** An indexer at a fresh slot on every answer (context.slot, and getIndexerSlot's bare result), its data edited by `edit`. */
function moving(slot: () => number, edit: (b: any) => void = () => {}): Promise<BrokenServer> {
  return startBroken(dataset, {
    wire: (body: any) => {
      for (const b of Array.isArray(body) ? body : [body]) {
        if (b?.result?.context) b.result.context.slot = slot();
        else if (typeof b?.result === "number" || typeof b?.result === "bigint") b.result = slot();
        edit(b);
      }
      return body;
    },
  });
}

const trusted = useReferenceIndexer();

describe("diff: each side's headers and secrets", () => {
  const urlSecrets = { query: "urlQuerySecret1", auth: "url-secret-1111", session: "urlsession2222" };
  const againstSecrets = { query: "againstQuery3333", key: "against-secret-4444", jwt: "againstjwt5555" };
  const all = [...Object.values(urlSecrets), ...Object.values(againstSecrets)];

  it("sends --header to --url only and --against-header to --against only, discovery included, and masks both in every output", async () => {
    const [a, b] = await Promise.all([recording(1), recording(2)]); // different data: the report lists differences with curl lines
    const json = join(dir, "headers.json");
    try {
      const r = await captured(main, [
        "diff",
        "--url",
        `${a.url}?api-key=${urlSecrets.query}`,
        "--header",
        `authorization: Bearer ${urlSecrets.auth}`,
        "--header",
        `x-session-id: ${urlSecrets.session}`,
        "--against",
        `${b.url}?token=${againstSecrets.query}`,
        "--against-header",
        `x-api-key: ${againstSecrets.key}`,
        "--against-header",
        `x-jwt: ${againstSecrets.jwt}`,
        "--discover",
        "--seed-owner",
        TOKEN_PROGRAM,
        "--case",
        "account/by-hash",
        "--case",
        "token-balances/many-mints",
        "--reporter",
        "console",
        "--reporter",
        "json",
        "--output",
        json,
      ]);
      expect(r.code, r.out).toBe(1);
      expect(a.seen.length).toBeGreaterThan(b.seen.length); // discovery asked --url only
      expect(b.seen.length).toBeGreaterThan(0);
      for (const h of a.seen) {
        expect(h.authorization).toBe(`Bearer ${urlSecrets.auth}`);
        expect(h["x-session-id"]).toBe(urlSecrets.session);
        expect(JSON.stringify(h)).not.toMatch(/against|x-api-key|x-jwt/);
      }
      for (const h of b.seen) {
        expect(h["x-api-key"]).toBe(againstSecrets.key);
        expect(h["x-jwt"]).toBe(againstSecrets.jwt);
        expect(JSON.stringify(h)).not.toMatch(/url-secret|urlsession|authorization|x-session-id/);
      }
      const report = readFileSync(json, "utf8");
      for (const secret of all) {
        expect(r.out).not.toContain(secret);
        expect(report).not.toContain(secret);
      }
      // Which side is which, and a curl line for each.
      expect(r.out).toContain("(trusted, --against)");
      expect(r.out).toMatch(/reproduce on --url \(under test\): curl .*127\.0\.0\.1:\d+\/\?api-key=\*\*\*.*-H 'authorization: \*\*\*'/);
      expect(r.out).toMatch(/reproduce on --against \(trusted\): curl .*127\.0\.0\.1:\d+\/\?token=\*\*\*.*-H 'x-api-key: \*\*\*'/);
      const parsed = JSON.parse(report) as {
        options: Record<string, unknown>;
        cases: { id: string; request: { url: string } | null; againstRequest?: { url: string } }[];
      };
      expect(parsed.options.trusted).toBe("against");
      const byHash = parsed.cases.find((c) => c.id === "account/by-hash")!;
      expect(byHash.request!.url).toContain(new URL(a.url).port);
      expect(byHash.againstRequest!.url).toContain(new URL(b.url).port);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);
});

describe("diff: differences that do not depend on the slot fail", () => {
  it("fails an indexer answering wrong account data at a fresh slot every time, whatever --max-inconclusive", async () => {
    let tick = 0;
    const wrong = await moving(
      () => 10 ** 9 + tick++,
      (b) => editValue((v) => typeof v.lamports === "number" && (v.lamports += 1))(b),
    );
    try {
      const summary = await diffTargets({
        url: wrong.url,
        against: trusted().url,
        casesDir,
        fixtures: fixtures(),
        caseGlobs: ["account/by-hash"],
        maxInconclusive: 1000,
      });
      const byHash = summary.results.find((r) => r.id === "account/by-hash")!;
      expect(byHash.status).toBe("fail");
      const lamports = byHash.findings.find((f) => /^the same hash \S+ differs at lamports/.test(f.message))!;
      expect(lamports.status).toBe("fail");
      expect(BigInt(lamports.actual!)).toBe(BigInt(lamports.expected!) + 1n); // expected: the trusted side's value
      expect(summary.passed).toBe(false);
      const r = await captured(main, ["diff", "--url", wrong.url, "--against", trusted().url, "--case", "account/by-hash", "--max-inconclusive", "1000"]);
      expect(r.code, r.out).toBe(1);
    } finally {
      await wrong.close();
    }
  }, 60_000);

  it("fails, whatever --max-inconclusive, when each side answered the same twice over slot ranges that overlap", async () => {
    let tick = 0;
    // Slots on either side of the trusted one's, list emptied: no chain movement explains it.
    const wrong = await moving(
      () => SLOT - 1 + 2 * (tick++ % 2),
      (b) => Array.isArray(b?.result?.value?.token_balances) && (b.result.value.token_balances = []),
    );
    try {
      const summary = await diffTargets({
        url: wrong.url,
        against: trusted().url,
        casesDir,
        fixtures: fixtures(),
        caseGlobs: ["token-balances/many-mints"],
        maxInconclusive: 1000,
        concurrency: 1,
      });
      const r = summary.results.find((x) => x.id === "token-balances/many-mints")!;
      expect(r.status).toBe("fail");
      expect(r.findings.some((f) => f.status === "fail" && /each side answered the same on both attempts and their slots overlap/.test(f.message))).toBe(true);
      expect(summary.passed).toBe(false);
    } finally {
      await wrong.close();
    }
  }, 60_000);

  it("passes an indexer differing only in its slot (context.slot and getIndexerSlot)", async () => {
    let tick = 0;
    const ahead = await moving(() => 10 ** 9 + tick++);
    try {
      const json = join(dir, "slot-only.json");
      const r = await captured(main, [
        "diff",
        "--url",
        ahead.url,
        "--against",
        trusted().url,
        "--case",
        "slot/*",
        "--case",
        "account/*",
        "--case",
        "signatures/one-account",
        "--max-inconclusive",
        "0",
        "--reporter",
        "json",
        "--output",
        json,
      ]);
      expect(r.code, r.out).toBe(0);
      const report = JSON.parse(readFileSync(json, "utf8")) as { options: { inconclusive: number }; cases: { id: string; status: string }[] };
      expect(report.options.inconclusive).toBe(0);
      expect(report.cases.filter((c) => c.status !== "pass")).toEqual([]);
      expect(report.cases.length).toBeGreaterThan(25);
    } finally {
      await ahead.close();
    }
  }, 60_000);

  it("counts inconclusive cases, reports them, and fails past --max-inconclusive (default 10% of the required cases compared)", async () => {
    let tick = 0;
    const lagging = await moving(
      () => 10 ** 9 + tick++,
      (b) => Array.isArray(b?.result?.value?.token_balances) && (b.result.value.token_balances = []),
    );
    const json = join(dir, "inconclusive.json");
    try {
      const args = ["diff", "--url", lagging.url, "--against", trusted().url, "--case", "token-balances/*"];
      const dflt = await captured(main, [...args, "--reporter", "json", "--output", json]);
      const report = JSON.parse(readFileSync(json, "utf8")) as {
        options: { inconclusive: number; maxInconclusive: number | string };
        cases: { id: string; status: string; checks: { message: string }[] }[];
      };
      const n = report.options.inconclusive;
      const compared = report.cases.filter((c) => c.id !== INCONCLUSIVE_ID && c.status !== "skip").length;
      expect(n).toBeGreaterThan(1);
      expect(n * 10).toBeGreaterThan(compared); // every list emptied: more than a tenth inconclusive
      expect(dflt.code).toBe(1);
      expect(report.options.maxInconclusive).toBe("10%");
      const counted = report.cases.find((c) => c.id === INCONCLUSIVE_ID)!;
      expect(counted.status).toBe("fail");
      expect(counted.checks[0]!.message).toMatch(
        new RegExp(`^${n} required cases inconclusive .*--max-inconclusive 10% of ${compared} required cases compared`),
      );
      expect(report.cases.filter((c) => c.checks[0]?.message.startsWith("inconclusive:")).every((c) => c.status === "warn")).toBe(true);

      const within = await captured(main, [...args, "--max-inconclusive", String(n)]);
      expect(within.code, within.out).toBe(0);
      expect(within.out).toContain(`${n} required cases inconclusive`);
      expect((await captured(main, [...args, "--max-inconclusive", String(n - 1)])).code).toBe(1);
      expect((await captured(main, [...args, "--max-inconclusive", `${Math.ceil((100 * n) / compared)}%`])).code).toBe(0);
      expect((await captured(main, [...args, "--max-inconclusive", "0"])).code).toBe(1);
    } finally {
      await lagging.close();
    }
  }, 60_000);
});
