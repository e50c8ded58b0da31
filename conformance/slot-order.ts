/**
 * The run-wide slot check: slots never go backwards. An answer started after another finished
 * reports a slot at least as high, whatever methods answered them (a context slot, or the slot
 * method's own result: same-slot.ts reads both).
 */
import { isObject } from "@photon-indexer-kit/runtime";
import { ABSENT, getPath } from "./matchers.js";
import { fail, pass, runWideResult, type CaseResult, type Exchange, type Finding } from "./results.js";
import { slotOfAnswer } from "./same-slot.js";
import { contextSlotPaths, type MethodTable } from "./spec-facts.js";

/** The run-wide case: it judges the other results of its run (its shard's, when sharded). */
export const SLOT_ORDER_ID = "run/slot-order";

/**
 * The slot a case's answer states (the table's `x-slot`, or the slot method's result), or null. A slot of 0
 * is Photon's default answer to an empty request (spec/DECISIONS.md row 69), so it states none.
 */
export function caseSlot(exchange: Exchange | null, method: string, raw: boolean, table: MethodTable): bigint | null {
  const result = isObject(exchange?.body) ? exchange.body.result : undefined;
  const slot = contextSlotPaths(table)
    .map((p) => getPath(result, p))
    .find((v) => v !== ABSENT);
  if (typeof slot === "number" || typeof slot === "bigint") return BigInt(slot) > 0n ? BigInt(slot) : null;
  return raw || !exchange ? null : slotOfAnswer(method, exchange.body, table);
}

/** Slots never go backwards: an answer started after another finished reports a slot at least as high. */
export function slotOrder(results: readonly CaseResult[], table: MethodTable): CaseResult {
  const seen: { id: string; slot: bigint; start: number; end: number }[] = [];
  for (const r of results) {
    const slot = r?.exchange ? caseSlot(r.exchange, r.method, false, table) : null;
    if (slot !== null) seen.push({ id: r.id, slot, start: r.exchange!.startedAt, end: r.exchange!.startedAt + r.exchange!.durationMs });
  }
  const byEnd = [...seen].sort((a, b) => a.end - b.end);
  // highest[i]: the highest slot among the first i answers to finish.
  const highest: bigint[] = [-1n];
  for (const o of byEnd) highest.push(o.slot > highest[highest.length - 1]! ? o.slot : highest[highest.length - 1]!);
  const findings: Finding[] = [];
  for (const s of seen) {
    let lo = 0;
    let hi = byEnd.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byEnd[mid]!.end < s.start) lo = mid + 1;
      else hi = mid;
    }
    if (highest[lo]! <= s.slot) continue; // none finished before s started with a higher slot
    const first = byEnd.find((o) => o.end < s.start && o.slot > s.slot)!;
    findings.push(fail("semantics", `${s.id} reported slot ${s.slot} after ${first.id} had reported ${first.slot}`));
  }
  if (findings.length === 0) findings.push(pass("semantics", `${seen.length} context slots never went backwards`));
  return runWideResult(SLOT_ORDER_ID, `${contextSlotPaths(table).join(", ")} never goes backwards during the run`, findings);
}
