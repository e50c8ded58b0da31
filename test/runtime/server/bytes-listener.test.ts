import { afterAll, describe, expect, it } from "vitest";
import type { MethodInfo, MethodValidators, StandaloneValidate } from "../../../runtime/contracts.js";
import { encodeOnce } from "../../../runtime/json/encoded.js";
import { stringifyJson } from "../../../runtime/json/stringify.js";
import { type CallContext, createRequestListener, type Handler, type ListenerOptions } from "../../../runtime/server.js";
import { closeListeners, listen, post } from "../../helpers/listener.js";
import { methodInfo } from "../../helpers/method-info.js";

// A listener whose handler answers pages of encoded items (as the reference's pages do): the
// single-call answers go out as bytes (runtime/server/bytes.ts), and must be those of the string path.

const info = (name: string): MethodInfo => methodInfo(name, { hasContext: true });

const anything: StandaloneValidate = Object.assign(() => true, { errors: null });
const items = Array.from({ length: 40 }, (_, i) =>
  encodeOnce({ hash: `h${i}`, lamports: i === 3 ? 18446744073709551615n : i, note: i === 5 ? "é ✓ 😀" : null, gone: undefined }),
);
const page = (p: { from: number; limit: number }) => {
  const slice = items.slice(p.from, p.from + p.limit);
  return { context: { slot: 7 }, value: { items: slice, cursor: slice.length === p.limit ? (slice[slice.length - 1]?.hash ?? null) : null } };
};
const handlers: Record<string, Handler> = {
  page: (p: { from: number; limit: number }) => page(p),
  // The text handed with the value differs from stringifyJson's only by a space, so an answer shows which was written.
  written: (_p: unknown, ctx: CallContext) => ({ context: { slot: 7 }, value: ctx.written!({ hash: "h0", lamports: 1 }, '{"hash": "h0", "lamports": 1}') }),
  pageWithThrowingGetter: () => ({
    items: [items[0]],
    get boom(): unknown {
      throw new Error("getter");
    },
  }),
};
const methods = { page: info("page"), written: info("written"), pageWithThrowingGetter: info("pageWithThrowingGetter") };
const validators: Record<string, MethodValidators> = {
  page: { params: anything, result: anything },
  written: { params: anything, result: anything },
  pageWithThrowingGetter: { params: anything, result: anything },
};

afterAll(closeListeners);

const start = (extra: Partial<ListenerOptions> = {}): Promise<string> => listen(createRequestListener({ methods, validators, handlers, ...extra }));

const call = (method: string, params: unknown, id = "1") => `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}`;
const ok = (result: unknown, id = "1") => `{"jsonrpc":"2.0","result":${stringifyJson(result)},"id":${id}}`;

describe("pages of encoded items over the listener", () => {
  it("answer byte for byte as the string path, with and without the memo, single and in a batch", async () => {
    const plain = await start({ memoizeResults: false });
    const memo = await start({ memoizeResults: { maxEntries: 10 } });
    for (const [params, id] of [
      [{ from: 0, limit: 10 }, "1"],
      [{ from: 2, limit: 5 }, '"é"'],
      [{ from: 35, limit: 10 }, "18446744073709551615"],
    ] as const) {
      const expected = ok(page(params), id);
      for (const url of [plain, memo, plain, memo]) {
        const a = await post(url, call("page", params, id));
        expect(a.status).toBe(200);
        expect(a.body).toBe(expected);
        expect(a.headers["content-length"]).toBe(String(Buffer.byteLength(expected)));
      }
      // The memo kept the result text cut from the first answer's bytes (its id may be multi-byte): another id gets the same result.
      expect((await post(memo, call("page", params, "77"))).body).toBe(ok(page(params), "77"));
      const batch = await post(plain, `[${call("page", params, id)},${call("page", params, "2")}]`);
      expect(batch.body).toBe(`[${expected},${ok(page(params), "2")}]`);
    }
  });

  it("hands handlers `written`: a single call's answer carries the text given with the value, a batch serialises the value", async () => {
    const plain = await start({ memoizeResults: false });
    expect((await post(plain, call("written", {}))).body).toBe(
      '{"jsonrpc":"2.0","result":{"context":{"slot":7},"value":{"hash": "h0", "lamports": 1}},"id":1}',
    );
    expect((await post(plain, `[${call("written", {})}]`)).body).toBe(
      '[{"jsonrpc":"2.0","result":{"context":{"slot":7},"value":{"hash":"h0","lamports":1}},"id":1}]',
    );
  });

  it("an answer over the response limit is -32702 for its id; a result that cannot be written is -32603", async () => {
    const small = await start({ memoizeResults: false, maxResponseBytes: 300 });
    expect((await post(small, call("page", { from: 0, limit: 2 }))).body).toBe(ok(page({ from: 0, limit: 2 })));
    expect((await post(small, call("page", { from: 0, limit: 20 }, "4"))).body).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32702,"message":"Response is too big","data":"Exceeded max limit of 300"},"id":4}',
    );
    const plain = await start({ memoizeResults: false });
    expect((await post(plain, call("pageWithThrowingGetter", {}))).body).toBe('{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"},"id":1}');
  });
});
