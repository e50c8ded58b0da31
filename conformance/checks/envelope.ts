/**
 * envelope: `jsonrpc` is "2.0", `id` echoes the request's, exactly one of `result` and
 * `error`, and `error` has an integer `code` and a string `message` (the generated envelope
 * validator). Batches: every element, and the reply order.
 */
import { formatIssues, validate, type EnvelopeValidators } from "../../runtime/index.js";
import type { Json } from "../case-format.js";
import { deepEqual, getPath, match } from "../matchers.js";
import { fail, pass, type Finding } from "../model.js";
import { show, type Check } from "./check.js";

function one(envelope: EnvelopeValidators, body: unknown, id: unknown, label: string): Finding[] {
  const issues = validate(envelope.response, body);
  if (issues.length > 0) return [fail("envelope", `${label}not a JSON-RPC 2.0 response: ${formatIssues(issues)}`, undefined, show(body))];
  const got = (body as { id: unknown }).id;
  if (id !== undefined && !deepEqual(got, id)) return [fail("envelope", `${label}id does not echo the request's`, show(id), show(got))];
  return [pass("envelope", `${label}valid envelope`)];
}

export const envelopeCheck: Check = {
  name: "envelope",
  applies: (c) => !c.expect.emptyBody && c.expect.envelope,
  run({ testCase, exchange, envelope, requestId }) {
    if (exchange.body === undefined) return [];
    if (testCase.expect.batch !== null) {
      if (!Array.isArray(exchange.body)) return [fail("envelope", "a batch must be answered with an array", "array", show(exchange.body))];
      const replies = exchange.body;
      const findings = replies.flatMap((item, i) => one(envelope, item, undefined, `batch reply ${i}: `));
      const want = testCase.expect.batch;
      if (replies.length !== want.length) return [...findings, fail("envelope", "wrong number of batch replies", String(want.length), String(replies.length))];
      want.forEach((entry, i) => findings.push(...batchEntry(entry, replies[i], i)));
      return findings;
    }
    return one(envelope, exchange.body, requestId, "");
  },
};

/** One expected batch reply, in request order: `{id, error: code}` or `{id, result: matcher}`. */
function batchEntry(entry: Json, reply: unknown, i: number): Finding[] {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return [fail("envelope", `batch entry ${i} of the case is not a mapping`)];
  const out: Finding[] = [];
  for (const [key, matcher] of Object.entries(entry)) {
    const path = key === "error" && typeof matcher === "number" ? "error.code" : key;
    const why = match(getPath(reply, path), matcher);
    out.push(why === null ? pass("envelope", `batch reply ${i}: ${path} as expected`) : fail("envelope", `batch reply ${i}: ${path} ${why} (replies must keep request order)`, show(matcher), show(getPath(reply, path))));
  }
  return out;
}
