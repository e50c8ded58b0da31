import { describe, expect, it } from "vitest";
import { rejectEncoded } from "../../../runtime/transport/encoding.js";
import { UnnegotiatedEncoding } from "../../../runtime/transport/failures.js";
import { newCallState } from "../../../runtime/transport/state.js";
import { optsWith, recorder, scripted } from "./script.js";

describe("rejectEncoded interceptor", () => {
  for (const value of [undefined, "identity", " Identity ", ""]) {
    it(`passes content-encoding ${JSON.stringify(value)}`, () => {
      const r = recorder();
      const headers: Record<string, string> = value === undefined ? {} : { "content-encoding": value };
      rejectEncoded()(scripted([{ head: [200, headers] }, { data: "{}" }, { end: true }]))(optsWith(newCallState({})), r);
      expect(r.seen.events).toEqual(["start", "head 200", "end"]);
    });
  }

  it("ends a gzip-encoded response, naming the encoding and status", () => {
    const r = recorder();
    rejectEncoded()(scripted([{ head: [502, { "content-encoding": " gzip " }] }, { data: "\x1f\x8b" }]))(optsWith(newCallState({})), r);
    expect(r.seen.events).toEqual(["start", "error"]);
    expect(r.seen.error).toBeInstanceOf(UnnegotiatedEncoding);
    expect(r.seen.error).toMatchObject({ status: 502, encoding: "gzip" });
  });
});
