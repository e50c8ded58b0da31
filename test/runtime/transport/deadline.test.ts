import { describe, expect, it } from "vitest";
import type { Dispatcher } from "undici";
import { deadline } from "../../../runtime/transport/deadline.js";
import { DeadlineReached } from "../../../runtime/transport/failures.js";
import { Ended, newCallState } from "../../../runtime/transport/state.js";
import { controller, optsWith, recorder, scripted } from "./script.js";

/** A dispatch that starts the request and then never answers; its handler is kept. */
function silent(): Dispatcher.Dispatch & { handler?: Dispatcher.DispatchHandler } {
  const dispatch = ((_opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
    dispatch.handler = handler;
    return true;
  }) as Dispatcher.Dispatch & { handler?: Dispatcher.DispatchHandler };
  return dispatch;
}

describe("deadline interceptor", () => {
  it("records the head's status and passes a complete answer", () => {
    const state = newCallState({ timeoutMs: 60_000 });
    const r = recorder();
    deadline()(scripted([{ head: [200, {}] }, { data: "ok" }, { end: true }]))(optsWith(state), r);
    expect(r.seen.events).toEqual(["start", "head 200", "end"]);
    expect(state.status).toBe(200);
    expect(state.deadlineMs).toBe(60_000);
    expect(state.why).toBe(Ended.NO);
  });

  it("cuts the deadline to what is left of the retry budget", () => {
    const state = newCallState({ timeoutMs: 60_000, retry: { budgetMs: 5_000 } }, { ...newCallState({}).policy, budgetMs: 5_000 });
    deadline()(scripted([{ head: [200, {}] }, { end: true }]))(optsWith(state), recorder());
    expect(state.budgetLimited).toBe(true);
    expect(state.deadlineMs).toBeLessThanOrEqual(5_000);
  });

  it("ends the attempt when the deadline passes: reported at once, the request aborted, later events dropped", async () => {
    const state = newCallState({ timeoutMs: 5 });
    const r = recorder();
    const dispatch = silent();
    deadline()(dispatch)(optsWith(state), r);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(state.why).toBe(Ended.TIMED_OUT);
    expect(r.seen.events).toEqual(["error"]);
    expect(r.seen.error).toBeInstanceOf(DeadlineReached);
    // undici starts the request later: it is aborted at once and nothing more reaches the caller.
    const c = { ...controller, abortedWith: undefined as unknown };
    dispatch.handler!.onRequestStart?.(c, {});
    dispatch.handler!.onResponseStart?.(c, 200, {}, "");
    expect(c.abortedWith).toBeInstanceOf(DeadlineReached);
    expect(r.seen.events).toEqual(["error"]);
  });

  it("ends every attempt sharing a caller's signal when it fires, and sends nothing once it has", () => {
    const caller = new AbortController();
    const r1 = recorder();
    const r2 = recorder();
    const s1 = newCallState({ signal: caller.signal });
    const s2 = newCallState({ signal: caller.signal });
    deadline()(silent())(optsWith(s1), r1);
    deadline()(silent())(optsWith(s2), r2);
    caller.abort(new Error("stop"));
    expect([s1.why, s2.why]).toEqual([Ended.CALLER_ABORTED, Ended.CALLER_ABORTED]);
    expect((r1.seen.error as Error).message).toBe("stop");
    const dispatch = scripted([{ head: [200, {}] }]);
    deadline()(dispatch)(optsWith(newCallState({ signal: caller.signal })), recorder());
    expect(dispatch.calls).toBe(0);
  });
});
