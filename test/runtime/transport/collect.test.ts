import { describe, expect, it } from "vitest";
import { Collector } from "../../../runtime/transport/collect.js";
import type { HttpExchange } from "../../../runtime/transport/options.js";
import { newCallState } from "../../../runtime/transport/state.js";
import { controller } from "./script.js";

describe("Collector", () => {
  it("joins repeated headers, drops a byte order mark, decodes UTF-8 split across chunks", () => {
    let got: HttpExchange | undefined;
    const state = newCallState({});
    state.attempts = 2;
    const c = new Collector(
      state,
      (x) => (got = x),
      () => {},
    );
    c.onResponseStart(controller, 100, {});
    c.onResponseStart(controller, 200, { "set-cookie": ["a=1", "b=2"], "x-one": "1" });
    const text = Buffer.from('\ufeff{"z":"żółć"}');
    c.onResponseData(controller, text.subarray(0, 6));
    c.onResponseData(controller, text.subarray(6));
    c.onResponseEnd();
    expect(got).toMatchObject({ status: 200, headers: { "set-cookie": "a=1, b=2", "x-one": "1" }, body: '{"z":"żółć"}', attempts: 2 });
  });

  it("rejects with the error it is given", () => {
    let failed: unknown;
    const c = new Collector(
      newCallState({}),
      () => {},
      (err) => (failed = err),
    );
    const error = new Error("boom");
    c.onResponseError(controller, error);
    expect(failed).toBe(error);
  });
});
