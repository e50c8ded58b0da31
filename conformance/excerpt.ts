/**
 * Excerpts kept for reports. `String.prototype.slice` shares its source in V8 (a slice of 13
 * characters or more points into the text it was cut from), so a 4 KB excerpt of a 5 MB answer
 * kept in a run's results held the whole answer: the bundled suite's results held ~50 MB of
 * answers until the run ended, and a long run against a real deployment held every answer it was
 * sent. An excerpt here is a copy of its characters (UTF-16 code units, a cut surrogate pair kept
 * as it is) that holds nothing else.
 */
export function excerpt(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${Buffer.from(text.slice(0, max), "utf16le").toString("utf16le")}…`;
}
