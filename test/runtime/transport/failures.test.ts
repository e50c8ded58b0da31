import { describe, expect, it } from "vitest";
import { ClientErrorCode, PhotonClientError } from "../../../runtime/errors.js";
import { BodyTooLarge, errorCodeOf, formatBytes, toClientError } from "../../../runtime/transport/failures.js";
import { Ended, newCallState } from "../../../runtime/transport/state.js";

const request = { method: "POST", url: "https://u:pw@example.com/?api-key=SECRET", headers: {}, callerHeaders: undefined };

describe("transport failures", () => {
  it("finds an error code in causes and aggregate errors", () => {
    expect(errorCodeOf({ cause: { errors: [{}, { code: "ECONNREFUSED" }] } })).toBe("ECONNREFUSED");
    expect(errorCodeOf(new Error("x"))).toBeUndefined();
  });

  it("formats byte counts", () => {
    expect([formatBytes(1024 * 1024), formatBytes(2048), formatBytes(10)]).toEqual(["1048576 bytes (1 MiB)", "2048 bytes (2 KiB)", "10 bytes"]);
  });

  it("maps each way a call ends to its code, never naming a credential", () => {
    const state = newCallState({ maxBodyBytes: 1024 });
    state.attempts = 1;
    const cases: [unknown, number, string][] = [
      [new BodyTooLarge(200, 0, 4096), Ended.NO, ClientErrorCode.BODY_TOO_LARGE],
      [new Error("late"), Ended.TIMED_OUT, ClientErrorCode.TIMEOUT],
      [Object.assign(new Error("refused SECRET"), { code: "ECONNREFUSED" }), Ended.NO, ClientErrorCode.NETWORK],
      [Object.assign(new Error("bad"), { code: "ERR_INVALID_URL" }), Ended.NO, ClientErrorCode.INVALID_OPTIONS],
    ];
    for (const [err, why, code] of cases) {
      state.why = why;
      const mapped = toClientError(err, state, request) as PhotonClientError;
      expect(mapped).toBeInstanceOf(PhotonClientError);
      expect(mapped.code).toBe(code);
      expect(mapped.message).not.toContain("SECRET");
      expect(mapped.message).not.toContain("pw");
    }
  });
});
