/** Tables for the terminal (aligned text) and for RESULTS.md (markdown). */

function strip(cell: string): string {
  return cell.replace(/\*\*/g, "");
}

export function formatTable(columns: readonly string[], rows: readonly (readonly string[])[], style: "text" | "markdown"): string {
  if (style === "markdown") {
    const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
    return [line(columns), line(columns.map(() => "---")), ...rows.map(line)].join("\n");
  }
  const plain = rows.map((r) => r.map(strip));
  const widths = columns.map((c, i) => Math.max(c.length, ...plain.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(columns), widths.map((w) => "-".repeat(w)).join("  "), ...plain.map(line)].join("\n");
}
