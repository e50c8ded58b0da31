/**
 * Label values a target cannot multiply: a fixed set (the spec's methods, the case statuses), then
 * the first `cap` other distinct values seen (error codes), each at most MAX_LENGTH characters;
 * anything else is the one value `other`.
 */
export const OTHER = "other";

/** Characters of a label value kept as it came. */
const MAX_LENGTH = 40;

export class BoundedLabel {
  private readonly seen: Set<string>;
  private readonly limit: number;

  /** `known`: always kept; `cap`: how many values besides them are kept as they came. */
  constructor(known: Iterable<string>, cap = 0) {
    this.seen = new Set(known);
    this.limit = this.seen.size + cap;
  }

  /** `value` when known or among the first `cap` others seen, else `other`. */
  of(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.limit || value.length > MAX_LENGTH) return OTHER;
    this.seen.add(value);
    return value;
  }
}
