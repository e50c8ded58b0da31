/**
 * `photon-conformance record --url URL --out DIR`: sends every case's request to a live
 * indexer and writes the answer into the case file as `recorded: {status, body, ignore}`,
 * keeping everything hand-written (expectations, matchers, comments). `ignore` lists the paths
 * that differ per deployment or moment (`result.context.slot`, cursors); a hand-written list
 * is kept. Fields the method table lists as `moving` (a proof's siblings, root and rootSeq, a
 * queue's contents) are written as a type matcher (`{type: hash}`, `{any: true}`), not the
 * value, so a recording does not go stale as the tree grows. Returns, per case, what changed
 * since the last recording. Secrets never reach the files: every string of the answer passes
 * the run's redactor. An answer the corpus's own loader would refuse (case-yaml.ts bounds) is
 * not written: the file stays as it was, so a target cannot make the corpus unloadable.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseDocument } from "yaml";
import { isObject, type Json, type Redactor } from "@photon-indexer-kit/runtime";
import { narrow, type ConformanceCase, type Fixtures } from "./case-format.js";
import { beyondCaseBounds, parseCaseYaml } from "./case-yaml.js";
import { show } from "./checks/check.js";
import { CaseError } from "./errors.js";
import { differences, valueAt } from "./compare.js";
import { requestOf } from "./run.js";
import { openSession, type Session } from "./session.js";
import { cursorFields, methodInfo, type MethodTable } from "./spec-facts.js";
import { forConsole } from "./reporters/support/escape.js";
import { maskMoving } from "./moving.js";
import { noCases, type CaseCounts, type CaseResult } from "./results.js";

export interface RecordOptions {
  readonly url: string;
  readonly out: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly casesDir: string;
  readonly fixtures: Fixtures;
  readonly methods?: readonly string[];
  readonly caseGlobs?: readonly string[];
  readonly timeoutMs?: number;
  /** Values to mask besides the URL's credentials and the header values (`--secret`). */
  readonly secrets?: readonly string[];
}

export interface RecordChange {
  readonly id: string;
  /** `new`: no earlier recording; `changed`: differs at `paths`; `same`; `failed`: no answer, or one no case file could hold (`message`). */
  readonly kind: "new" | "changed" | "same" | "failed" | "skipped";
  readonly paths: readonly { path: string; before: string; after: string }[];
  readonly message?: string;
}

/** Paths that vary per deployment, run or moment: the id, the context slot and every cursor (where the method table puts them). */
function defaultIgnore(body: unknown, method: string | undefined, table: MethodTable): string[] {
  const cursors = cursorFields(table);
  // The slot path of the case's own method only: another method's (getQueueInfo's top-level `slot`) may name a real field here.
  const slot = method === undefined ? undefined : methodInfo(method, table)?.slot;
  const out = ["id", ...(slot ? [`result.${slot}`] : [])];
  const walk = (node: unknown, path: string) => {
    if (!isObject(node)) return;
    for (const [k, v] of Object.entries(node)) {
      const p = path ? `${path}.${k}` : k;
      if (cursors.has(k)) out.push(p);
      else walk(v, p);
    }
  };
  walk(isObject(body) ? body.result : undefined, "result");
  return [...new Set(out)];
}

function scrub(value: unknown, redact: Redactor): Json {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, redact));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), scrub(v, redact)]));
  return value as Json;
}

/**
 * The file a recording starts from: the one already in --out (its hand edits and its last
 * recording are what the new one is compared against), else the corpus's case file.
 */
async function startingPoint(c: ConformanceCase, casesDir: string, out: string): Promise<string> {
  const inOut = await readFile(join(out, `${c.id}.yaml`), "utf8").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return null;
    throw err;
  });
  return inOut ?? (await readFile(join(casesDir, `${c.id}.yaml`), "utf8").catch(() => readFile(c.file, "utf8")));
}

/** Where a recording's body sits in its case file: the root mapping, `recorded`, `body`. */
const BODY_DEPTH = 2;

function notRecorded(id: string, why: string): RecordChange {
  return { id, kind: "failed", paths: [], message: `not recorded: ${why} (its loader would refuse the file); the case file is left as it was` };
}

async function recordCase(c: ConformanceCase, text: string, body: unknown, status: number, out: string, table: MethodTable): Promise<RecordChange> {
  const doc = parseDocument(text, { intAsBigInt: true });
  const last = narrow((doc.toJS() as Record<string, unknown> | null)?.recorded);
  const previous = isObject(last) ? last : null;
  const ignore = previous && Array.isArray(previous.ignore) ? (previous.ignore as string[]) : defaultIgnore(body, c.method, table);
  doc.set("recorded", doc.createNode({ status, ignore, body }));
  const target = join(out, `${c.id}.yaml`);
  const written = doc.toString({ lineWidth: 0 });
  try {
    parseCaseYaml(target, written); // the file must load as the corpus loads it: the answer together with the rest
  } catch (err) {
    if (!(err instanceof CaseError)) throw err;
    return notRecorded(c.id, `the case file with this answer would not load: ${err.message.slice(target.length + 2)}`);
  }
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, written);
  if (!previous) return { id: c.id, kind: "new", paths: [] };
  const paths = differences(previous.body, body, new Set(ignore));
  if (previous.status !== status) paths.unshift("(status)");
  if (paths.length === 0) return { id: c.id, kind: "same", paths: [] };
  return {
    id: c.id,
    kind: "changed",
    paths: paths.map((p) =>
      p === "(status)"
        ? { path: "HTTP status", before: show(previous.status), after: show(status) }
        : { path: p, before: show(valueAt(previous.body, p), 80), after: show(valueAt(body, p), 80) },
    ),
  };
}

/**
 * Records the selected cases from `options.url` into `options.out`, one case at a time (a live
 * indexer is asked gently, and files are written in case order). Given an open `session`, uses
 * it instead of opening one; the caller closes it.
 */
export async function recordCases(options: RecordOptions, given?: Session): Promise<RecordChange[]> {
  const session = given ?? (await openSession({ ...options, targets: [{ url: options.url, headers: options.headers }] }));
  try {
    // The case files are an output edge: every string written passes the session's redactor.
    const { redact } = session;
    const target = session.targets[0]!;
    await session.ensureReachable();
    return await session.pool(
      async (c): Promise<RecordChange> => {
        if (c.skip) return { id: c.id, kind: "skipped", paths: [], message: c.skip };
        const { body } = requestOf(c, target);
        const exchange = await target.send(c.http, body);
        if (exchange.error) return { id: c.id, kind: "failed", paths: [], message: `no answer: ${redact(exchange.error)}` };
        // Counted before anything walks or writes it: a case file holds at most the loader's values and depth.
        const beyond = exchange.parseError ? null : beyondCaseBounds(exchange.body, BODY_DEPTH);
        if (beyond !== null) return notRecorded(c.id, `the answer ${beyond}, more than a case file may`);
        // Fields that move with the tree's root or the slot (`moving`, DECISIONS row 76) are written as type matchers.
        const answer = exchange.parseError ? redact(exchange.text) : (maskMoving(c.method, scrub(exchange.body, redact), session.spec.methods) as Json);
        const text = await startingPoint(c, options.casesDir, options.out);
        return recordCase(c, text, answer, exchange.status, options.out, session.spec.methods);
      },
      { concurrency: 1 },
    );
  } finally {
    if (!given) await session.close();
  }
}

/** The cases a recording judged, by outcome: a case not recorded fails the command. */
export function changeCounts(changes: readonly RecordChange[]): { counts: CaseCounts; results: readonly CaseResult[] } {
  const counts = noCases();
  for (const c of changes) counts[c.kind === "failed" ? "fail" : c.kind === "skipped" ? "skip" : "pass"]++;
  return { counts, results: [] };
}

/** A readable account of what changed since the last recording. */
export function renderChanges(changes: readonly RecordChange[], redact: (text: string) => string = (t) => t): string {
  // Paths, values and messages come from the target's answers: each redacted, then shown on its line.
  const o = (text: string | undefined) => forConsole(redact(text ?? ""));
  const lines: string[] = [];
  for (const c of changes) {
    if (c.kind === "changed") {
      lines.push(`~ ${o(c.id)}`);
      for (const p of c.paths.slice(0, 10)) lines.push(`    ${o(p.path)}: ${o(p.before)} → ${o(p.after)}`);
      if (c.paths.length > 10) lines.push(`    …and ${c.paths.length - 10} more`);
    } else if (c.kind === "new") lines.push(`+ ${o(c.id)} (first recording)`);
    else if (c.kind === "failed") lines.push(`! ${o(c.id)}: ${o(c.message)}`);
    else if (c.kind === "skipped") lines.push(`- ${o(c.id)}: ${o(c.message)}`);
  }
  const count = (k: RecordChange["kind"]) => changes.filter((c) => c.kind === k).length;
  lines.push(
    `${changes.length} cases recorded: ${count("new")} new, ${count("changed")} changed, ${count("same")} unchanged, ${count("failed")} not recorded, ${count("skipped")} skipped`,
  );
  return `${lines.join("\n")}\n`;
}
