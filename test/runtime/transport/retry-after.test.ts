/** parseRetryAfter: delay-seconds and HTTP dates. */
import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../../runtime/transport.js";
import { useServers } from "./servers.js";

useServers();

describe("parseRetryAfter", () => {
  it("reads delay-seconds and HTTP dates", () => {
    const now = Date.parse("Sun, 06 Nov 1994 08:49:37 GMT");
    expect(parseRetryAfter("1", now)).toBe(1000);
    expect(parseRetryAfter(" 120 ", now)).toBe(120_000);
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("Sun, 06 Nov 1994 08:49:40 GMT", now)).toBe(3000);
    expect(parseRetryAfter("Sun, 06 Nov 1994 08:49:00 GMT", now)).toBe(0);
  });

  it("gives null for absent or unusable values", () => {
    for (const v of [undefined, "", "soon", "-5", "1e3", "Infinity"]) expect(parseRetryAfter(v)).toBeNull();
  });
});
