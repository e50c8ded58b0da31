/**
 * `diff`'s judgement of one case from its attempts (each attempt: both answers, classified by
 * conformance/compare-walk.ts, and the slot of each reply; a batch's replies each with their
 * own method and slot). A difference that cannot move (`fixed`) fails; one in a field that
 * moves with the slot or the index's state may differ between replies at different slots (or,
 * for a `slot` field, in answers the spec gives no slot); one that moves with the tree's root,
 * where the two objects state different root sequences. See compare.ts for the whole rule.
 */
import { isObject, parseJson } from "@photon-indexer-kit/runtime";
import type { ConformanceCase } from "./case-format.js";
import { show } from "./checks/check.js";
import { classifiedDifferences, differences, differs, type Difference, type ReplyPlan } from "./compare-walk.js";
import { ABSENT, getPath } from "./matchers.js";
import { fail, pass, warn, type Exchange, type Finding } from "./results.js";
import { maskResult, movingTrie } from "./moving.js";
import { contextSlotPaths, identityFields, lookupKeyOf, methodInfo, slotOfResult, type MethodTable } from "./spec-facts.js";

const MAX_LISTED = 20;

/** Matchers that say a value varies by deployment or moment (`{any: true}`, `{type: …}`, `{matches: …}`). */
const VARYING = new Set(["any", "type", "matches"]);

/** The slots one reply was read at on each side; `stated`: the spec gives its answers a slot. */
export interface ReplySlots {
  readonly x: bigint | null;
  readonly y: bigint | null;
  readonly stated: boolean;
}

/** One attempt: both answers (x from --url, y from --against, trusted), their differences and each reply's slots. */
export interface Attempt {
  readonly x: Exchange;
  readonly y: Exchange;
  /** Differences that are not `added` or `rootMoved` (`(status)` and `(body)` among them, reply -1). */
  readonly diffs: readonly Difference[];
  /** Paths in fields that moved with the tree's root (one side is ahead). */
  readonly rootMoved: readonly string[];
  /** Fields only the side under test has: a newer deployment's additions, warned of. */
  readonly added: readonly string[];
  readonly replies: readonly ReplySlots[];
  readonly plans: readonly ReplyPlan[];
}

export interface Judged {
  readonly findings: Finding[];
  readonly inconclusive: boolean;
  readonly last: Attempt;
}

interface Request {
  readonly method: string | null;
  readonly params: unknown;
  readonly id: unknown;
}

/** The request (or a batch's elements) as sent; a body that is not JSON is one request of no method. */
function requestsOf(c: ConformanceCase, text: string): Request[] {
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : parseJson(text);
  } catch {
    return [{ method: null, params: undefined, id: null }];
  }
  const one = (r: unknown, fallback: string | null): Request =>
    isObject(r)
      ? { method: typeof r.method === "string" ? r.method : fallback, params: r.params, id: Object.hasOwn(r, "id") ? r.id : null }
      : { method: fallback, params: undefined, id: null };
  return Array.isArray(parsed) ? parsed.map((r) => one(r, null)) : [one(parsed, c.method)];
}

/**
 * The request each reply of a batch answers: replies come in request order (DECISIONS row 81),
 * each the next request with its id; a reply with id null (an invalid element, or a notification
 * the server refused) answers the next request in order.
 */
function pairReplies(requests: readonly Request[], replies: readonly unknown[]): (Request | undefined)[] {
  let next = 0;
  return replies.map((reply) => {
    const id = isObject(reply) && Object.hasOwn(reply, "id") ? reply.id : null;
    for (let j = next; j < requests.length; j++) {
      if (id !== null && differs(requests[j]!.id, id)) continue;
      next = j + 1;
      return requests[j];
    }
    return undefined;
  });
}

/** The paths of a reply the case's matchers say may vary (`{any}`, `{type}`, `{matches}`): `expect.result` for one reply, `expect.batch` per reply. */
function varying(c: ConformanceCase, batch: boolean, i: number): string[] {
  const paths = (matchers: unknown, under: string) =>
    isObject(matchers)
      ? Object.entries(matchers)
          .filter(([, m]) => isObject(m) && Object.keys(m).some((k) => VARYING.has(k)))
          .flatMap(([p]) => (p === "." ? (under ? [under] : []) : [under ? `${under}.${p}` : p]))
      : [];
  return batch ? paths(c.expect.batch?.[i], "") : i === 0 ? paths(c.expect.result, "result") : [];
}

function plansOf(c: ConformanceCase, requestText: string, x: unknown, y: unknown, table: MethodTable): ReplyPlan[] {
  const slots = contextSlotPaths(table).map((p) => `result.${p}`);
  const requests = requestsOf(c, requestText);
  const batch = Array.isArray(x) || Array.isArray(y);
  const paired = batch ? pairReplies(requests, Array.isArray(y) ? y : (x as unknown[])) : requests.slice(0, 1);
  return paired.map((request, i) => {
    const info = request?.method ? methodInfo(request.method, table) : undefined;
    const ignored = ["id", ...slots, ...varying(c, batch, i)];
    if (info?.slot === "") ignored.push("result"); // the answer is the slot itself
    return { method: request?.method ?? null, ignored, lookupField: lookupKeyOf(info, request?.params)?.field ?? null };
  });
}

/** The slot a reply states (its method's `x-slot`, else any context slot the spec knows), or null. */
function replySlot(reply: unknown, plan: ReplyPlan | undefined, table: MethodTable): ReplySlots["x"] {
  if (!isObject(reply) || !Object.hasOwn(reply, "result")) return null;
  const info = plan?.method ? methodInfo(plan.method, table) : undefined;
  const stated = info ? [slotOfResult(info, reply.result)] : contextSlotPaths(table).map((p) => getPath(reply.result, p));
  const s = stated.find((v) => v !== undefined && v !== ABSENT);
  return (typeof s === "number" && Number.isInteger(s)) || typeof s === "bigint" ? BigInt(s) : null;
}

/** Both answers to one request compared: classified differences and each reply's slots (linear in the answers' size). */
export function attemptOf(c: ConformanceCase, requestText: string, x: Exchange, y: Exchange, table: MethodTable): Attempt {
  const plans = plansOf(c, requestText, x.body, y.body, table);
  const diffs: Difference[] = [];
  const rootMoved: string[] = [];
  const added: string[] = [];
  if (x.status !== y.status) diffs.push({ path: "(status)", reply: -1, kind: "fixed", x: x.status, y: y.status });
  if (x.parseError || y.parseError) {
    if (x.text !== y.text) diffs.push({ path: "(body)", reply: -1, kind: "fixed", x: x.text, y: y.text });
  } else {
    for (const d of classifiedDifferences(x.body, y.body, plans, table))
      if (d.kind === "added") added.push(d.path);
      else if (d.kind === "rootMoved") rootMoved.push(d.path);
      else diffs.push(d);
  }
  const xs = Array.isArray(x.body) ? x.body : [x.body];
  const ys = Array.isArray(y.body) ? y.body : [y.body];
  const replies = Array.from({ length: Math.max(xs.length, ys.length) }, (_, i): ReplySlots => {
    const method = plans[i]?.method;
    const info = method ? methodInfo(method, table) : undefined;
    return { x: replySlot(xs[i], plans[i], table), y: replySlot(ys[i], plans[i], table), stated: info === undefined || info.slot !== null };
  });
  return { x, y, diffs, rootMoved, added, replies, plans };
}

const slotsDiffer = (r: ReplySlots | undefined) => r !== undefined && r.x !== null && r.y !== null && r.x !== r.y;

/** Whether a difference can come from the chain moving between the two sides' reads (see the file comment). */
export function movable(d: Difference, t: Attempt): boolean {
  if (d.kind !== "slot" && d.kind !== "state") return false;
  const r = t.replies[d.reply];
  return slotsDiffer(r) || (d.kind === "slot" && r !== undefined && !r.stated);
}

const slotText = (s: bigint | null) => (s === null ? "none" : String(s));

/** The slots of the replies with movable differences: `X under test vs Y trusted`, per reply in a batch. */
function shownSlots(t: Attempt, diffs: readonly Difference[]): string {
  const replies = [...new Set(diffs.map((d) => d.reply))].filter((r) => t.replies[r] !== undefined);
  const one = (r: number) => `${slotText(t.replies[r]!.x)} under test vs ${slotText(t.replies[r]!.y)} trusted`;
  const batch = Array.isArray(t.x.body) || Array.isArray(t.y.body);
  return batch ? replies.map((r) => `reply ${r}: ${one(r)}`).join("; ") : replies.map(one).join("; ");
}

/** The value at a path a difference names (undefined where one side lacks it). */
export function valueAt(body: unknown, path: string): unknown {
  const value = getPath(body, path === "(root)" ? "" : path);
  return value === ABSENT ? undefined : value;
}

/** A finding per difference (at most MAX_LISTED): the trusted side's value expected, the other's actual. */
function listed(t: Attempt, diffs: readonly Difference[] | readonly string[], status: "fail" | "warn", note: (d: Difference) => string = () => ""): Finding[] {
  const at = (path: string): Difference => ({ path, reply: -1, kind: "fixed", x: valueAt(t.x.body, path), y: valueAt(t.y.body, path) });
  const all: readonly (Difference | string)[] = diffs;
  const findings = all.slice(0, MAX_LISTED).map((item): Finding => {
    const d = typeof item === "string" ? at(item) : item;
    const message = d.path === "(status)" ? "HTTP status differs" : `answers differ at ${d.path}${note(d)}`;
    return { ...fail("diff", message, show(d.y), show(d.x)), status };
  });
  const more = all.length - MAX_LISTED;
  if (more > 0) {
    const next = all[MAX_LISTED]!;
    findings.push({ ...fail("diff", `…and ${more} more differences${note(typeof next === "string" ? at(next) : next)}`), status });
  }
  return findings;
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

/** In replies read at different slots: accounts and signatures both sides list whose content differs, what a hash or signature fixes. */
function identityConflicts(t: Attempt, table: MethodTable): Finding[] {
  const findings: Finding[] = [];
  const fields = identityFields(table);
  const xs = Array.isArray(t.x.body) ? t.x.body : [t.x.body];
  const ys = Array.isArray(t.y.body) ? t.y.body : [t.y.body];
  t.replies.forEach((slots, i) => {
    if (!slotsDiffer(slots)) return;
    // A proof names its leaf by `hash`, but its root and siblings move: compared as their type matchers.
    const moving = movingTrie(t.plans[i]?.method ?? null, table);
    const pageOf = (reply: unknown) => {
      const result = isObject(reply) ? maskResult(reply.result, moving) : undefined;
      return isObject(result) ? result.value : undefined;
    };
    const found = identities(pageOf(ys[i]), fields);
    for (const [id, vx] of identities(pageOf(xs[i]), fields)) {
      if (!found.has(id)) continue;
      const vy = found.get(id);
      for (const path of differences(vx, vy, new Set()))
        findings.push(
          fail("diff", `the same ${id} differs at ${path} (its content does not depend on the slot)`, show(valueAt(vy, path)), show(valueAt(vx, path))),
        );
    }
  });
  return findings;
}

/** The replies whose movable differences are the same paths with the same values in both attempts while the two sides' slot ranges overlap. */
function stuckReplies(first: Attempt, second: Attempt, moving: readonly Difference[]): Set<number> {
  const byReply = (diffs: readonly Difference[]) => {
    const out = new Map<number, Difference[]>();
    for (const d of diffs) (out.get(d.reply) ?? out.set(d.reply, []).get(d.reply)!).push(d);
    return out;
  };
  const before = byReply(first.diffs);
  const same = (d: Difference, e: Difference) => d.path === e.path && !differs(d.x, e.x) && !differs(d.y, e.y);
  const stuck = new Set<number>();
  for (const [r, now] of byReply(moving)) {
    const then = before.get(r);
    if (then && then.length === now.length && then.every((d, i) => same(d, now[i]!)) && rangesOverlap(first.replies[r], second.replies[r])) stuck.add(r);
  }
  return stuck;
}

/** Whether the slots each side answered one reply at, over both attempts, overlap. */
function rangesOverlap(t: ReplySlots | undefined, u: ReplySlots | undefined): boolean {
  if (!t || !u || t.x === null || t.y === null || u.x === null || u.y === null) return false;
  const [x0, x1] = t.x < u.x ? [t.x, u.x] : [u.x, t.x];
  const [y0, y1] = t.y < u.y ? [t.y, u.y] : [u.y, t.y];
  return (x0 > y0 ? x0 : y0) <= (x1 < y1 ? x1 : y1);
}

const ROOT_NOTE = " (moves with the tree's root, and the answers state different root sequences)";
const notes = (t: Attempt) => [
  ...listed(t, t.rootMoved, "warn", () => ROOT_NOTE),
  ...listed(t, t.added, "warn", () => " (a field only the side under test has)"),
];
const settled = (t: Attempt) => t.diffs.length === 0 && t.rootMoved.length === 0;

function noAnswer(t: Attempt): Judged {
  const errors = [t.x.error && `--url: ${t.x.error}`, t.y.error && `--against: ${t.y.error}`].filter(Boolean).join("; ");
  return { findings: [fail("diff", `no answer: ${errors}`)], inconclusive: false, last: t };
}

/** A failed attempt: each fixed difference fails (noting where the slots differed), movable ones warn. */
function failed(t: Attempt, fixed: readonly Difference[], table: MethodTable, second: boolean): Judged {
  const moving = t.diffs.filter((d) => movable(d, t));
  const note = (d: Difference) =>
    slotsDiffer(t.replies[d.reply]) ? " (does not depend on the slot)" : second ? " (at the same slot on the second attempt)" : "";
  const findings = [
    ...listed(t, fixed, "fail", note),
    ...identityConflicts(t, table),
    ...listed(t, moving, "warn", () => " (may move with the chain)"),
    ...notes(t),
  ];
  return { findings, inconclusive: false, last: t };
}

/**
 * Judges a case by asking both sides once, and again when every difference could come from the chain
 * moving: agreement on either attempt passes; what still differs is inconclusive unless a fixed
 * difference, an identity conflict or a reply stuck over overlapping slots makes it fail.
 */
export async function judgeAttempts(ask: () => Promise<Attempt>, table: MethodTable): Promise<Judged> {
  const first = await ask();
  if (first.x.error || first.y.error) return noAnswer(first);
  if (settled(first)) return { findings: [pass("diff", "same answer"), ...notes(first)], inconclusive: false, last: first };
  const fixedFirst = first.diffs.filter((d) => !movable(d, first));
  if (fixedFirst.length > 0) return failed(first, fixedFirst, table, false);
  const second = await ask(); // every difference could come from the chain moving: ask again once
  if (second.x.error || second.y.error) return noAnswer(second);
  if (settled(second)) return { findings: [pass("diff", "same answer on the second attempt"), ...notes(second)], inconclusive: false, last: second };
  return judgeSecond(first, second, table);
}

/** The verdict on a second attempt that still differs. */
export function judgeSecond(first: Attempt, second: Attempt, table: MethodTable): Judged {
  const fixed = second.diffs.filter((d) => !movable(d, second));
  if (fixed.length > 0) return failed(second, fixed, table, true);
  const conflicts = identityConflicts(second, table);
  const stuck = stuckReplies(first, second, second.diffs);
  const findings: Finding[] = [...conflicts];
  if (stuck.size > 0) {
    const stuckDiffs = second.diffs.filter((d) => stuck.has(d.reply));
    findings.push(
      fail(
        "diff",
        `each side answered the same on both attempts and their slots overlap (${shownSlots(first, stuckDiffs)}, then ${shownSlots(second, stuckDiffs)}): at a slot both claim, they disagree`,
      ),
      ...listed(second, stuckDiffs, "fail"),
    );
  }
  const inconclusive = findings.length === 0;
  if (inconclusive)
    findings.push(
      second.diffs.length > 0
        ? warn(
            "diff",
            `inconclusive: the answers differ only where the chain moves, and the slots differed twice (${shownSlots(first, first.diffs)}, then ${shownSlots(second, second.diffs)})`,
          )
        : warn(
            "diff",
            "inconclusive: the answers differ only in fields that move with the tree's root, and they state different root sequences (one side is ahead)",
          ),
    );
  findings.push(
    ...listed(second, stuck.size > 0 ? second.diffs.filter((d) => !stuck.has(d.reply)) : second.diffs, "warn", () => " (may move with the chain)"),
    ...notes(second),
  );
  return { findings, inconclusive, last: second };
}
