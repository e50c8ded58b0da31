/**
 * TypeScript's formatter over one file's text, with the settings the generated files have always
 * been formatted with (two-space indent, LF, the editor defaults ts-morph fills in). openapi-typescript
 * prints with four-space indentation; text.ts `reindentPrinted` re-indents it as this formatter does,
 * in well under a millisecond where the formatter takes a few hundred. This is its fallback (for text
 * it declines) and the oracle its test compares against. The `typescript` module is the one
 * openapi-typescript loads anyway; a syntactic language service parses once and creates no program.
 */
import ts from "typescript";

const SETTINGS: ts.FormatCodeSettings = {
  indentSize: 2,
  tabSize: 2,
  convertTabsToSpaces: true,
  newLineCharacter: "\n",
  indentStyle: ts.IndentStyle.Smart,
  insertSpaceAfterCommaDelimiter: true,
  insertSpaceAfterConstructor: false,
  insertSpaceAfterSemicolonInForStatements: true,
  insertSpaceAfterKeywordsInControlFlowStatements: true,
  insertSpaceAfterOpeningAndBeforeClosingNonemptyBraces: true,
  insertSpaceAfterOpeningAndBeforeClosingNonemptyBrackets: false,
  insertSpaceAfterOpeningAndBeforeClosingTemplateStringBraces: false,
  insertSpaceAfterOpeningAndBeforeClosingJsxExpressionBraces: false,
  insertSpaceBeforeFunctionParenthesis: false,
  insertSpaceBeforeAndAfterBinaryOperators: true,
  placeOpenBraceOnNewLineForFunctions: false,
  placeOpenBraceOnNewLineForControlBlocks: false,
};

/** `text` (the TypeScript file `name`) formatted; line breaks are LF and the text ends with one. */
export function formatTypeScript(name: string, text: string): string {
  const snapshot = ts.ScriptSnapshot.fromString(text);
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => ({}),
    getScriptFileNames: () => [name],
    getScriptVersion: () => "1",
    getScriptSnapshot: (file) => (file === name ? snapshot : undefined),
    getCurrentDirectory: () => "/",
    getDefaultLibFileName: () => "lib.d.ts",
    readFile: () => undefined,
    fileExists: (file) => file === name,
  };
  const service = ts.createLanguageService(host, undefined, ts.LanguageServiceMode.Syntactic);
  try {
    const edits = [...service.getFormattingEditsForDocument(name, SETTINGS)].map((edit, index) => ({ edit, index }));
    // Applied in order of position (ties in the order given), as ts-morph applies them.
    edits.sort((a, b) => a.edit.span.start - b.edit.span.start || a.index - b.index);
    const parts: string[] = [];
    let start = 0;
    for (const { edit } of edits) {
      parts.push(text.slice(start, edit.span.start), edit.newText);
      start = edit.span.start + edit.span.length;
    }
    parts.push(text.slice(start));
    let out = parts.join("");
    if (!out.endsWith("\n")) out += "\n";
    return out.replace(/\r?\n/g, "\n");
  } finally {
    service.dispose();
  }
}
