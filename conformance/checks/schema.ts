/**
 * schema: the result against the generated validator of its method (lossless: uint64 values
 * arrive as bigint). A field the spec does not know is a warning, since a deployment may be
 * newer than the spec; under --strict it fails.
 */
import { formatIssues, isObject, validate } from "@photon-indexer-kit/runtime";
import { fail, pass, warn, type Finding } from "../model.js";
import { methodInfo } from "../spec-facts.js";
import { expectsResult, show, type Check } from "./check.js";

const MAX_UNKNOWN = 50;

/** Deletes the last segment's key from every object the pattern reaches (`*` matches any array index). */
function removeEverywhere(node: unknown, segments: readonly string[]): number {
  const [head, ...rest] = segments;
  if (head === undefined) return 0;
  if (rest.length === 0) {
    if (!isObject(node) || !(head in node)) return 0;
    delete node[head];
    return 1;
  }
  if (head === "*") return Array.isArray(node) ? node.reduce((n: number, item) => n + removeEverywhere(item, rest), 0) : 0;
  const next = Array.isArray(node) ? node[Number(head)] : isObject(node) ? node[head] : undefined;
  return removeEverywhere(next, rest);
}

/** `/value/items/3/extra` → `/value/items/*​/extra` as segments, array indexes generalised. */
function pattern(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? "*" : p.replace(/~1/g, "/").replace(/~0/g, "~")));
}

/**
 * Validates, peeling off unknown fields: each unknown field found is removed wherever the same
 * path (any array index) holds it, then the value is validated again. Unknown fields warn
 * (fail under --strict); any other issue fails.
 */
export function schemaFindings(validateFn: Parameters<typeof validate>[0], value: unknown, strict: boolean, root = "/result"): Finding[] {
  let issues = validate(validateFn, value);
  if (issues.length === 0) return [pass("schema", "result matches the spec")];
  const unknown: string[] = [];
  let copy: unknown;
  while (issues.length > 0 && issues[0]!.keyword === "additionalProperties" && unknown.length < MAX_UNKNOWN) {
    copy ??= structuredClone(value);
    const segments = pattern(issues[0]!.pointer);
    if (removeEverywhere(copy, segments) === 0) break;
    unknown.push(`/${segments.join("/")}`);
    issues = validate(validateFn, copy);
  }
  const findings: Finding[] = unknown.map((p) =>
    strict ? fail("schema", `field ${root}${p} is not in the spec (--strict)`) : warn("schema", `field ${root}${p} is not in the spec`),
  );
  if (issues.length > 0) findings.push(fail("schema", `result does not match the spec: ${formatIssues(issues, root)}`));
  else if (unknown.length === 0) findings.push(pass("schema", "result matches the spec"));
  return findings;
}

export const schemaCheck: Check = {
  name: "schema",
  // By name or alias (methodInfo): a case sent under an alias is validated against its method's result schema.
  applies: (c, methods) => expectsResult(c) && methodInfo(c.method, methods) !== undefined,
  run({ testCase, exchange, methods, validators, strict }) {
    const body = exchange.body;
    if (!isObject(body) || !("result" in body)) {
      const error = isObject(body) && isObject(body.error) ? `got error ${show(body.error)}` : "no result";
      return [fail("schema", `expected a result, ${error}`)];
    }
    return schemaFindings(validators[methodInfo(testCase.method, methods)!.name]!.result, body.result, strict);
  },
};
