/**
 * Indents ajv's standalone output (one statement per line with `code.lines`) by brace depth.
 * A linear pass instead of the TypeScript formatter, which takes seconds on the few hundred
 * KB of code a large spec compiles to. Braces inside string literals are skipped.
 */
export function indentByBraces(code: string, unit = "  "): string {
  const out: string[] = [];
  let depth = 0;
  for (const raw of code.split("\n")) {
    const line = raw.trim();
    if (line === "") {
      out.push("");
      continue;
    }
    let opens = 0;
    let closesFirst = 0;
    let seenOther = false;
    let quote: string | null = null;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = null;
        continue;
      }
      if (c === '"' || c === "'" || c === "`") {
        quote = c;
        seenOther = true;
      } else if (c === "{" || c === "[" || c === "(") opens++;
      else if (c === "}" || c === "]" || c === ")") {
        if (!seenOther && opens === 0) closesFirst++;
        else opens--;
      } else if (c !== " ") seenOther = true;
    }
    depth = Math.max(0, depth - closesFirst);
    out.push(unit.repeat(depth) + line);
    depth = Math.max(0, depth + opens);
  }
  return out.join("\n");
}
