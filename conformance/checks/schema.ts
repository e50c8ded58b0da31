/**
 * schema: the result against the generated validator of its method (lossless: uint64 values
 * arrive as bigint). A field the spec does not know is a warning, since a deployment may be
 * newer than the spec; under --strict it fails.
 */
import { formatIssues, isObject, type validate } from "@photon-indexer-kit/runtime";
import { fail, pass, warn, type Finding } from "../results.js";
import { methodInfo } from "../spec-facts.js";
import { expectsResult, show, type Check } from "./check.js";
import { declared } from "./declared.js";

/**
 * Validates, peeling off unknown fields (declared.ts): unknown fields warn (fail under
 * --strict); any other issue fails.
 */
export function schemaFindings(validateFn: Parameters<typeof validate>[0], value: unknown, strict: boolean, root = "/result"): Finding[] {
  const { unknown, issues } = declared(validateFn, value);
  if (unknown.length === 0 && issues.length === 0) return [pass("schema", "result matches the spec")];
  const findings: Finding[] = unknown.map((p) =>
    strict ? fail("schema", `field ${root}${p} is not in the spec (--strict)`) : warn("schema", `field ${root}${p} is not in the spec`),
  );
  if (issues.length > 0) findings.push(fail("schema", `result does not match the spec: ${formatIssues(issues, root)}`));
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
