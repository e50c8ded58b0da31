/**
 * envelope: `jsonrpc` is "2.0", `id` echoes the request's, exactly one of `result` and
 * `error`, and `error` has an integer `code` and a string `message` (the generated envelope
 * validator). Batches: every element, and each expected reply. Replies are matched to the
 * requests by id (JSON-RPC 2.0 §6 lets a server answer in any order); only when the request's
 * ids repeat (or some are not usable) is the order itself the match. A batch answered in
 * another order than the requests' passes with a note: Photon (jsonrpsee) keeps request order.
 */
import { formatIssues, isObject, validate, type EnvelopeValidators, type Json } from "@photon-indexer-kit/runtime";
import { ABSENT, deepEqual, getPath, match } from "../matchers.js";
import { fail, pass, type Finding } from "../results.js";
import { show, type Check } from "./check.js";

/** The note of a batch answered in another order than its requests (passing: JSON-RPC 2.0 §6 matches by id). */
export const REORDERED_NOTE =
  "batch replies came in another order than the requests (matched by id, as JSON-RPC 2.0 §6 allows; Photon answers in request order)";

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
      const byId = pairById(want, replies);
      if (byId === null)
        want.forEach((entry, i) => findings.push(...batchEntry(entry, replies[i], `batch reply ${i}: `, " (replies must keep request order)")));
      else {
        want.forEach((entry, i) => {
          const at = byId[i]!;
          if (at < 0) findings.push(fail("envelope", `batch request ${i}: no reply carries its id`, show(requestIdOf(entry)), "absent"));
          else findings.push(...batchEntry(entry, replies[at], `batch reply to request ${i}: `, ""));
        });
        if (byId.some((at, i) => at >= 0 && at !== i)) findings.push({ ...pass("envelope", REORDERED_NOTE), note: true });
      }
      return findings;
    }
    return one(envelope, exchange.body, requestId, "");
  },
};

const requestIdOf = (entry: Json): unknown => (isObject(entry) && "id" in entry ? entry.id : ABSENT);

/**
 * For each expected reply, the index of the reply carrying its id (-1: none does), when the
 * expected ids are all given and distinct; null when they are not, and order is the match.
 */
function pairById(want: readonly Json[], replies: readonly unknown[]): number[] | null {
  const ids = want.map(requestIdOf);
  if (ids.some((id, i) => id === ABSENT || ids.findIndex((other) => deepEqual(other, id)) !== i)) return null;
  const taken = new Set<number>();
  return ids.map((id) => {
    const at = replies.findIndex((r, j) => !taken.has(j) && isObject(r) && "id" in r && deepEqual(r.id, id));
    if (at >= 0) taken.add(at);
    return at;
  });
}

/** One expected batch reply: `{id, error: code}` or `{id, result: matcher}`. */
function batchEntry(entry: Json, reply: unknown, label: string, orderHint: string): Finding[] {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return [fail("envelope", `${label}the case's entry is not a mapping`)];
  const out: Finding[] = [];
  for (const [key, matcher] of Object.entries(entry)) {
    const path = key === "error" && typeof matcher === "number" ? "error.code" : key;
    const actual = getPath(reply, path);
    const why = match(actual, matcher);
    out.push(
      why === null ? pass("envelope", `${label}${path} as expected`) : fail("envelope", `${label}${path} ${why}${orderHint}`, show(matcher), show(actual)),
    );
  }
  return out;
}
