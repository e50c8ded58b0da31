/**
 * Text for a terminal: every invisible character (controls, format characters such as bidi
 * overrides, line and paragraph separators, lone surrogates, noncharacters) replaced by its escape,
 * so a value stays on its line, shows what it holds and can move no cursor. The console sink's one
 * escaping function (the conformance reporters' `forConsole`, the reference's log lines).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\uFFFE\uFFFF]/gu;
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

function shown(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const cp = c.codePointAt(0) as number;
  return cp < 0x100 ? `\\x${hex(cp, 2)}` : cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\u{${hex(cp, 1)}}`;
}

/** Each invisible character replaced by its escape (a backslash is left as it is). */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, shown);
}
