/** A run's failed cases, one line each (`id: message; message`), so that a test expecting none shows what failed. */
import type { RunSummary } from "../../conformance/results.js";

export function failedCases(summary: Pick<RunSummary, "results">): string[] {
  return summary.results
    .filter((r) => r.status === "fail")
    .map(
      (r) =>
        `${r.id}: ${r.findings
          .filter((f) => f.status === "fail")
          .map((f) => f.message)
          .join("; ")}`,
    );
}
