/**
 * A batch's time budget (`maxBatchMs`) is wall time since the batch began: time spent awaiting an
 * async handler counts as much as handler work, so a batch of slow async calls is answered once the
 * budget is spent, not after every call has run in turn.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createRequestListener } from "../../../runtime/server.js";
import { closeListeners, listen, post } from "../../helpers/listener.js";
import { methodInfo } from "../../helpers/method-info.js";

afterAll(closeListeners);

let started = 0;
/** An async handler that answers after 300 ms, as a handler awaiting a slow prover does. */
const slow = () => {
  started++;
  return new Promise((resolve) => setTimeout(() => resolve("done"), 300));
};

const call = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"slow"}`;

describe("the batch time budget counts awaited time", () => {
  it("answers a batch of slow async calls once the budget is spent: the call in flight is cut, the rest not run", async () => {
    const base = await listen(
      createRequestListener({ methods: { slow: methodInfo("slow", { hasParams: false }) }, validators: {}, handlers: { slow }, maxBatchMs: 500 }),
    );
    started = 0;
    const answer = await post(base, `[${Array.from({ length: 8 }, (_, i) => call(i)).join(",")}]`);
    const slots = JSON.parse(answer.body) as { id: number; result?: string; error?: { code: number; message: string } }[];
    expect(slots.map((s) => s.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(slots[0]).toEqual({ jsonrpc: "2.0", result: "done", id: 0 });
    // Started before the budget was spent, unfinished when it was: cut, the batch does not wait for it.
    expect(slots[1]).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Batch time budget of 500 ms spent: call not finished" }, id: 1 });
    for (const s of slots.slice(2)) expect(s.error).toEqual({ code: -32000, message: "Batch time budget of 500 ms spent: call not run" });
    // Answered at the budget: two calls started, not eight in turn.
    expect(started).toBe(2);
  });

  it("keeps a notification in flight out of the answer when the budget cuts it", async () => {
    const base = await listen(
      createRequestListener({ methods: { slow: methodInfo("slow", { hasParams: false }) }, validators: {}, handlers: { slow }, maxBatchMs: 100 }),
    );
    // A batch's notification must carry params (jsonrpsee reads them as required there, DECISIONS #81).
    const answer = await post(base, `[{"jsonrpc":"2.0","method":"slow","params":null},${call(1)}]`);
    expect(JSON.parse(answer.body)).toEqual([{ jsonrpc: "2.0", error: { code: -32000, message: "Batch time budget of 100 ms spent: call not run" }, id: 1 }]);
  });
});
