import { afterAll, describe, expect, it } from "vitest";
import type { MethodInfo, MethodValidators, StandaloneValidate } from "../../../runtime/contracts.js";
import { RpcError } from "../../../runtime/errors.js";
import { createRequestListener, type Handler } from "../../../runtime/server.js";
import { RpcCore } from "../../../runtime/server/rpc.js";
import { closeListeners, listen, post } from "../../helpers/listener.js";
import { methodInfo } from "../../helpers/method-info.js";

// A call's params are checked once per request, memo or not (the memo's key is made from the
// params that passed, so the check once served the key and then ran again for the call), and a
// refusal is an answer whose error captures no stack.

/** A params validator that counts its calls: `limit` must be an integer from 1 to 10. */
function countingValidator(): { validate: StandaloneValidate; calls: () => number } {
  let calls = 0;
  const validate = Object.assign(
    (value: unknown): boolean => {
      calls++;
      const limit = (value as { limit?: unknown }).limit;
      const ok = Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= 10;
      validate.errors = ok ? null : [{ keyword: "maximum", instancePath: "/limit", schemaPath: "#", params: { limit: 10 }, message: "must be <= 10" }];
      return ok;
    },
    { errors: null as StandaloneValidate["errors"] },
  );
  return { validate, calls: () => calls };
}

const info: MethodInfo = methodInfo("page");
const anyResult: StandaloneValidate = Object.assign(() => true, { errors: null });
let served = 0;
const handlers: Record<string, Handler> = { page: (p: { limit: number }) => (served++, { items: Array.from({ length: p.limit }, (_, i) => i) }) };

afterAll(closeListeners);

async function server(memo: boolean): Promise<{ url: string; calls: () => number }> {
  const counted = countingValidator();
  const validators: Record<string, MethodValidators> = { page: { params: counted.validate, result: anyResult } };
  const url = await listen(createRequestListener({ methods: { page: info }, validators, handlers, memoizeResults: memo ? { maxEntries: 10 } : false }));
  return { url, calls: counted.calls };
}

const call = (params: unknown, id = 1) => JSON.stringify({ jsonrpc: "2.0", id, method: "page", params });

describe("a call's params check", () => {
  it("runs once per request, answered from the memo or not, valid or refused, with the same answers as without the memo", async () => {
    const plain = await server(false);
    const memo = await server(true);
    const bodies = [call({ limit: 3 }), call({ limit: 3 }, 2), call({ limit: 11 }), call({ limit: 3.5 }, 3), call({ limit: 4 })];
    for (const [i, body] of bodies.entries()) {
      const a = await post(plain.url, body);
      const b = await post(memo.url, body);
      expect(b.status).toBe(a.status);
      expect(b.body).toBe(a.body);
      expect(plain.calls()).toBe(i + 1);
      expect(memo.calls()).toBe(i + 1);
    }
    expect(JSON.parse((await post(memo.url, call({ limit: 11 }))).body)).toMatchObject({
      error: { code: -32602, message: "invalid value: integer `11`, expected a value less than or equal to 10" },
    });
  });

  it("answers a second identical call from the memo without running the handler", async () => {
    const memo = await server(true);
    const before = served;
    const first = await post(memo.url, call({ limit: 5 }, 7));
    const second = await post(memo.url, call({ limit: 5 }, 8));
    expect(served - before).toBe(1);
    expect(JSON.parse(second.body)).toEqual({ ...JSON.parse(first.body), id: 8 });
  });

  it("refuses with an RpcError that captured no stack, and leaves Error.stackTraceLimit as it was", () => {
    const counted = countingValidator();
    const core = new RpcCore({ methods: { page: info }, validators: { page: { params: counted.validate, result: anyResult } }, handlers });
    const entry = core.table.get("page")!;
    const limit = Error.stackTraceLimit;
    for (const params of [undefined, "text", { limit: 0 }]) {
      let thrown: unknown;
      try {
        core.checkParams(entry, params);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(RpcError);
      expect((thrown as RpcError).code).toBe(-32602);
      expect((thrown as RpcError).stack).toBe(`RpcError: ${(thrown as RpcError).message}`);
      expect(Error.stackTraceLimit).toBe(limit);
    }
    expect(new Error("elsewhere").stack).toMatch(/\n {4}at /); // other errors keep their stacks
  });
});
