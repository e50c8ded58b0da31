/**
 * Relations read at one slot. A check that combines answers (a walk's pages, two methods'
 * answers, a sum over a list, the case's answer and its follow-ups) runs them as a relation
 * through `atOneSlot`: the slot of every answer is recorded (its context slot, or the slot
 * method's own result). Answers that agree pass whatever their slots; a disagreement is a failure
 * only when every answer states one slot: otherwise the whole relation runs again, and after
 * SLOT_TRIES tries it is inconclusive because the target moved: a warning naming the slots seen
 * (reason MOVED), never a failure, never a pass. What holds of each answer alone (a page over its
 * limit) is judged whatever the slots.
 */
import { isObject } from "@photon-indexer-kit/runtime";
import type { CheckContext, Target } from "./checks/check.js";
import { FindingReason, warn, type CaseResult, type Exchange, type Finding } from "./results.js";
import { methodInfo, slotMethod, slotOfResult, type MethodTable } from "./spec-facts.js";

/** Tries of one relation: the first, and two more when its answers stated different slots. */
export const SLOT_TRIES = 3;

/** Slots a warning names per try at most (the first ones, then the last). */
const SHOWN_SLOTS = 6;

/**
 * The slot an answer of `method` states, or null: its context slot, or the slot method's own
 * result. A slot of 0 was not read from the index (Photon's answer to a request that asks nothing,
 * spec/DECISIONS.md row 69), so it states none; so does an error or a transport failure.
 */
export function slotOfAnswer(method: string, body: unknown, table: MethodTable): bigint | null {
  if (!isObject(body) || !("result" in body)) return null;
  const slot = slotOfResult(methodInfo(method, table), body.result);
  const value = typeof slot === "bigint" ? slot : typeof slot === "number" && Number.isSafeInteger(slot) ? BigInt(slot) : null;
  return value === null || value <= 0n ? null : value;
}

/** What a relation found: about single answers (kept whatever the slots), and about answers combined (kept at one slot only). */
export interface Judged {
  /** True of each answer alone (a page over its limit, out of order within itself, a transport failure). */
  readonly each: readonly Finding[];
  /** What combines answers (two walks alike, a sum, a follow-up) or an error answer: judged only when every answer stated one slot. */
  readonly across: readonly Finding[];
}

/**
 * What a relation found when an answer it needed is missing: judged with its other answers where
 * the target answered a JSON-RPC error (right or wrong only at that slot), else whatever the slots
 * (a transport failure, a page over its limit).
 */
export const unanswered = (f: Finding, errorAnswer?: boolean): Judged => (errorAnswer ? { each: [], across: [f] } : { each: [f], across: [] });

/** No verdict at this try: the case's own request, asked again, answered no result (the target changed its answer). */
export const CHANGED = null;

/** One try of a relation. */
export interface Try {
  /** The check's context; its target records the slot of every answer. */
  readonly ctx: CheckContext;
  /** The case's own answer: the run's on the first try, asked again on the others; its slot is recorded. */
  own(): Promise<Exchange>;
}

/** The result of an exchange that answered one, or undefined. */
export function resultOf(exchange: Exchange): { result: unknown } | undefined {
  const body = exchange.body;
  return isObject(body) && "result" in body ? { result: body.result } : undefined;
}

/** The slots of one try, in the order their answers came; null for an answer that stated none. */
type Slots = (bigint | null)[];

function recording(target: Target, table: MethodTable, slots: Slots): Target {
  return {
    ...target,
    call: async (method, params, signal) => {
      const exchange = await target.call(method, params, signal);
      slots.push(slotOfAnswer(method, exchange.body, table));
      return exchange;
    },
  };
}

const distinct = (slots: Slots): bigint[] => [...new Set(slots.filter((s): s is bigint => s !== null))];

/** A try's slots as a warning names them: distinct, in the order seen, with where they went back. */
function shownSlots(slots: Slots): string {
  const seen = distinct(slots);
  const list = seen.length <= SHOWN_SLOTS ? seen.join(", ") : `${seen.slice(0, SHOWN_SLOTS - 1).join(", ")}, …, ${seen[seen.length - 1]}`;
  let high: bigint | null = null;
  for (const s of slots) {
    if (s === null) continue;
    if (high !== null && s < high) return `${list} (back from ${high} to ${s})`;
    high = s;
  }
  return list;
}

/** The warning of a relation whose answers stated different slots on every try. */
export function movedFinding(check: string, what: string, tries: readonly Slots[]): Finding {
  const shown = tries.map((slots, i) => `try ${i + 1}: slots ${slots.length === 0 || distinct(slots).length === 0 ? "unknown" : shownSlots(slots)}`);
  return {
    ...warn(check, `inconclusive: the target moved while ${what} was read (${shown.join("; ")}): not judged`),
    reason: FindingReason.MOVED,
  };
}

/**
 * Runs `relation` until its answers agree or state one slot (at most `tries`), else returns its last
 * single-answer findings and a MOVED warning naming `what`. An answer stating no slot asks the slot again.
 */
export async function atOneSlot(
  ctx: CheckContext,
  check: string,
  what: string,
  relation: (t: Try) => Promise<Judged | typeof CHANGED>,
  tries = SLOT_TRIES,
): Promise<Finding[]> {
  const source = slotMethod(ctx.methods);
  const seen: Slots[] = [];
  let each: readonly Finding[] = [];
  for (let n = 0; n < tries; n++) {
    const slots: Slots = [];
    const target = recording(ctx.target, ctx.methods, slots);
    const own = async (): Promise<Exchange> => {
      if (n > 0) return target.call(ctx.testCase.method, ctx.testCase.params);
      slots.push(slotOfAnswer(ctx.testCase.method, ctx.exchange.body, ctx.methods));
      return ctx.exchange;
    };
    const judged = await relation({ ctx: { ...ctx, target }, own });
    if (judged !== CHANGED && source && slots.includes(null)) await target.call(source.name, undefined);
    seen.push(slots);
    // Answers that agree stand whatever their slots (the relation held); a disagreement between answers of several slots is asked again.
    const moved = judged === CHANGED || (distinct(slots).length > 1 && judged.across.some((f) => f.status === "fail"));
    if (!moved) return [...judged.each, ...judged.across];
    each = judged?.each ?? [];
    if (each.some((f) => f.status === "fail")) break; // a wrong answer fails whatever the slots: no need to read again
  }
  return [...each, movedFinding(check, what, seen)];
}

/** The run's note on its relations that stayed inconclusive because the target moved (none when none did). */
export function movedNote(results: readonly CaseResult[]): string[] {
  let relations = 0;
  let cases = 0;
  for (const r of results) {
    const n = r.findings.filter((f) => f.reason === FindingReason.MOVED).length;
    relations += n;
    if (n > 0) cases++;
  }
  if (relations === 0) return [];
  const one = relations === 1;
  return [
    `${relations} relation${one ? "" : "s"} in ${cases} case${cases === 1 ? "" : "s"} ${one ? "was" : "were"} inconclusive: the target moved while ${one ? "its" : "their"} answers were read, ${SLOT_TRIES} times (warnings, not failures; see docs/moving-target.md)`,
  ];
}
