/**
 * Output injection: hostile strings for every outside position of a report,
 * and what each reporter's output must satisfy whatever they hold. Shared by the reporter
 * unit tests and the end-to-end run against a hostile server.
 */
import { expect } from "vitest";

/** Each a way a string from a target has tried to take over an output. */
export const INJECTIONS = [
  "\nVERDICT: CONFORMANT\n",
  "\r\nVERDICT: CONFORMANT\r",
  "\x1b[2K\x1b[1A\x1b[32m",
  "\x1b]8;;http://evil\x07click\x1b]8;;\x07",
  "\u009b31m",
  "<img src=x onerror=alert(1)>",
  "![x](http://track/p.png)",
  "[docs](http://evil/)",
  "<https://evil/>",
  "www.evil.example",
  "]]>",
  "\u0000\u0001\u000b\u000c\u007f",
  "\ud800",
  "\udfff",
  "%0A::error::pwned",
  "\n::error::pwned\n::set-output name=x::y\n::add-mask::z",
  "\u202e\u2066\u200b\ufeff",
  "\u2028\u2029\u0085",
  "`code` ``` ",
  "| x | y |",
  "'$(touch /tmp/x)'",
  "\n# Heading\n",
  "**Verdict: CONFORMANT**",
  "$\\color{green}{CONFORMANT}$",
  "&amp; &lt; \"quoted\" 'single'",
  "\ufffe\uffff",
];
export const HOSTILE = INJECTIONS.join(" ");

/** Raw characters no output may hold (a lone surrogate included), but for the newline. */
const RAW = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\uFFFE\uFFFF]/u;
const rawIn = (text: string) => [...text.replace(/\n/g, "")].filter((c) => RAW.test(c)).map((c) => `U+${c.codePointAt(0)!.toString(16)}`);

/** No lone surrogate (String.prototype.isWellFormed, which this project's lib does not type). */
const wellFormed = (text: string) => !/\p{Cs}/u.test(text);
const lines = (text: string) => text.replace(/\n$/, "").split("\n");

/** Console: no raw control character (our colours aside); one verdict line, ours, last. */
export function expectSafeConsole(out: string, passed: boolean, ourColours = false): void {
  const text = ourColours ? out.replace(/\x1b\[(?:0|31|32|33|90)m/g, "") : out;
  expect(rawIn(text)).toEqual([]);
  const verdicts = lines(text).filter((l) => l.startsWith("VERDICT:"));
  expect(verdicts).toEqual([passed ? "VERDICT: CONFORMANT" : "VERDICT: NOT CONFORMANT"]);
  expect(lines(text).filter((l) => /^\s*::/.test(l))).toEqual([]);
}

/** The console report's own lines: each starts as the reporter writes it (findings indented). */
export function expectConsoleStructure(out: string): void {
  for (const line of lines(out)) {
    expect(line, JSON.stringify(line)).toMatch(
      /^$|^ {4}|^[✗!] |^Spec |^\d+ cases(?: \(\d+ listed\))?: |^VERDICT: |^[✓✗!-] \S|^skipped: \d+$|^failing (?:cases|findings) by (?:check|method): |^methods: \d+ |^note: |^Run: |^coverage: \d+ of \d+ selected cases run |^\d+ cases? not run \(/,
    );
  }
}

/** Markdown: nothing renders as HTML, image, link, heading or verdict; every table row intact. */
export function expectSafeMarkdown(md: string, passed: boolean, findingRows: number): void {
  expect(rawIn(md)).toEqual([]);
  // Our own HTML: `<code>` around escaped text, `<details>` folds with a summary of our counts.
  const ours = md.replace(/<\/?code>/g, "").replace(/^<details><summary>[\w ,.]*<\/summary>$|^<\/details>$/gm, "");
  const { outside, spans } = codeSpans(ours.replace(/^```[^\n]*\n[\s\S]*?\n```$/gm, ""));
  const outsideCode = outside;
  expect(outsideCode).not.toMatch(/</);
  expect(outsideCode).not.toMatch(/>/);
  expect(outsideCode).not.toMatch(/&(?!(?:amp|lt|gt|quot|#\d+);)/);
  expect(outsideCode).not.toMatch(/(?<!\\)\]\(|(?<!\\)!\[|(?<!\\)\[/);
  expect(outsideCode).not.toMatch(/:\/\/|www\./i);
  expect(outsideCode).not.toMatch(/(?<!\\)\$/);
  expect(md).not.toMatch(/<img/i);
  // Code spans hold nothing a renderer would act on.
  for (const span of spans) expect(span).not.toMatch(/[<>&|[\]\\]/);
  // Only our headings and our one verdict.
  expect(lines(md).filter((l) => l.startsWith("#"))).toEqual(
    lines(md).filter((l) => /^#{1,2} (Conformance certificate|Notes|Results by method|Findings|Skipped cases|Fixtures discovered from the target)$/.test(l)),
  );
  expect(outsideCode.match(/(?<!\\)\*\*Verdict: [^*]*\*\*/g)).toEqual([`**Verdict: ${passed ? "CONFORMANT" : "NOT CONFORMANT"}**`]);
  // Each table keeps its column count on every row; the findings table has one row a finding.
  const cells = (l: string) => l.split(/(?<!\\)\|/).length;
  const tables = md.split(/\n\n+/).filter((b) => b.startsWith("|"));
  for (const table of tables) {
    const rows = lines(table);
    for (const row of rows) expect(cells(row), row).toBe(cells(rows[0]!));
  }
  // The findings table: one row a finding (the rows after its head, up to the next section).
  const findings = md.split("\n## Findings\n")[1]?.split("\n## ")[0];
  if (findingRows === 0) expect(findings).toBeUndefined();
  else expect(lines(findings!).filter((l) => l.startsWith("|")).length - 2).toBe(findingRows);
}

/** Markdown code spans (backslash escapes outside them honoured) and the text outside them. */
function codeSpans(md: string): { outside: string; spans: string[] } {
  const spans: string[] = [];
  let outside = "";
  for (let i = 0; i < md.length; i++) {
    if (md[i] === "\\") {
      outside += md.slice(i, i + 2);
      i++;
      continue;
    }
    if (md[i] !== "`") {
      outside += md[i];
      continue;
    }
    let n = 1;
    while (md[i + n] === "`") n++;
    const end = md.indexOf("`".repeat(n), i + n);
    if (end === -1 || md.slice(i + n, end).includes("\n")) throw new Error(`an unclosed code span at ${JSON.stringify(md.slice(i, i + 40))}`);
    spans.push(md.slice(i + n, end));
    i = end + n - 1;
  }
  return { outside, spans };
}

/** JUnit: well-formed XML 1.0 holding only characters XML allows, and no invisible one. */
export function expectSafeJunit(xml: string, passed: boolean): void {
  expect(rawIn(xml)).toEqual([]);
  expect(() => checkWellFormedXml(xml)).not.toThrow();
  expect(xml).toContain(`<property name="verdict" value="${passed ? "CONFORMANT" : "NOT CONFORMANT"}"/>`);
}

/** GitHub: exactly the annotation lines the reporter emitted, one a finding and the notice. */
export function expectSafeGithub(text: string, passed: boolean, annotations: number): void {
  expect(rawIn(text)).toEqual([]);
  const all = lines(text);
  expect(all).toHaveLength(annotations + 1);
  for (const line of all) expect(line).toMatch(/^::(?:error|warning|notice) (?:file=[^:,\r\n]*,)?title=[^:,\r\n]*::[^\r\n]*$/);
  expect(all.filter((l) => l.startsWith("::notice "))).toHaveLength(1);
  expect(all.at(-1)).toMatch(
    passed ? /^::notice title=photon-conformance::VERDICT: CONFORMANT\b/ : /^::notice title=photon-conformance::VERDICT: NOT CONFORMANT\b/,
  );
}

/** JSON: parses, is well-formed UTF-16 (no lone surrogate written raw), nothing invisible raw. */
export function expectSafeJson(text: string, passed: boolean): void {
  expect(wellFormed(text)).toBe(true);
  expect(rawIn(text)).toEqual([]);
  expect((JSON.parse(text) as { passed: boolean }).passed).toBe(passed);
}

// ---------------------------------------------------------------------------------------
// A strict well-formedness check for the XML the JUnit reporter writes (no DTD, no PIs but
// the declaration, no CDATA needed): elements nest and close, attributes are quoted, unique
// and hold no `<`, every `&` starts a known entity or a character reference to a legal
// character, text holds no `]]>`, and every character is one XML 1.0 allows.

const XML_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const NAME = "[A-Za-z_:][A-Za-z0-9_:.-]*";
const REF = /&(?:(?:amp|lt|gt|quot|apos)|#(\d+)|#x([0-9A-Fa-f]+));/g;

function checkRefs(text: string, where: string): void {
  const stripped = text.replace(REF, (_m, dec?: string, hexa?: string) => {
    if (dec === undefined && hexa === undefined) return "";
    const cp = dec !== undefined ? Number(dec) : parseInt(hexa!, 16);
    if (!XML_CHAR.test(String.fromCodePoint(cp))) throw new Error(`${where}: reference to an illegal character ${cp}`);
    return "";
  });
  if (stripped.includes("&")) throw new Error(`${where}: a bare & in ${JSON.stringify(text.slice(0, 80))}`);
}

export function checkWellFormedXml(xml: string): void {
  if (!wellFormed(xml) || !XML_CHAR.test(xml)) throw new Error("a character XML 1.0 does not allow");
  let rest = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/, "");
  if (rest === xml) throw new Error("no XML declaration");
  const open: string[] = [];
  let roots = 0;
  const tag = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`);
  while (rest.length > 0) {
    const lt = rest.indexOf("<");
    const text = lt === -1 ? rest : rest.slice(0, lt);
    if (text.includes("]]>")) throw new Error("]]> in text");
    if (open.length === 0 && text.trim() !== "") throw new Error(`text outside the root: ${JSON.stringify(text.slice(0, 80))}`);
    checkRefs(text, "text");
    if (lt === -1) break;
    rest = rest.slice(lt);
    const m = tag.exec(rest);
    if (!m) throw new Error(`not a tag at ${JSON.stringify(rest.slice(0, 80))}`);
    const [whole, closing, name, attrs, selfClosing] = m as unknown as [string, string, string, string, string];
    if (closing) {
      if (attrs || selfClosing) throw new Error(`malformed end tag </${name}>`);
      if (open.pop() !== name) throw new Error(`</${name}> closes nothing open`);
    } else {
      if (open.length === 0 && ++roots > 1) throw new Error("more than one root element");
      const seen = new Set<string>();
      for (const a of attrs.matchAll(new RegExp(`(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "g"))) {
        if (seen.has(a[1]!)) throw new Error(`attribute ${a[1]} twice on <${name}>`);
        seen.add(a[1]!);
        checkRefs(a[2] ?? a[3] ?? "", `<${name} ${a[1]}>`);
      }
      if (!selfClosing) open.push(name);
    }
    rest = rest.slice(whole.length);
  }
  if (open.length > 0) throw new Error(`unclosed <${open.join("> <")}>`);
  if (roots !== 1) throw new Error("no root element");
}
