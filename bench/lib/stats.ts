/** Medians and rounds. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Per-run values and their median, rounded for the JSON output. */
export function summary(values: readonly number[], digits = 3): { value: number; runs: number[] } {
  return { value: round(median(values), digits), runs: values.map((v) => round(v, digits)) };
}

/**
 * The median of per-round ratios `top[i] / bottom[i]`: each round measures both sides back to
 * back, so pairing them cancels drift between rounds (GC heap growth, JIT tiers, other load on
 * a shared machine) that a ratio of two separate medians would keep.
 */
export function pairedRatio(top: readonly number[], bottom: readonly number[]): number {
  if (top.length !== bottom.length || top.length === 0) throw new Error("pairedRatio needs two equal, non-empty lists");
  return median(top.map((t, i) => t / (bottom[i] as number)));
}

/**
 * The order of the sides in round `round`: rotated by one each round (two sides: as given in even
 * rounds, swapped in odd ones), so no side always runs first or last (warm caches, GC debt and
 * drift then fall on all alike).
 */
export function inTurns<K>(round: number, sides: readonly K[]): readonly K[] {
  const by = round % sides.length;
  return [...sides.slice(by), ...sides.slice(0, by)];
}
