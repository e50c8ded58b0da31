import { describe, expect, it } from "vitest";
import { BodyTooLarge } from "../../../runtime/transport/failures.js";
import { policyOf, type RetryOptions } from "../../../runtime/transport/options.js";
import { retry } from "../../../runtime/transport/retry.js";
import { Ended, newCallState } from "../../../runtime/transport/state.js";
import { optsWith, recorder, scripted } from "./script.js";

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
