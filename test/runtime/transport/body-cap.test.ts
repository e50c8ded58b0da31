import { describe, expect, it } from "vitest";
import { bodyCap } from "../../../runtime/transport/body-cap.js";
import { BodyTooLarge } from "../../../runtime/transport/failures.js";
import { newCallState } from "../../../runtime/transport/state.js";
import { optsWith, recorder, scripted } from "./script.js";

describe("bodyCap interceptor", () => {
  const state = () => newCallState({ maxBodyBytes: 8 });

  it("passes a body within the cap", () => {
    const r = recorder();
    bodyCap()(scripted([{ head: [200, { "content-length": "8" }] }, { data: "12345678" }, { end: true }]))(optsWith(state()), r);
    expect(r.seen.events).toEqual(["start", "head 200", "end"]);
    expect(r.seen.body).toBe("12345678");
  });

  it("refuses a declared content-length over the cap before any byte", () => {
    const r = recorder();
    bodyCap()(scripted([{ head: [200, { "content-length": "9" }] }, { data: "123456789" }]))(optsWith(state()), r);
    expect(r.seen.events).toEqual(["start", "error"]);
    expect(r.seen.error).toBeInstanceOf(BodyTooLarge);
    expect(r.seen.error).toMatchObject({ status: 200, received: 0, contentLength: 9 });
  });

  it("counts a streamed body and stops at the chunk that passes the cap", () => {
    const r = recorder();
    bodyCap()(scripted([{ head: [200, {}] }, { data: "12345" }, { data: "6789" }]))(optsWith(state()), r);
    expect(r.seen.body).toBe("12345");
    expect(r.seen.error).toMatchObject({ status: 200, received: 9, contentLength: undefined });
  });

  it("defaults to 16 MiB when used without postJson's call state", () => {
    const r = recorder();
    const opts = optsWith(undefined as never);
    bodyCap()(scripted([{ head: [200, { "content-length": String(16 * 1024 * 1024 + 1) }] }]))(opts, r);
    expect(r.seen.error).toBeInstanceOf(BodyTooLarge);
  });
});
