/** retry: which answers and failures are retried, after which waits, within which budget. */
import { describe, expect, it } from "vitest";
import { BodyTooLarge } from "../../../runtime/transport/failures.js";
import { policyOf, type RetryOptions } from "../../../runtime/transport/options.js";
import { retry } from "../../../runtime/transport/retry.js";
import { Ended, newCallState } from "../../../runtime/transport/state.js";
import { optsWith, recorder, scripted } from "./script.js";
import { ClientErrorCode } from "../../../runtime/errors.js";
import { postJson } from "../../../runtime/transport.js";
import { agent, API_KEY, BODY, failure, fakeSleep, json, serve, useServers } from "./servers.js";

useServers();

function stateFor(retryOptions: RetryOptions | false, waits: number[] = []) {
  const sleep = async (ms: number) => void waits.push(ms);
  return newCallState({ retry: retryOptions, sleep }, policyOf(retryOptions));
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("retry interceptor", () => {
  it("holds a 503, waits Retry-After, and passes the next answer", async () => {
    const waits: number[] = [];
    const state = stateFor({}, waits);
    const r = recorder();
    const dispatch = scripted([{ head: [503, { "retry-after": "1" }] }, { data: "busy" }, { end: true }], [{ head: [200, {}] }, { data: "ok" }, { end: true }]);
    retry()(dispatch)(optsWith(state), r);
    await flush();
    expect(dispatch.calls).toBe(2);
    expect(waits).toEqual([1000]);
    expect(state.attempts).toBe(2);
    expect(r.seen.status).toBe(200);
    expect(r.seen.body).toBe("ok");
  });

  it("passes the held response on when Retry-After is over maxDelayMs, or retries are spent", async () => {
    const r = recorder();
    const dispatch = scripted([{ head: [429, { "retry-after": "60" }] }, { data: "later" }, { end: true }]);
    retry()(dispatch)(optsWith(stateFor({ maxDelayMs: 1000 })), r);
    expect(dispatch.calls).toBe(1);
    expect([r.seen.status, r.seen.body]).toEqual([429, "later"]);

    const r2 = recorder();
    const again = scripted([{ head: [502, {}] }, { data: "x" }, { end: true }]);
    retry()(again)(optsWith(stateFor({ retries: 2, minDelayMs: 1, maxDelayMs: 2 })), r2);
    await flush();
    await flush();
    expect(again.calls).toBe(3);
    expect(r2.seen.status).toBe(502);
  });

  it("retries a refused connection and reports the last failure when retries run out", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const state = stateFor({ retries: 1, minDelayMs: 1 });
    const r = recorder();
    const dispatch = scripted([{ error: refused }]);
    retry()(dispatch)(optsWith(state), r);
    await flush();
    expect(dispatch.calls).toBe(2);
    expect(r.seen.error).toBe(refused);
  });

  it("never retries a failure after the head, a body-cap failure or a non-network error", () => {
    for (const error of [new BodyTooLarge(200, 0, 9), Object.assign(new Error("bad"), { code: "UND_ERR_INVALID_ARG" })]) {
      const dispatch = scripted([{ error }]);
      const r = recorder();
      retry()(dispatch)(optsWith(stateFor({})), r);
      expect(dispatch.calls).toBe(1);
      expect(r.seen.error).toBe(error);
    }
  });

  it("marks a network failure whose wait would overrun the budget", () => {
    const refused = Object.assign(new Error("refused"), { code: "ECONNREFUSED" });
    const state = stateFor({ budgetMs: 0, minDelayMs: 10 });
    const r = recorder();
    retry()(scripted([{ error: refused }]))(optsWith(state), r);
    expect(state.why).toBe(Ended.BUDGET_SPENT);
  });

  it("sends nothing when the caller's signal has already fired", () => {
    const caller = new AbortController();
    caller.abort(new Error("gone"));
    const state = newCallState({ signal: caller.signal });
    const dispatch = scripted([{ head: [200, {}] }]);
    retry()(dispatch)(optsWith(state), recorder());
    expect([dispatch.calls, state.attempts, state.why]).toEqual([0, 0, Ended.CALLER_ABORTED]);
  });
});

describe("postJson: retries", () => {
  it("honours Retry-After: 1 on a 429, then returns the success", async () => {
    const t = await serve((_req, res, _hit, i) => (i === 0 ? json(res, 429, { error: "slow down" }, { "retry-after": "1" }) : json(res, 200, { ok: true })));
    const { sleeps, sleep } = fakeSleep();
    const retries: { attempt: number; delayMs: number; reason: string }[] = [];
    const ex = await postJson(`${t.base}/`, BODY, { dispatcher: agent, sleep, onRetry: (info) => retries.push(info) });
    expect(ex.status).toBe(200);
    expect(ex.attempts).toBe(2);
    expect(t.hits).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 2, delayMs: 1000 });
    expect(retries[0]!.reason).toContain("429");
  });

  it("returns a 429 at once when its Retry-After is longer than maxDelayMs", async () => {
    const t = await serve((_req, res) => json(res, 429, { error: "come back later" }, { "retry-after": "60" }));
    const { sleeps, sleep } = fakeSleep();
    const ex = await postJson(`${t.base}/`, BODY, { dispatcher: agent, sleep, retry: { maxDelayMs: 5_000 } });
    expect(ex.status).toBe(429);
    expect(ex.attempts).toBe(1);
    expect(ex.headers["retry-after"]).toBe("60");
    expect(ex.body).toContain("come back later");
    expect(sleeps).toEqual([]);
    expect(t.hits).toHaveLength(1);
  });

  it("retries a 503 with bounded exponential backoff and returns the last response", async () => {
    const t = await serve((_req, res, _hit, i) => json(res, 503, { attempt: i + 1 }));
    const { sleeps, sleep } = fakeSleep();
    const ex = await postJson(`${t.base}/`, BODY, { dispatcher: agent, sleep, retry: { retries: 2, minDelayMs: 10, maxDelayMs: 15 } });
    expect(ex.status).toBe(503);
    expect(ex.attempts).toBe(3);
    expect(t.hits).toHaveLength(3);
    expect(ex.body).toBe('{"attempt":3}');
    // Full jitter: each wait is in [0, min(maxDelay, minDelay * 2^(n-1))); a wait of 0 is not
    // slept at all, so the recorded waits cannot be matched to attempts: bound each by the cap.
    expect(sleeps.length).toBeLessThanOrEqual(2);
    for (const ms of sleeps) {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(15);
    }
  });

  it("does not retry a 500, nor anything when retry is false", async () => {
    const t = await serve((_req, res, hit) => json(res, hit.url === "/500" ? 500 : 503, { error: "boom" }));
    const { sleeps, sleep } = fakeSleep();
    const ex = await postJson(`${t.base}/500`, BODY, { dispatcher: agent, sleep });
    expect(ex.status).toBe(500);
    expect(ex.attempts).toBe(1);
    const off = await postJson(`${t.base}/503`, BODY, { dispatcher: agent, sleep, retry: false });
    expect(off.status).toBe(503);
    expect(off.attempts).toBe(1);
    expect(t.hits).toHaveLength(2);
    expect(sleeps).toEqual([]);
  });

  it("does not start a wait that would overrun budgetMs", async () => {
    const t = await serve((_req, res) => json(res, 503, {}, { "retry-after": "1" }));
    const { sleeps, sleep } = fakeSleep();
    const ex = await postJson(`${t.base}/`, BODY, { dispatcher: agent, sleep, retry: { budgetMs: 500 } });
    expect(ex.status).toBe(503);
    expect(ex.attempts).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("caps an attempt's deadline by the remaining budget", async () => {
    const t = await serve(() => {});
    const err = await failure(postJson(`${t.base}/`, BODY, { dispatcher: agent, timeoutMs: 4_000, retry: { budgetMs: 150 } }));
    expect(err.code).toBe(ClientErrorCode.TIMEOUT);
    expect(err.message).toContain("budget");
    expect(Number(/timed out after (\d+) ms/.exec(err.message)?.[1])).toBeLessThanOrEqual(150);
  });

  it("retries a refused connection, bounded by retries", async () => {
    const t = await serve(() => {});
    const url = `${t.base}/rpc?api-key=${API_KEY}`;
    await new Promise<void>((resolve) => t.server.close(() => resolve()));
    const { sleeps, sleep } = fakeSleep();
    const reasons: string[] = [];
    const err = await failure(postJson(url, BODY, { dispatcher: agent, sleep, retry: { retries: 2, minDelayMs: 1 }, onRetry: (i) => reasons.push(i.reason) }));
    expect(err.code).toBe(ClientErrorCode.NETWORK);
    expect(err.message).toContain("ECONNREFUSED");
    expect(err.message).toContain("after 3 attempts");
    expect(err.details).toMatchObject({ attempts: 3, errorCode: "ECONNREFUSED" });
    expect(reasons).toEqual(["ECONNREFUSED", "ECONNREFUSED"]);
    expect(sleeps.length).toBeLessThanOrEqual(2);

    const once = await failure(postJson(url, BODY, { dispatcher: agent, sleep, retry: { retryNetworkErrors: false } }));
    expect(once.details).toMatchObject({ attempts: 1 });
  });
});
