/** The check plugin contract: a name, the cases it applies to, and a judgement. */
import { stringifyJson, type EnvelopeValidators, type MethodInfo, type MethodValidators } from "@photon-indexer-kit/runtime";
import type { ConformanceCase } from "../case-format.js";
import { excerpt } from "../excerpt.js";
import { ABSENT } from "../matchers.js";
import type { Exchange, Finding } from "../results.js";
import type { RootLedger } from "./root-ledger.js";

export interface Target {
  /** The target URL, redacted, for messages. */
  readonly display: string;
  /**
   * False for captured traffic (`check`): there is no target to call, so a check that needs a
   * live call is not applicable (a skip saying so), never a failure. Absent: a live target.
   */
  readonly live?: false;
  /** Sends one JSON-RPC call (fresh id) and returns the exchange; `signal` aborts it. */
  call(method: string, params: unknown, signal?: AbortSignal): Promise<Exchange>;
}

export interface CheckContext {
  readonly testCase: ConformanceCase;
  readonly exchange: Exchange;
  readonly target: Target;
  readonly methods: Readonly<Record<string, MethodInfo>>;
  readonly validators: Readonly<Record<string, MethodValidators>>;
  readonly envelope: EnvelopeValidators;
  readonly strict: boolean;
  /** The id the case's request carried (undefined for raw bodies without one). */
  readonly requestId: unknown;
  /** The run's ledger of roots (one root per tree and rootSeq across its answers); absent outside a run. */
  readonly roots?: RootLedger;
}

export interface Check {
  readonly name: string;
  readonly applies: (c: ConformanceCase, methods: Readonly<Record<string, MethodInfo>>) => boolean;
  readonly run: (ctx: CheckContext) => Finding[] | Promise<Finding[]>;
}

/** True when the case expects a JSON-RPC success answer carrying a result. */
export function expectsResult(c: ConformanceCase): boolean {
  return c.expect.error === null && !c.expect.emptyBody && c.expect.batch === null && c.expect.status === 200 && c.http === null;
}

/**
 * Short, single-line rendering of a value for messages: JSON, with integers of any size as
 * digits (uint64 values arrive as bigint) and a missing value as `absent`.
 */
export function show(value: unknown, max = 160): string {
  if (value === undefined || value === ABSENT) return "absent";
  let text: string;
  try {
    text = stringifyJson(value);
  } catch {
    text = String(value);
  }
  return excerpt(text, max);
}
