/**
 * What the client sends and receives: `traced(run)` swaps `globalThis.fetch` (which
 * stateless.js calls for every JSON-RPC request) for a recorder while `run` runs, and
 * returns each exchange with its request and its answer parsed losslessly (integers above
 * 2^53 as bigint), so a test can check the fields the client validates and then drops
 * (seq, slotCreated, merkleContext, tlv, rootSeq …) and the method names it sends.
 */
import { parseJson } from "@photon-indexer-kit/runtime";

export interface WireExchange {
  readonly url: string;
  /** The JSON-RPC method the client sent. */
  readonly method: string;
  readonly params: unknown;
  readonly id: unknown;
  readonly status: number;
  /** The answer body parsed losslessly, or undefined when it is not JSON. */
  readonly body: unknown;
}

export interface Traced<T> {
  readonly value: T;
  readonly exchanges: readonly WireExchange[];
}

/** Runs `run` with every fetch recorded. Calls must not overlap (vitest runs a file's tests one by one). */
export async function traced<T>(run: () => Promise<T>): Promise<Traced<T>> {
  const original = globalThis.fetch;
  const exchanges: WireExchange[] = [];
  globalThis.fetch = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await original(input, init);
    const request = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: unknown; params?: unknown; id?: unknown }) : {};
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = parseJson(text);
    } catch {
      body = undefined;
    }
    exchanges.push({ url: String(input), method: String(request.method), params: request.params, id: request.id, status: response.status, body });
    return response;
  };
  try {
    const value = await run();
    return { value, exchanges };
  } finally {
    globalThis.fetch = original;
  }
}

/** The `result` of an exchange's JSON-RPC answer. */
export function resultOf(exchange: WireExchange | undefined): unknown {
  return (exchange?.body as { result?: unknown } | undefined)?.result;
}

/** `result.value` of an answer with context. */
export function answerValue(exchange: WireExchange | undefined): unknown {
  return (resultOf(exchange) as { value?: unknown } | undefined)?.value;
}
