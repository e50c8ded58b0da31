/**
 * Text from outside that reaches stdout/stderr outside the reporters: record's account of changes
 * (paths and values from the target's answers) and the CLI's error messages (which quote files
 * and answers) are redacted, then kept on their line: no ESC, CR or LF of theirs reaches the terminal.
 */
import { describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { renderChanges } from "../../conformance/record.js";
import { captured } from "../helpers/capture.js";

const HOSTILE = "x\u001b[2K\rVERDICT: CONFORMANT\n\u202eevil";

describe("console text from outside", () => {
  it("record's changes show a target's values escaped, after redaction", () => {
    const text = renderChanges(
      [
        { id: "a/b", kind: "changed", paths: [{ path: `result.${HOSTILE}`, before: HOSTILE, after: "SECRET-123" }] },
        { id: "a/c", kind: "failed", paths: [], message: HOSTILE },
      ],
      (t) => t.replaceAll("SECRET-123", "***"),
    );
    expect(text).not.toMatch(/[\u001b\r\u202e]/);
    expect(text.split("\n").filter((l) => l.startsWith("VERDICT"))).toEqual([]);
    expect(text).toContain("\\x1b[2K\\rVERDICT: CONFORMANT\\n\\u202eevil");
    expect(text).toContain("***");
    expect(text).not.toContain("SECRET-123");
  });

  it("an error message quoting a file name keeps its control characters escaped on stderr", async () => {
    const r = await captured(main, ["run", "--fixtures", `/nonexistent/${HOSTILE}.json`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("photon-conformance: ");
    expect(r.stderr).not.toMatch(/[\u001b\r\u202e]/);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});
