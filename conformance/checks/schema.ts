/**
 * schema: the result against the generated validator of its method (lossless: uint64 values
 * arrive as bigint). A field the spec does not know is a warning, since a deployment may be
 * newer than the spec; under --strict it fails.
 */
import { formatIssues, validate } from "../../runtime/index.js";
import { fail, pass, warn, type Finding } from "../model.js";
import { expectsResult, isObject, show, type Check } from "./check.js";

const MAX_UNKNOWN = 50;

function removeAt(root: unknown, pointer: string): boolean {
  const parts = pointer.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  const last = parts.pop();
  let node: unknown = root;
  for (const p of parts) node = Array.isArray(node) ? node[Number(p)] : isObject(node) ? node[p] : undefined;
  if (!isObject(node) || last === undefined || !(last in node)) return false;
  delete node[last];
  return true;
}

/** Validates, peeling off unknown fields one by one; returns the unknown pointers and the first real issue. */
export function schemaFindings(validateFn: Parameters<typeof validate>[0], value: unknown, strict: boolean, root = "/result"): Finding[] {
  let issues = validate(validateFn, value);
  if (issues.length === 0) return [pass("schema", "result matches the spec")];
  const unknown: string[] = [];
  let copy: unknown;
  while (issues.length > 0 && issues[0]!.keyword === "additionalProperties" && unknown.length < MAX_UNKNOWN) {
    copy ??= structuredClone(value);
    if (!removeAt(copy, issues[0]!.pointer)) break;
    unknown.push(issues[0]!.pointer);
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
  applies: (c, methods) => expectsResult(c) && c.method in methods,
  run({ testCase, exchange, validators, strict }) {
    const body = exchange.body;
    if (!isObject(body) || !("result" in body)) {
      const error = isObject(body) && isObject(body.error) ? `got error ${show(body.error)}` : "no result";
      return [fail("schema", `expected a result, ${error}`)];
    }
    return schemaFindings(validators[testCase.method]!.result, body.result, strict);
  },
};
