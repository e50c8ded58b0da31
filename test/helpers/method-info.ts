import type { MethodInfo } from "../../runtime/contracts.js";

/** A hand-made method table entry for tests: a plain method with params and no facts, with `over` on top. */
export function methodInfo(name: string, over: Partial<MethodInfo> = {}): MethodInfo {
  return {
    name,
    path: `/${name}`,
    summary: null,
    hasParams: true,
    requiredParams: [],
    optionalParams: [],
    hasContext: false,
    pagination: null,
    slot: null,
    identity: null,
    filters: {},
    lookup: null,
    sums: null,
    maxItems: {},
    extensions: {},
    ...over,
  };
}
