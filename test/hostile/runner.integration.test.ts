/**
 * photon-conformance run against hostile servers, in-process: each behaviour gets a truthful
 * verdict naming its cause (a recoverable 429 passes after waiting), no crash, no redirect followed.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";
import { rateLimitedOnce, redirectTo, startBehaviour, type BehaviourName } from "./behaviours.js";
import { CASES, failures, runAgainst, TIMEOUT_MS } from "./harness.js";
import { closeAll, closeUpstreamAgent, startRaw, using, type RawServer } from "./servers.js";

const dir = useScratch("hostile-runner");
const reference = useReferenceIndexer();
let reportNo = 0;
afterAll(async () => {
  await closeAll();
  await closeUpstreamAgent();
});

interface Verdict {
  /** Cases run (default CASES). */
  cases?: string[];
  /** Cases that must fail (default: all of them); the others must pass. */
  failed?: string[];
  /** Each failed case has a failing check matching every one of these. */
  cause: RegExp[];
  /** --timeout: TIMEOUT_MS where the behaviour is the timeout, patient otherwise. */
  timeoutMs?: number;
}

/** Runs the selected cases against `server` and checks verdict, messages and time. */
async function expectVerdict(server: RawServer, verdict: Verdict): Promise<void> {
  const cases = verdict.cases ?? CASES;
  const failed = new Set(verdict.failed ?? cases);
  const r = await runAgainst(server.url, join(dir, `r${++reportNo}.json`), { cases, timeoutMs: verdict.timeoutMs });
  expect(r.stderr).not.toContain("unexpected error");
  expect(r.code).toBe(failed.size > 0 ? 1 : 0);
  expect(r.stdout).toContain(failed.size > 0 ? "VERDICT: NOT CONFORMANT" : "VERDICT: CONFORMANT");
  expect(r.report).not.toBeNull();
  expect(r.report!.cases.map((c) => c.id).sort()).toEqual([...cases].sort());
  for (const c of r.report!.cases) {
    if (!failed.has(c.id)) {
      expect({ id: c.id, status: c.status, failures: failures(c) }).toEqual({ id: c.id, status: "pass", failures: [] });
      continue;
    }
    expect(c.status, c.id).toBe("fail");
    for (const cause of verdict.cause)
      expect(
        failures(c).some((f) => cause.test(f)),
        `${c.id}: ${cause} in\n${failures(c).join("\n")}`,
      ).toBe(true);
  }
}

const failing: [BehaviourName, Verdict][] = [
  ["never answers", { cause: [/timed out after 1000 ms waiting for the response \[PHOTON_ERR_TIMEOUT\]/], timeoutMs: TIMEOUT_MS }],
  ["accepts and never sends headers", { cause: [/timed out after 1000 ms waiting for the response/], timeoutMs: TIMEOUT_MS }],
  ["drips one byte per second", { cause: [/timed out after 1000 ms reading the HTTP 200 response body/], timeoutMs: TIMEOUT_MS }],
  ["resets mid-body", { cause: [/connection closed while reading the HTTP 200 response body: (ECONNRESET|UND_ERR_SOCKET)/] }],
  ["closes before the body ends", { cause: [/connection closed while reading the HTTP 200 response body: UND_ERR_SOCKET \(other side closed\)/] }],
  ["sends non-JSON", { cause: [/body is not JSON: Unexpected token/] }],
  ["sends an empty body", { cause: [/body is not JSON: empty body/] }],
  ["sends JSON nested 100,000 deep", { cause: [/body is not JSON: JSON is nested more than 512 levels deep/] }],
  ["sends JSON nested 100,000 deep in the id", { cause: [/body is not JSON: JSON is nested more than 512 levels deep/] }],
  ["sends JSON nested 100,000 deep with a u64 inside", { cause: [/body is not JSON: JSON is nested more than 512 levels deep/] }],
  [
    "sends a number with 1,000,000 digits",
    {
      cases: ["slot/indexer-slot", "account/by-address"],
      cause: [/body is not JSON: a number literal of 1000000 characters at character \d+: longer than the 40 any valid value needs/],
    },
  ],
  ["sends Content-Type: text/plain", { cause: [/Content-Type is not application\/json \| application\/json \| text\/plain/] }],
  ["sends a valid envelope for a different id", { cause: [/id does not echo the request's \| \d+ \| \d{4}/] }],
  // Replies are matched by id (JSON-RPC 2.0, Batch); only a batch whose ids repeat must keep request order.
  [
    "answers a batch out of order",
    {
      cases: ["batch/duplicate-ids", "slot/indexer-slot"],
      failed: ["batch/duplicate-ids"],
      cause: [/batch reply 0: result\.value\.hash differs \(replies must keep request order\)/],
    },
  ],
  ["sends content-length and chunked together", { cause: [/UND_ERR_RES_CONTENT_LENGTH_MISMATCH/] }],
  ["sends a body without a status line", { cause: [/does not match the HTTP\/1\.1 protocol/] }],
];

// Runs are concurrent (each captures its own output); every test closes its servers.
describe.concurrent("photon-conformance run against a hostile server fails the affected cases, naming the cause", () => {
  it.each(failing)(
    "%s",
    async (name, verdict) => {
      await using(startBehaviour(name, reference().url), (server) => expectVerdict(server, verdict));
    },
    15_000,
  );

  // A target answering every request with an HTML page is the wrong URL: one line, exit 2, no case judged.
  it.each<BehaviourName>(["sends HTML", "answers 500 with an HTML page"])(
    "%s: stops after the first requests, saying the target answers HTML",
    async (name) => {
      await using(startBehaviour(name, reference().url), async (server) => {
        const r = await runAgainst(server.url, join(dir, `r${++reportNo}.json`));
        expect(r.stderr).not.toContain("unexpected error");
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/answers HTML, not JSON-RPC .*nothing judged\): check the URL/);
        expect(server.requests.length).toBeLessThanOrEqual(8);
      });
    },
    15_000,
  );

  it("redirects in a loop: not followed, each request sent once", async () => {
    await using(startBehaviour("redirects in a loop", reference().url), async (server) => {
      await expectVerdict(server, { cause: [/unexpected HTTP status \| 200 \| 302/] });
      expect(server.requests).toHaveLength(1 + CASES.length); // the probe and one per case
    });
  }, 15_000);

  it("redirects to another host: not followed, the other host gets no connection", async () => {
    await using(
      startRaw(() => "close", { host: "127.0.0.2" }),
      async (other) => {
        await using(startRaw(redirectTo(other)), async (server) => {
          await expectVerdict(server, { cause: [/unexpected HTTP status \| 200 \| 307/] });
          expect(server.requests).toHaveLength(1 + CASES.length);
        });
        expect(other.connections()).toBe(0);
      },
    );
  }, 15_000);

  it("answers 429 with Retry-After: 3600 every time: fails at once rather than waiting an hour", async () => {
    await using(startBehaviour("answers 429 with Retry-After: 3600 every time", reference().url), async (server) => {
      await expectVerdict(server, { cause: [/unexpected HTTP status \| 200 \| 429/] });
      expect(server.requests).toHaveLength(1 + CASES.length); // a wait longer than the runner's cap is not retried
    });
  }, 15_000);
});

describe.concurrent("photon-conformance run passes what a hostile server gets right after all", () => {
  it("answers 429 with Retry-After: 1, then succeeds: passes after waiting within its budget", async () => {
    await using(startRaw(rateLimitedOnce(), { upstream: reference().url }), async (server) => {
      const r = await runAgainst(server.url, join(dir, `r${++reportNo}.json`));
      expect(r.code).toBe(0);
      expect(r.report!.cases.every((c) => c.status === "pass")).toBe(true);
      // The probe, then the cases concurrently, each waited its second once.
      expect(r.ms).toBeGreaterThanOrEqual(2000);
      // Every request was sent exactly twice: once into the 429, once after the wait.
      const sent = new Map<string, number>();
      for (const q of server.requests) sent.set(q.body, (sent.get(q.body) ?? 0) + 1);
      expect(sent.size).toBeGreaterThanOrEqual(1 + CASES.length);
      expect([...sent.values()].every((n) => n === 2)).toBe(true);
    });
  }, 15_000);

  it("answers a batch out of order, its ids distinct: conformant, with a note that Photon keeps request order", async () => {
    await using(startBehaviour("answers a batch out of order", reference().url), async (server) => {
      const cases = ["batch/lookups", "batch/mixed", "slot/indexer-slot"];
      await expectVerdict(server, { cases, failed: [], cause: [] });
      const r = await runAgainst(server.url, join(dir, `r${++reportNo}.json`), { cases });
      expect(r.stdout).toMatch(
        /^note: batch replies came in another order than the requests \(.*Photon answers in request order\): 2 cases \(batch\/lookups, batch\/mixed\)$/m,
      );
    });
  }, 15_000);

  it.each<BehaviourName>(["answers in HTTP/1.0", "answers Connection: close without content-length", "breaks its keep-alive promise"])(
    "%s",
    async (name) => {
      await using(startBehaviour(name, reference().url), (server) => expectVerdict(server, { cases: [...CASES, "batch/lookups"], failed: [], cause: [] }));
    },
    15_000,
  );
});
