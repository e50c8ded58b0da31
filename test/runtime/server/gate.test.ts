/**
 * The listener's state gate: each request (a batch whole) runs inside one `enter` and releases it
 * once its answer is handed to the socket, synchronous and awaited calls alike; the result memo
 * keeps one state's answers only.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createRequestListener, type StateGate } from "../../../runtime/server.js";
import { closeListeners, listen, post } from "../../helpers/listener.js";
import { methodInfo } from "../../helpers/method-info.js";

afterAll(closeListeners);

/** A gate that logs entries and releases, and moves its version on demand. */
function loggingGate(): StateGate & { log: string[]; bump(): void; holding: number } {
  const gate = {
    version: 0,
    holding: 0,
    log: [] as string[],
    bump() {
      gate.version++;
    },
    enter(work: (done: () => void) => void) {
      gate.holding++;
      gate.log.push("enter");
      let released = false;
      work(() => {
        if (released) return;
        released = true;
        gate.holding--;
        gate.log.push("done");
      });
    },
  };
  return gate;
}

async function start(gate: StateGate) {
  let state = 1;
  const methods = { now: methodInfo("now", { hasParams: false }), later: methodInfo("later", { hasParams: false }) };
  const listener = createRequestListener({
    methods,
    validators: {},
    handlers: {
      now: () => state,
      later: () => new Promise((resolve) => setTimeout(() => resolve(state), 20)),
    },
    memoizeResults: {},
    gate,
  });
  return { url: await listen(listener), setState: (n: number) => (state = n) };
}

const call = (method: string, id = 1) => JSON.stringify({ jsonrpc: "2.0", id, method });

describe("a listener with a state gate", () => {
  it("holds the gate for each request until its answer is written, awaited calls and batches included", async () => {
    const gate = loggingGate();
    const { url } = await start(gate);
    expect(JSON.parse((await post(url, call("now"))).body).result).toBe(1);
    expect(JSON.parse((await post(url, call("later"))).body).result).toBe(1);
    expect(JSON.parse((await post(url, `[${call("now", 1)},${call("later", 2)}]`)).body)).toHaveLength(2);
    expect(gate.log).toEqual(["enter", "done", "enter", "done", "enter", "done"]);
    expect(gate.holding).toBe(0);
  });

  it("answers a memoised call again once the gate's version moves", async () => {
    const gate = loggingGate();
    const { url, setState } = await start(gate);
    expect(JSON.parse((await post(url, call("now"))).body).result).toBe(1);
    setState(2);
    // Same version: the memo answers.
    expect(JSON.parse((await post(url, call("now"))).body).result).toBe(1);
    gate.bump();
    expect(JSON.parse((await post(url, call("now"))).body).result).toBe(2);
  });
});
