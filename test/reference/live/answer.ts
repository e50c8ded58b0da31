/** One handler call of the live tests, as text to compare: the result's JSON, or the error's message. */
import { stringifyJson } from "@photon-indexer-kit/runtime";
import type { Handlers } from "../../../generated/index.js";

export type Call = readonly [keyof Handlers, unknown];

export async function answer(handlers: Handlers, [method, params]: Call): Promise<string> {
  try {
    return stringifyJson(await (handlers[method] as (p: unknown, ctx: unknown) => unknown)(params, {}));
  } catch (err) {
    return `error ${(err as Error).message}`;
  }
}
