/**
 * A target that refuses every request alike (HTTP 401/403: wrong credentials; an HTML page:
 * wrong URL) has nothing to judge: a session stops after its first REFUSAL_ANSWERS answers
 * (discovery's, then the reachability probe's, asked again while they are refusals), when every
 * one of them is the same refusal, with one line saying what happened (exit 2), before any case
 * is sent. One answer of another kind (any JSON, any other status) lets the session go on and
 * be judged as usual; exchanges with no answer (timeouts, resets) decide nothing.
 */
import { ConfErrorCode, ConformanceError } from "./errors.js";
import type { Exchange } from "./results.js";
import type { RawTarget } from "./target.js";
import type { Target } from "./checks/check.js";

/** Answers, from the first, that must all be the same refusal before a session stops. */
export const REFUSAL_ANSWERS = 8;

type Refusal = "credentials" | "html";

const HTML_START = /^\s*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i;

/** The refusal an answer is, or null (an answer to judge; no answer at all is `undefined`: it decides nothing). */
export function refusalOf(exchange: Exchange): Refusal | null | undefined {
  if (exchange.error || exchange.status === 0) return undefined;
  if (exchange.status === 401 || exchange.status === 403) return "credentials";
  if (exchange.body !== undefined) return null; // JSON, whatever it says
  const type = Object.entries(exchange.headers).find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "";
  return /\btext\/html\b/i.test(type) || HTML_START.test(exchange.text) ? "html" : null;
}

export interface RefusalWatch {
  /** Fires (its reason the coded error `refused()` names) once the first answers are all one refusal. */
  readonly signal: AbortSignal;
  /** Whether every answer so far (one at least) was the same refusal, too few yet to stop. */
  readonly suspect: boolean;
  /** The error to stop with, or null. */
  refused(): ConformanceError | null;
  /** The target, its answers watched (one side's targets may share a watch: discovery's, then the run's). */
  watch(target: RawTarget): RawTarget;
}

/** Watches one side's first answers. */
export function refusalWatch(needed = REFUSAL_ANSWERS): RefusalWatch {
  const controller = new AbortController();
  let display = "the target";
  let state: "open" | "passed" | "refused" = "open";
  let kind: Refusal | null = null;
  const statuses = new Set<number>();
  let seen = 0;
  const observe = (exchange: Exchange): Exchange => {
    if (state !== "open") return exchange;
    const r = refusalOf(exchange);
    if (r === undefined) return exchange;
    if (r === null || (kind !== null && r !== kind)) {
      state = "passed";
      return exchange;
    }
    kind = r;
    statuses.add(exchange.status);
    if (++seen >= needed) {
      state = "refused";
      controller.abort(error());
    }
    return exchange;
  };
  const error = (): ConformanceError => {
    const codes = [...statuses].sort((a, b) => a - b);
    const message =
      kind === "credentials"
        ? `${display}: every request answered HTTP ${codes.join(" or ")} (the first ${seen}; nothing judged): check the credentials (the URL's api-key, --header)`
        : `${display} answers HTML, not JSON-RPC (HTTP ${codes.join(" or ")} to each of the first ${seen} requests; nothing judged): check the URL, the indexer's JSON-RPC endpoint`;
    return new ConformanceError(ConfErrorCode.REFUSED, message);
  };
  return {
    signal: controller.signal,
    get suspect() {
      return state === "open" && seen > 0;
    },
    refused: () => (state === "refused" ? (controller.signal.reason as ConformanceError) : null),
    watch(target) {
      display = target.display;
      return {
        display: target.display,
        nextId: () => target.nextId(),
        send: (http, body, signal, sent) => target.send(http, body, signal, sent).then(observe),
        call: (method, params, signal) => target.call(method, params, signal).then(observe),
      };
    },
  };
}

/**
 * While every answer of the watched side so far was one refusal, asks again (`probes`, each a call
 * without params, in turn) until an answer is not, or enough were to stop: then throws the
 * watch's error. Stops asking once `signal` fires, or after twice enough calls without an answer.
 */
export async function settleRefusal(watch: RefusalWatch, target: Target, probes: readonly string[], signal?: AbortSignal): Promise<void> {
  for (let i = 0; watch.suspect && !signal?.aborted && i < 2 * REFUSAL_ANSWERS; i++) await target.call(probes[i % probes.length]!, undefined, signal);
  const refused = watch.refused();
  if (refused) throw refused;
}
