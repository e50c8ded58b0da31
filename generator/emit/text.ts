/**
 * openapi-typescript's printed schema types, re-indented as text (ts-morph writes the rest of the
 * generated code, morph.ts).
 */

/**
 * TypeScript's printer output (four spaces per level, as openapi-typescript's `astToString` writes it)
 * re-indented to two spaces per level, the way TypeScript's formatter re-indents it: a code line's
 * indentation halves; the lines of a block comment move left by as much as the comment's first line.
 * Returns null for text it does not expect (indentation not a multiple of four, a tab), which the
 * caller then hands to the formatter.
 */
export function reindentPrinted(text: string): string | null {
  const lines = text.split("\n");
  let delta = -1; // inside a block comment: how far its lines move left
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let n = 0;
    while (line.charCodeAt(n) === 32) n++;
    if (line.charCodeAt(n) === 9) return null;
    if (delta >= 0) {
      lines[i] = line.slice(Math.min(n, delta));
      if (line.includes("*/")) delta = -1;
      continue;
    }
    if (n % 4 !== 0) return null;
    lines[i] = line.slice(n / 2);
    const rest = line.slice(n);
    if (rest.startsWith("/*")) {
      if (!rest.includes("*/", 2)) delta = n / 2; // a comment's first line; else a one-line comment
    } else if (rest.includes("/*") || rest.includes("*/")) return null;
  }
  return lines.join("\n");
}
