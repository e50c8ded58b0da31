/**
 * `photon-conformance diff --url A --against B`: the same requests to two indexers, answers
 * normalised (key order, ids, the slot, paths the case's matchers declare variable) and compared;
 * each difference is reported with its JSON path. B (`--against`) is the trusted side: its values
 * are "expected", A's are "actual". Each side gets its own headers; nothing meant for one host
 * is sent to the other.
 *
 * Two live indexers are never at the same slot, so a difference is judged by whether it can
 * move with the chain:
 * - answers at the same slot (or without one) that differ: fail;
 * - answers at different slots that differ: asked again once; if the second answers agree, pass;
 *   if they are at the same slot and differ, fail;
 * - still at different slots: every remaining difference is classified (`movable`). Fixed
 *   (fail): anything outside `result.value` (HTTP status, body framing, `jsonrpc`, error vs
 *   result, error code and message), a value of another JSON type or a key present on one side
 *   only (the shape), the `hash` of a lookup by hash and the `address` of a lookup by address,
 *   and the content of any account (by `hash`) or signature (by `signature`) both sides list:
 *   a hash or signature fixes what it names. Movable (inconclusive): list lengths and members,
 *   cursors, balances, null against a value (an account appearing or being spent), values that
 *   change at an address;
 * - movable differences that are identical in both attempts, while the two sides' slot ranges
 *   overlap, fail too: each side answered the same across its range, so at a slot both claim
 *   they disagree.
 * Fields that move with the tree's root (`moving` in the method table: a proof's siblings, root
 * and rootSeq) are judged by the root sequence the answers state instead of the slot: where it
 * differs, a difference there is inconclusive (one side is ahead); where it is the same, a
 * difference is one. Fields that move with the slot (a queue's contents) are movable.
 * Inconclusive cases are warnings, counted in the `diff/inconclusive` result, which fails when
 * more required cases than `maxInconclusive` (default 0) stayed inconclusive.
 */
import { isObject, stringifyJson, type Json } from "@photon-indexer-kit/runtime";
import { resultSource, type ConformanceCase, type Fixtures } from "./case-format.js";
import { show } from "./checks/check.js";
import { ABSENT, getPath } from "./matchers.js";
import { identityOf, summarize } from "./judge.js";
import { fail, pass, rollUp, runWideResult, warn, type CaseResult, type Exchange, type Finding, type RunSummary } from "./model.js";
import { requestOf, skipped } from "./run.js";
import { openSession, type Session } from "./session.js";
import { contextSlotPaths, identityFields, lookupKeyOf, methodInfo, type MethodTable } from "./spec-facts.js";
import type { RawTarget } from "./target.js";
import { maskMoving, movingOfBody, underMoving, type MovingAt } from "./moving.js";

export interface DiffOptions {
  /** The indexer under test. */
  readonly url: string;
  /** The trusted indexer it is compared with. */
  readonly against: string;
  /** Sent to `url` only. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent to `against` only. */
  readonly againstHeaders?: Readonly<Record<string, string>>;
  readonly casesDir: string;
  readonly fixtures: Fixtures;
  readonly methods?: readonly string[];
  readonly caseGlobs?: readonly string[];
  /** How the reports name the fixtures profile: the file as given, `reference` (the default) or `discovered`. */
  readonly fixturesName?: string;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  /** Required cases allowed to stay inconclusive (default 0). */
  readonly maxInconclusive?: number;
  readonly onResult?: (result: CaseResult, done: number, total: number) => void;
}

const MAX_LISTED = 20;
export const INCONCLUSIVE_ID = "diff/inconclusive";

/** Matchers that say a value varies by deployment or moment (`{any: true}`, `{type: …}`, `{matches: …}`). */
const VARYING = new Set(["any", "type", "matches"]);

/** The replies of a body: itself, or each element of a batch, with the path prefix of each. */
function replies(body: unknown): [string, unknown][] {
  return Array.isArray(body) ? body.map((b, i) => [`${i}.`, b]) : [["", body]];
}

/** The slot an answer was read at: the highest context slot (`x-slot`), or the bare result of the slot method asked alone. */
function slotOf(c: ConformanceCase, body: unknown, table: MethodTable): bigint | null {
  let slot: bigint | null = null;
  const paths = contextSlotPaths(table);
  const bare = methodInfo(c.method, table)?.slot === "" && !Array.isArray(body);
  for (const [, reply] of replies(body)) {
    if (!isObject(reply)) continue;
    const stated = paths.map((p) => getPath(reply.result, p)).find((v) => v !== ABSENT);
    const s = stated !== undefined ? stated : bare ? reply.result : undefined;
    if ((typeof s === "number" && Number.isInteger(s)) || typeof s === "bigint") slot = slot === null || BigInt(s) > slot ? BigInt(s) : slot;
  }
  return slot;
}

/** Paths (dotted, into the reply) the comparison ignores: the slot, ids, and what the case's matchers say may vary. */
function ignoredPaths(c: ConformanceCase, x: unknown, y: unknown, table: MethodTable): Set<string> {
  const slots = contextSlotPaths(table).map((p) => `result.${p}`);
  const ignored = new Set([...slots, "id"]);
  if (methodInfo(c.method, table)?.slot === "") ignored.add("result"); // the answer is the slot itself
  for (let i = 0; i < Math.max(Array.isArray(x) ? x.length : 0, Array.isArray(y) ? y.length : 0); i++) {
    for (const p of slots) ignored.add(`${i}.${p}`);
    ignored.add(`${i}.id`);
  }
  for (const [path, matcher] of Object.entries(c.expect.result ?? {})) {
    if (isObject(matcher) && Object.keys(matcher).some((k) => VARYING.has(k))) ignored.add(path === "." ? "result" : `result.${path}`);
  }
  return ignored;
}

/** Every path where two JSON values differ (objects compared by key, not key order). */
export function differences(a: unknown, b: unknown, ignored: ReadonlySet<string>, path = ""): string[] {
  if (ignored.has(path)) return [];
  const at = path || "(root)";
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) return BigInt(a) === BigInt(b) ? [] : [at];
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: string[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) out.push(`${path ? `${path}.` : ""}${i}`);
      // Appended one by one: spread as arguments, an item's differences (as many as the target sends) overflow the stack.
      else for (const d of differences(a[i], b[i], ignored, path ? `${path}.${i}` : String(i))) out.push(d);
    }
    return out;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) =>
      !(k in a) || !(k in b)
        ? ignored.has(path ? `${path}.${k}` : k)
          ? []
          : [path ? `${path}.${k}` : k]
        : differences(a[k], b[k], ignored, path ? `${path}.${k}` : k),
    );
  }
  return a === b ? [] : [at];
}

/** The value at a path that `differences` reported (undefined where one side lacks it). */
export function valueAt(body: unknown, path: string): unknown {
  const value = getPath(body, path === "(root)" ? "" : path);
  return value === ABSENT ? undefined : value;
}

/** One attempt: both answers (x from --url, y from --against, trusted), where they differ and their slots. */
interface Attempt {
  readonly x: Exchange;
  readonly y: Exchange;
  /** Differing paths; `(status)` and `(body)` for the HTTP status and a body that is not JSON. */
  readonly paths: readonly string[];
  readonly sx: bigint | null;
  readonly sy: bigint | null;
  /** Differing paths at fields that move with the tree's root where the two answers state different root sequences (left out of `paths`). */
  readonly rootMoved: readonly string[];
  /** Fields only the side under test has (left out of `paths`): a newer deployment's additions, warned of. */
  readonly added: readonly string[];
}

/**
 * Whether a differing path lies in a field that moves with the tree's root (`moving`, DECISIONS
 * row 76) while the two answers state different root sequences there: the field's own `seq`
 * (a proof's `rootSeq`, same array indices) differs, or, for a field of an object stating none,
 * any stated sequence of the same reply does.
 */
function movedWithRoot(c: ConformanceCase, x: unknown, y: unknown, path: string, table: MethodTable): boolean {
  const fields = [...movingOfBody(c.method, x, table), ...movingOfBody(c.method, y, table)];
  const at = fields.find((f: MovingAt) => f.field.with === "root" && underMoving(path, f));
  if (at === undefined) return false;
  const seqDiffers = (seq: string) => differences(valueAt(x, seq), valueAt(y, seq), new Set()).length > 0;
  if (at.seq !== null) return seqDiffers(at.seq);
  const reply = at.path.slice(0, at.path.indexOf("result") + "result".length);
  return fields.some((f) => f.seq !== null && f.path.startsWith(reply) && seqDiffers(f.seq));
}

/**
 * Whether a differing path is a field of an object that only the side under test has: the trusted
 * side's answer is what is expected, and a field it lacks (one a newer deployment adds) is a
 * warning, never a difference; a field only the trusted side has, or an extra array item, is one.
 */
function addedField(x: unknown, y: unknown, path: string): boolean {
  const dot = path.lastIndexOf(".");
  if (dot < 0 || valueAt(y, path) !== undefined || valueAt(x, path) === undefined) return false;
  const parent = valueAt(x, path.slice(0, dot));
  return isObject(parent) && !Array.isArray(parent);
}

async function attempt(c: ConformanceCase, a: RawTarget, b: RawTarget, table: MethodTable): Promise<Attempt> {
  const { body } = requestOf(c, a);
  const [x, y] = await Promise.all([a.send(c.http, body), b.send(c.http, body)]);
  const paths: string[] = [];
  const rootMoved: string[] = [];
  const added: string[] = [];
  if (x.status !== y.status) paths.push("(status)");
  if (x.parseError || y.parseError) {
    if (x.text !== y.text) paths.push("(body)");
  } else {
    for (const p of differences(x.body, y.body, ignoredPaths(c, x.body, y.body, table)))
      (addedField(x.body, y.body, p) ? added : movedWithRoot(c, x.body, y.body, p, table) ? rootMoved : paths).push(p);
  }
  return { x, y, paths, sx: slotOf(c, x.body, table), sy: slotOf(c, y.body, table), rootMoved, added };
}

const slotsDiffer = (t: Attempt) => t.sx !== null && t.sy !== null && t.sx !== t.sy;
const shownSlots = (t: Attempt) => `${t.sx} under test vs ${t.sy} trusted`;

function valuesAt(t: Attempt, path: string): [unknown, unknown] {
  if (path === "(status)") return [t.x.status, t.y.status];
  if (path === "(body)") return [t.x.text, t.y.text];
  return [valueAt(t.x.body, path), valueAt(t.y.body, path)];
}

/** A finding per differing path (at most MAX_LISTED): the trusted side's value expected, the other's actual. */
function listed(t: Attempt, paths: readonly string[], status: "fail" | "warn", note = ""): Finding[] {
  const findings = paths.slice(0, MAX_LISTED).map((path): Finding => {
    const [vx, vy] = valuesAt(t, path);
    const message = path === "(status)" ? "HTTP status differs" : `answers differ at ${path}${note}`;
    return { ...fail("diff", message, show(vy), show(vx)), status };
  });
  if (paths.length > MAX_LISTED) findings.push({ ...fail("diff", `…and ${paths.length - MAX_LISTED} more differences${note}`), status });
  return findings;
}

const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "bigint" ? "number" : typeof v);

/** The item field a lookup case fixes (`x-lookup`: the field of the first key whose param it gives), or null. */
function lookupKey(c: ConformanceCase, table: MethodTable): string | null {
  return lookupKeyOf(methodInfo(c.method, table), c.params)?.field ?? null;
}

/** Whether a difference can come from the chain moving between the two sides' slots (see the file comment). */
function movable(c: ConformanceCase, t: Attempt, path: string, table: MethodTable): boolean {
  // A field that moves with the slot (a queue's contents, its size) may differ at different slots;
  // one that moves with the root, at the same root sequence (else it is in `rootMoved`), may not.
  const moving = [...movingOfBody(c.method, t.x.body, table), ...movingOfBody(c.method, t.y.body, table)].find((f) => underMoving(path, f));
  if (moving !== undefined) return moving.field.with === "slot";
  if (!/^(\d+\.)?result\.value(\.|$)/.test(path)) return false;
  const [vx, vy] = valuesAt(t, path);
  if (vx === undefined || vy === undefined) {
    const parent = path.slice(0, path.lastIndexOf("."));
    return Array.isArray(valueAt(t.x.body, parent)) && Array.isArray(valueAt(t.y.body, parent)); // a list's length, not a missing key
  }
  if (vx === null || vy === null) return true;
  if (kind(vx) !== kind(vy)) return false;
  const key = lookupKey(c, table);
  return !(key !== null && path.endsWith(`.${key}`));
}

/** Objects that name themselves by an identity field of the spec (`x-identity`: an account's `hash`, a signature, …), by identity. */
function identities(value: unknown, fields: readonly string[], out = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(value)) for (const v of value) identities(v, fields, out);
  else if (isObject(value)) {
    const field = fields.find((f) => typeof getPath(value, f) === "string");
    if (field !== undefined) out.set(`${field} ${getPath(value, field) as string}`, value);
    else for (const v of Object.values(value)) identities(v, fields, out);
  }
  return out;
}

/** Accounts and signatures both sides list whose content differs: what a hash or signature fixes. */
function identityConflicts(c: ConformanceCase, t: Attempt, table: MethodTable): Finding[] {
  const findings: Finding[] = [];
  const fields = identityFields(table);
  // A proof names its leaf by `hash`, but its root and siblings move with the tree: compared as their type matchers.
  const [bx, by] = [maskMoving(c.method, t.x.body, table), maskMoving(c.method, t.y.body, table)];
  for (const [[, rx], [, ry]] of replies(bx).map((r, i) => [r, replies(by)[i] ?? ["", undefined]] as const)) {
    const xs = identities(isObject(rx) && isObject(rx.result) ? rx.result.value : undefined, fields);
    const ys = identities(isObject(ry) && isObject(ry.result) ? ry.result.value : undefined, fields);
    for (const [id, vx] of xs) {
      if (!ys.has(id)) continue;
      const vy = ys.get(id);
      for (const path of differences(vx, vy, new Set())) {
        findings.push(
          fail("diff", `the same ${id} differs at ${path} (its content does not depend on the slot)`, show(valueAt(vy, path)), show(valueAt(vx, path))),
        );
      }
    }
  }
  return findings;
}

const exact = (v: unknown) => (v === undefined ? "(absent)" : stringifyJson(v as Json));
/** Whether two attempts differ at the same paths with the same values on each side. */
const sameValues = (t: Attempt, u: Attempt) =>
  t.paths.length === u.paths.length && t.paths.every((p, i) => p === u.paths[i] && valuesAt(t, p).every((v, j) => exact(v) === exact(valuesAt(u, p)[j])));

/** Whether the slots each side answered at, over both attempts, overlap (each side's answer being the same at both). */
function rangesOverlap(t: Attempt, u: Attempt): boolean {
  const [x0, x1] = [t.sx!, u.sx!].sort((p, q) => (p < q ? -1 : p > q ? 1 : 0));
  const [y0, y1] = [t.sy!, u.sy!].sort((p, q) => (p < q ? -1 : p > q ? 1 : 0));
  return (x0! > y0! ? x0! : y0!) <= (x1! < y1! ? x1! : y1!);
}

interface Judged {
  readonly findings: Finding[];
  readonly inconclusive: boolean;
  readonly last: Attempt;
}

function noAnswer(t: Attempt): Judged {
  const errors = [t.x.error && `--url: ${t.x.error}`, t.y.error && `--against: ${t.y.error}`].filter(Boolean).join("; ");
  return { findings: [fail("diff", `no answer: ${errors}`)], inconclusive: false, last: t };
}

/**
 * The slot judgement (below) plus the fields that moved with the tree's root: when they are all
 * that differs, the case is inconclusive (one side is ahead); else they are listed as warnings
 * beside the verdict on the rest.
 */
async function judgeDiff(c: ConformanceCase, a: RawTarget, b: RawTarget, table: MethodTable): Promise<Judged> {
  const slots = await judgeSlots(c, a, b, table);
  const t = slots.last;
  const judged =
    t.added.length === 0 ? slots : { ...slots, findings: [...slots.findings, ...listed(t, t.added, "warn", " (a field only the side under test has)")] };
  if (t.rootMoved.length === 0 || t.x.error || t.y.error) return judged;
  const notes = listed(t, t.rootMoved, "warn", " (moves with the tree's root, and the answers state different root sequences)");
  if (t.paths.length === 0)
    return {
      findings: [
        warn(
          "diff",
          "inconclusive: the answers differ only in fields that move with the tree's root, and they state different root sequences (one side is ahead)",
        ),
        ...notes,
      ],
      inconclusive: true,
      last: t,
    };
  return { ...judged, findings: [...judged.findings, ...notes] };
}

async function judgeSlots(c: ConformanceCase, a: RawTarget, b: RawTarget, table: MethodTable): Promise<Judged> {
  const first = await attempt(c, a, b, table);
  if (first.x.error || first.y.error) return noAnswer(first);
  if (first.paths.length === 0) return { findings: [pass("diff", "same answer")], inconclusive: false, last: first };
  if (!slotsDiffer(first)) return { findings: listed(first, first.paths, "fail"), inconclusive: false, last: first };
  const second = await attempt(c, a, b, table); // the indexers were at different slots: ask again once
  if (second.x.error || second.y.error) return noAnswer(second);
  if (second.paths.length === 0) return { findings: [pass("diff", "same answer on the second attempt")], inconclusive: false, last: second };
  if (!slotsDiffer(second))
    return { findings: listed(second, second.paths, "fail", " (at the same slot on the second attempt)"), inconclusive: false, last: second };
  const fixed = second.paths.filter((p) => !movable(c, second, p, table));
  const moving = second.paths.filter((p) => movable(c, second, p, table));
  const findings = [...listed(second, fixed, "fail", " (does not depend on the slot)"), ...identityConflicts(c, second, table)];
  if (moving.length === 0) return { findings, inconclusive: false, last: second };
  if (sameValues(first, second) && rangesOverlap(first, second)) {
    findings.push(
      fail(
        "diff",
        `each side answered the same on both attempts and their slots overlap (${shownSlots(first)}, then ${shownSlots(second)}): at a slot both claim, they disagree`,
      ),
      ...listed(second, moving, "fail"),
    );
    return { findings, inconclusive: false, last: second };
  }
  const inconclusive = findings.length === 0;
  if (inconclusive)
    findings.push(
      warn(
        "diff",
        `inconclusive: the answers differ only where the chain moves, and the slots differed twice (${shownSlots(first)}, then ${shownSlots(second)})`,
      ),
    );
  findings.push(...listed(second, moving, "warn", " (may move with the chain)"));
  return { findings, inconclusive, last: second };
}

async function diffCase(c: ConformanceCase, a: RawTarget, b: RawTarget, table: MethodTable): Promise<{ result: CaseResult; inconclusive: boolean }> {
  if (c.skip) return { result: skipped(c), inconclusive: false };
  const started = performance.now();
  const { findings, inconclusive, last } = await judgeDiff(c, a, b, table);
  const result: CaseResult = {
    id: c.id,
    method: c.method,
    description: c.description,
    required: c.required,
    findings,
    // Judged: the results keep what reports read, not the parsed answers (a long diff would hold every one).
    exchange: { ...last.x, body: undefined },
    against: { ...last.y, body: undefined },
    status: rollUp(findings, c.required),
    durationMs: performance.now() - started,
    ...resultSource(c),
  };
  return { result, inconclusive: inconclusive && c.required };
}

/** The run-wide verdict on inconclusive cases: fails past `max`. */
function inconclusiveResult(ids: readonly string[], max: number): CaseResult {
  const listedIds = ids.length > 0 ? `: ${ids.slice(0, MAX_LISTED).join(", ")}${ids.length > MAX_LISTED ? ", …" : ""}` : "";
  const message = `${ids.length} required case${ids.length === 1 ? "" : "s"} inconclusive (answers differing only where the chain moves, at different slots twice), --max-inconclusive ${max}${listedIds}`;
  const findings = [ids.length > max ? fail("diff", message) : ids.length > 0 ? warn("diff", message) : pass("diff", message)];
  return runWideResult(INCONCLUSIVE_ID, "differences that slot movement may explain stay within --max-inconclusive", findings);
}

/**
 * Compares `options.url` with `options.against` over the selected cases. Given an open
 * `session` (two targets: under test, then trusted), uses it instead of opening one; the caller
 * closes it.
 */
export async function diffTargets(options: DiffOptions, given?: Session): Promise<RunSummary> {
  const startedAt = new Date();
  const t0 = performance.now();
  // Each side with its own headers only. Answers are kept as they came (judged unmasked); the
  // caller masks both sides' secrets at the output edge.
  const session =
    given ??
    (await openSession({
      ...options,
      targets: [
        { url: options.url, headers: options.headers },
        { url: options.against, headers: options.againstHeaders },
      ],
    }));
  try {
    const [a, b] = session.targets as [RawTarget, RawTarget];
    const cases = session.cases;
    await session.ensureReachable();
    const inconclusive: string[] = [];
    const results = await session.pool(
      async (c) => {
        const judged = await diffCase(c, a, b, session.spec.methods);
        if (judged.inconclusive) inconclusive.push(judged.result.id);
        return judged.result;
      },
      { onResult: (r, done) => options.onResult?.(r, done, cases.length) },
    );
    const max = options.maxInconclusive ?? 0;
    results.push(inconclusiveResult(inconclusive.sort(), max));
    const shown: Record<string, Json> = {
      url: a.display,
      against: b.display,
      trusted: "against",
      cases: cases.length,
      inconclusive: inconclusive.length,
      maxInconclusive: max,
    };
    return summarize(
      results,
      `${a.display} (under test, --url) against ${b.display} (trusted, --against)`,
      startedAt,
      performance.now() - t0,
      shown,
      undefined,
      {
        identity: identityOf("diff", { ...options, shard: null, fixtures: options.fixturesName ?? "(given to diffTargets)" }),
        spec: session.spec,
      },
    );
  } finally {
    if (!given) await session.close();
  }
}
