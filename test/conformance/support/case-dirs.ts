/** Temporary cases folders for loadCases tests, and the CaseError a folder is refused with. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect } from "vitest";
import { loadCases } from "../../../conformance/case-format.js";
import { CaseError } from "../../../conformance/errors.js";

/** A case file that loads against any profile. */
export const CASE = "method: getIndexerSlot\ndescription: the slot\nexpect:\n  result:\n    type: integer\n";

/** Makes a fresh cases folder per call; each is removed after its test. */
export function useCasesDirs(): () => string {
  let made: string[] = [];
  afterEach(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
    made = [];
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), "pik-cases-"));
    made.push(dir);
    return dir;
  };
}

/** The CaseError loading `root` fails with. */
export async function refusal(root: string): Promise<CaseError> {
  const err = await loadCases(root, {}).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CaseError);
  return err as CaseError;
}
