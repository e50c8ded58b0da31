/**
 * `run --save-fixtures FILE`: the fixtures profile a run used (discovered with --discover, else
 * the one given), written as JSON an operator can review, commit and give back to `--fixtures`.
 * Lossless (u64 values above 2^53 stay integers), two-space indented, one key a line. An existing
 * file is replaced whole (outputs.ts `writeFileAtomic`), as `--output` replaces a report.
 */
import type { Command } from "commander";
import { isObject, stringifyJson, type Json, type Redactor } from "@photon-indexer-kit/runtime";
import type { Fixtures } from "./case-format.js";
import { UsageError } from "./errors.js";
import { prepareOutputFile, writeFileAtomic } from "./outputs.js";

/** The flag, as failures name it. */
const FLAG = "--save-fixtures";

/** `value` as indented JSON, every leaf written by the lossless serialiser (iterative: a profile's depth is the target's doing). */
export function profileText(value: Json): string {
  const out: string[] = [];
  // Each entry: text to write, or a value to write at an indent.
  const stack: (string | [Json, string])[] = [[value, ""]];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (typeof next === "string") {
      out.push(next);
      continue;
    }
    const [v, indent] = next;
    const inner = `${indent}  `;
    const entries = Array.isArray(v)
      ? v.map((x) => ["", x] as const)
      : isObject(v)
        ? Object.entries(v).map(([k, x]) => [`${stringifyJson(k)}: `, x as Json] as const)
        : null;
    if (entries === null || entries.length === 0) {
      out.push(entries === null ? stringifyJson(v) : Array.isArray(v) ? "[]" : "{}");
      continue;
    }
    const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
    const parts: (string | [Json, string])[] = [`${open}\n`];
    entries.forEach(([key, x], i) => parts.push(`${inner}${key}`, [x, inner], i < entries.length - 1 ? ",\n" : "\n"));
    parts.push(`${indent}${close}`);
    stack.push(...parts.reverse());
  }
  return `${out.join("")}\n`;
}

/**
 * Writes `fixtures` to `file`. A profile holding a value the command masks (a `--secret`, a header
 * value, the URL's credentials) is not written: the file is meant to be committed.
 */
export async function saveFixtures(file: string, fixtures: Fixtures, redact: Redactor): Promise<void> {
  const text = profileText(fixtures as Json);
  if (redact(text) !== text) throw new UsageError(`cannot write ${FLAG} ${file}: the profile holds a value the command masks (a secret); not written`);
  await writeFileAtomic(file, text, FLAG);
}

/** `run --save-fixtures FILE`. */
export const saveFixturesOption = (command: Command): Command =>
  command.option("--save-fixtures <file>", "write the fixtures profile used (discovered, or the one given) to FILE as JSON, to review and give to --fixtures");

/**
 * The command's `--save-fixtures` (from its parsed `flags`): checked writable now, before a
 * discovery, and written by the returned function once the profile is known.
 */
export async function fixturesSaver(flags: object): Promise<(fixtures: Fixtures, redact: Redactor) => Promise<void>> {
  const file = (flags as { saveFixtures?: unknown }).saveFixtures;
  if (typeof file !== "string") return async () => undefined;
  await prepareOutputFile(file, FLAG);
  return (fixtures, redact) => saveFixtures(file, fixtures, redact);
}
