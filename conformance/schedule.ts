/**
 * The order a pool starts its cases in: the longest request chains first, so that no long chain
 * starts last and runs on alone after every other case has finished (the classic makespan rule:
 * longest job first). A case that walks its list at one item a page sends its requests one after
 * another, each waiting for the last; started late, it is the whole tail of a run (against a
 * remote indexer, seconds). Results keep case order whatever the start order.
 *
 * A chain's length is estimated from what the case asks, before anything is sent: each walk at
 * page size `s` costs about 1/s of its list in pages (the lists are unknown: the smaller the pages,
 * the longer the walk), each whole-list relation a walk at the server's page size, each follow-up
 * one request. Only the order depends on it; a wrong estimate costs time, never a verdict.
 */
import type { ConformanceCase } from "./case-format.js";

/** Items a walked list is assumed to hold, to weigh a walk by its page size. */
const ASSUMED_ITEMS = 100;

/** About how many requests a case sends, one after another. */
export function chainLength(c: ConformanceCase): number {
  const e = c.expect;
  let n = 1;
  if (e.paginate.length > 0) n += 1 + e.paginate.reduce((sum, size) => sum + Math.ceil(ASSUMED_ITEMS / size), 0);
  for (const a of e.agrees ?? []) n += a.walk ? 2 : 1;
  if (e.sum) n += 1;
  for (const f of e.follow ?? []) n += f.max;
  return n;
}

/** Indexes into `cases` in the order to start them: longest estimated chain first, case order among equals. */
export function startOrder(cases: readonly ConformanceCase[]): number[] {
  const lengths = cases.map(chainLength);
  return cases.map((_, i) => i).sort((a, b) => lengths[b]! - lengths[a]! || a - b);
}
