/**
 * A check's context built by hand: a case parsed from inline YAML (as case files are), an
 * exchange crafted from a status, headers and body, and the generated method table,
 * validators and envelope validators.
 */
import { parseCase, type ConformanceCase } from "../../conformance/case-format.js";
import type { CheckContext } from "../../conformance/checks/check.js";
import type { Exchange } from "../../conformance/results.js";
import { envelopeValidators, methods, methodValidators } from "../../generated/index.js";
import { parseJson } from "../../runtime/json/parse.js";

/** A case from the lines of its YAML file (`method: …`, `expect: …`). */
export function caseOf(...lines: string[]): ConformanceCase {
  return parseCase("test/case", "test/case.yaml", lines.join("\n"), {});
}

export interface Answer {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  /** The body text as sent; parsed losslessly as the runner parses it (`body`/`parseError`). */
  readonly text?: string;
  /** A transport failure instead of an answer. */
  readonly error?: string;
}

/** An exchange as the runner (conformance/target.ts) records it; `json` is serialised into `text`. */
export function exchangeOf(answer: Answer & { json?: unknown }): Exchange {
  const request = { method: "POST", url: "http://127.0.0.1:1/", headers: {}, body: "" };
  const timing = { startedAt: 0, durationMs: 1, attempts: 1 };
  if (answer.error !== undefined) return { request, status: 0, headers: {}, text: "", body: undefined, parseError: null, error: answer.error, ...timing };
  const text = answer.text ?? (answer.json === undefined ? "" : JSON.stringify(answer.json));
  let body: unknown;
  let parseError: string | null = text === "" ? "empty body" : null;
  if (text !== "") {
    try {
      body = parseJson(text);
    } catch (err) {
      parseError = (err as Error).message;
    }
  }
  const headers = answer.headers ?? { "content-type": "application/json; charset=utf-8" };
  return { request, status: answer.status ?? 200, headers, text, body, parseError, error: null, ...timing };
}

/** The context a check runs in; the target refuses calls (these checks judge one exchange). */
export function contextOf(testCase: ConformanceCase, exchange: Exchange, extra: { strict?: boolean; requestId?: unknown } = {}): CheckContext {
  return {
    testCase,
    exchange,
    target: { display: "http://127.0.0.1:1/", call: () => Promise.reject(new Error("these checks make no calls")) },
    methods,
    validators: methodValidators,
    envelope: envelopeValidators,
    strict: extra.strict ?? false,
    requestId: "requestId" in extra ? extra.requestId : 1,
  };
}
