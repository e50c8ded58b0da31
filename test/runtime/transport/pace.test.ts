import { describe, expect, it } from "vitest";
import { createPacer, nextSlot, pace } from "../../../runtime/transport/pace.js";
import { newCallState } from "../../../runtime/transport/state.js";
import { optsWith, recorder, scripted } from "./script.js";

describe("pacing", () => {
  it("gives no wait without a rate", async () => {
    for (const rate of [null, undefined, 0, -1]) expect(createPacer(rate)()).toBe(0);
    await nextSlot(createPacer(null));
  });

  it("spaces calls 1/maxRps apart: each later call waits one gap more", () => {
    const pacer = createPacer(10);
    const waits = [pacer(), pacer(), pacer()];
    expect(waits[0]).toBe(0);
    // The clock moves between calls, so the waits are at most one and two gaps.
    expect(waits[1]!).toBeGreaterThan(0);
    expect(waits[1]!).toBeLessThanOrEqual(100);
    expect(waits[2]!).toBeGreaterThan(waits[1]!);
    expect(waits[2]!).toBeLessThanOrEqual(200);
  });

  it("as an interceptor, dispatches the first call at once and later ones after their wait", async () => {
    const dispatch = scripted([{ head: [200, {}] }, { end: true }]);
    const paced = pace(createPacer(1000))(dispatch);
    paced(optsWith(newCallState({})), recorder());
    expect(dispatch.calls).toBe(1);
    const r = recorder();
    paced(optsWith(newCallState({})), r);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(dispatch.calls).toBe(2);
    expect(r.seen.events).toEqual(["start", "head 200", "end"]);
  });
});
