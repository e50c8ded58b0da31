/** A curl line, run by bash with a stand-in curl, passes exactly the values sent and runs nothing else. */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { curlLine } from "../../../../conformance/reporters/support/curl.js";
import { useScratch } from "../../../helpers/scratch.js";
import { INJECTIONS } from "../../support/reporters-safety.js";

const dir = useScratch("curl-line");
const MARKER = () => join(dir, "pwned");

describe("curl lines read back by bash", () => {
  it("a curl line holds no raw control character, and bash reads back exactly the values sent", () => {
    const marker = MARKER();
    const value =
      INJECTIONS.filter((s) => !s.includes("\u0000") && !/[\ud800-\udfff]/.test(s))
        .join(" ")
        .replace("/tmp/x", marker) + ` $(touch ${marker}) \`touch ${marker}\` !! "$HOME"`;
    const request = { method: "POST", url: `http://127.0.0.1:1/?a='${value}`, headers: { "x-evil": value }, body: value };
    const line = curlLine(request);
    expect([...line].filter((c) => /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u.test(c))).toEqual([]);
    const args = execFileSync("bash", ["-c", `curl() { printf '%s\\0' "$@"; }; ${line}`])
      .toString("utf8")
      .split("\0")
      .slice(0, -1);
    expect(args).toEqual(["-sS", "-i", "-X", "POST", request.url, "-H", `x-evil: ${value}`, "--data-raw", value]);
    expect(existsSync(marker)).toBe(false);
  });
});
