/**
 * What the reference indexer must answer to any request, written from spec/DECISIONS.md #4, #79-#82
 * (not from runtime/server.ts): the request is classified as the protocol says, and each answer checked.
 */
import { isUtf8 } from "node:buffer";
import { envelopeValidators, methodAliases, methodNames, methods, methodValidators } from "../../../generated/index.js";
import type { MethodName } from "../../../generated/index.js";
import { datasetProfile, generateDataset } from "../../../reference/dataset.js";
import { parseJson, validate } from "../../../runtime/index.js";
import { duplicatedKeysOf } from "../../../runtime/json/marks.js";
import { boundedNumbers } from "../../../runtime/server/body.js";
import { excerpt, type Reply, type Req } from "./wire.js";

/** Base seed of every property below (category n uses FUZZ_SEED + n). */
export const FUZZ_SEED = 20_260_003;
/** Requests sent in parallel per property run (one fast-check run = one group). */
export const GROUP = 16;
/** A request not answered within this is a hang. */
export const REQUEST_TIMEOUT_MS = 10_000;
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
export const U64_MAX = 18446744073709551615n;

/** Error codes the real indexer sends (spec/DECISIONS.md #9). */
const DOCUMENTED_CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32000, -32701, -32702]);
export const JSON_CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "application/json;charset=utf-8"];
/** Methods the listener registers: the method table, its aliases (`x-aliases`), `liveness` and `readiness` (DECISIONS #75). */
const CALLABLE = new Set<string>([...methodNames, ...Object.keys(methodAliases), "liveness", "readiness"]);
/** The method an alias stands for (its handler and validators answer it), or the method itself. */
const methodOf = (method: string): MethodName => ((methodAliases as Record<string, MethodName>)[method] ?? method) as MethodName;
/** Methods whose params are a JSON array (Photon's `Vec<…>` params: the proof lists), not an object. */
const LIST_PARAMS = new Set<string>(methodNames.filter((m) => methods[m].hasParams && validate(methodValidators[m].params, []).length === 0));
/**
 * Methods of the spec that Photon 0.51.2 does not register (its rpc_server.rs has neither; spec/DECISIONS.md
 * row 54): the reference answers them -32601 as Photon does, after the listener's params check (-32602).
 */
const UNREGISTERED = new Set<string>(["getAccountInterface", "getMultipleAccountInterfaces"]);

// The server's default dataset (seed 1), for real keys that reach the handlers' lookups.
export const dataset = generateDataset();
export const profile = datasetProfile(dataset);

/**
 * Program owners whose unspent lamports sum above u64::MAX (the profile's `ownerWithManyAccounts` is one):
 * Photon cannot parse that `owner_balances` row and answers getCompressedBalanceByOwner with -32000
 * "Internal server error" (get_compressed_balance_by_owner.rs, utils.rs `parse_decimal`), and so does the
 * reference. That answer is Photon's, not a handler crash.
 */
const OVERFLOWING_OWNERS: ReadonlySet<string> = (() => {
  const sums = new Map<string, bigint>();
  for (const a of dataset.accounts) if (!a.spent) sums.set(a.owner, (sums.get(a.owner) ?? 0n) + BigInt(a.lamports));
  return new Set([...sums].filter(([, sum]) => sum > U64_MAX).map(([owner]) => owner));
})();

/**
 * getValidityProofV2 without hashes and new addresses: Photon answers its response type's default without
 * reading anything, `context.slot` 0 included (get_validity_proof/v2.rs:136-138), and so does the reference.
 */
function emptyValidityRequest(method: string, params: unknown): boolean {
  const p = params as { hashes?: unknown; newAddressesWithTrees?: unknown };
  const empty = (list: unknown) => list === undefined || list === null || (Array.isArray(list) && list.length === 0);
  return method === "getValidityProofV2" && empty(p.hashes) && empty(p.newAddressesWithTrees);
}

/**
 * Signatures of the dataset's transactions: for any other, Photon's RPC node answers null, which fails to
 * deserialise, so getTransactionWithCompressionInfo(V2) answers -32000 "Internal server error" (DECISIONS #65).
 */
const KNOWN_SIGNATURES: ReadonlySet<string> = new Set(dataset.signatures.map((s) => s.signature));
const TRANSACTION_METHODS: ReadonlySet<string> = new Set(["getTransactionWithCompressionInfo", "getTransactionWithCompressionInfoV2"]);

function photonInternalError(want: Answer): boolean {
  if (want.kind !== "call") return false;
  if (TRANSACTION_METHODS.has(want.method)) {
    const signature = (want.params as { signature?: unknown } | null)?.signature;
    return typeof signature === "string" && !KNOWN_SIGNATURES.has(signature);
  }
  if (want.method !== "getCompressedBalanceByOwner") return false;
  const owner = (want.params as { owner?: unknown } | null)?.owner;
  return typeof owner === "string" && OVERFLOWING_OWNERS.has(owner);
}

// -------------------------------------------------------------------------------------------
// The oracle (spec/DECISIONS.md #4, #79, #80, #81, #82).

type Id = string | number | bigint | null;

/** The answer one request object should get (`classify` returns undefined for a notification, which gets none). */
type Answer =
  | { readonly kind: "error"; readonly id: Id; readonly code: number }
  | { readonly kind: "call"; readonly id: Id; readonly method: string; readonly params: unknown };

/** An HTTP error, or HTTP 200 with an empty body, one envelope, or an array of them. */
type Expected =
  | { readonly kind: "http error"; readonly status: 415 | 413 | 400 }
  | { readonly kind: "empty" }
  | { readonly kind: "single"; readonly answer: Answer }
  | { readonly kind: "batch"; readonly answers: readonly Answer[] };

/** DECISIONS #4: a usable id is a string, a u64 number or null (integral floats read as integers). */
function isUsableId(id: unknown): id is Id {
  if (id === null || typeof id === "string") return true;
  if (typeof id === "number") return Number.isSafeInteger(id) && id >= 0 && !Object.is(id, -0);
  if (typeof id === "bigint") return id >= 0n && id <= U64_MAX;
  return false;
}

/**
 * jsonrpsee reads an object as a `Request`, else a `Notification`, else an `InvalidRequest` (its
 * id): serde-derived structs that refuse a field written twice and skip keys they lack; in a
 * batch a notification's `params` is required (DECISIONS #43, #81).
 */
function classify(el: unknown, inBatch: boolean): Answer | undefined {
  if (el === null || typeof el !== "object" || Array.isArray(el)) return { kind: "error", id: null, code: -32600 };
  const o = el as Record<string, unknown>;
  const twice = duplicatedKeysOf(o);
  const id = twice.includes("id") ? undefined : o.id;
  const usable = id !== undefined && isUsableId(id);
  if (o.jsonrpc === "2.0" && typeof o.method === "string" && !["jsonrpc", "method", "params"].some((k) => twice.includes(k))) {
    if (usable) return { kind: "call", id: id as Id, method: o.method, params: o.params };
    if (!inBatch || Object.hasOwn(o, "params")) return undefined;
  }
  if (usable) return { kind: "error", id: id as Id, code: -32600 };
  return { kind: "error", id: null, code: inBatch ? -32600 : -32700 };
}

const isAsciiWhitespace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c;

function expected(r: Req): Expected {
  // DECISIONS #82: only the three JSON content types (any case) reach JSON-RPC; header values arrive trimmed.
  const ct = r.contentType?.trim().toLowerCase();
  if (ct === undefined || !JSON_CONTENT_TYPES.includes(ct)) return { kind: "http error", status: 415 };
  if (r.body.length > MAX_REQUEST_BYTES) return { kind: "http error", status: 413 };
  let i = 0;
  while (i < r.body.length && isAsciiWhitespace(r.body[i]!)) i++;
  const first = r.body[i];
  // DECISIONS #80: empty, or first non-whitespace byte not `{`/`[`: HTTP 400 with a -32700 body.
  if (first !== 0x7b && first !== 0x5b) return { kind: "http error", status: 400 };
  const parseError: Expected = { kind: "single", answer: { kind: "error", id: null, code: -32700 } };
  if (!isUtf8(r.body)) return parseError;
  let value: unknown;
  try {
    // As the server reads a request: a key written twice is no parse error (serde's derived
    // structs refuse it as -32602 when it is inside params), and a number literal past 40
    // characters reads as 2^64 (out of range for every id and integer field, as serde finds such
    // a literal; boundedNumbers is tested on its own in server.test.ts): parseJson refuses those.
    value = parseJson(boundedNumbers(r.body.toString("utf8")), { duplicateKeys: true });
  } catch {
    return parseError;
  }
  if (first === 0x7b) {
    const answer = classify(value, false);
    return answer === undefined ? { kind: "empty" } : { kind: "single", answer };
  }
  const list = value as unknown[];
  // jsonrpsee: an empty batch is answered by a single (non-array) -32600 object.
  if (list.length === 0) return { kind: "single", answer: { kind: "error", id: null, code: -32600 } };
  const answers = list.map((el) => classify(el, true)).filter((a): a is Answer => a !== undefined);
  return answers.length === 0 ? { kind: "empty" } : { kind: "batch", answers };
}

function showId(id: unknown): string {
  return typeof id === "bigint" ? `${id}n` : JSON.stringify(id);
}

/** Problems with one response envelope, given what its request should get. */
function checkEnvelope(env: unknown, want: Answer, where: string, slot: number): string[] {
  const problems: string[] = [];
  const issues = validate(envelopeValidators.response, env);
  if (issues.length > 0) return [`${where}: not a JSON-RPC response envelope: ${issues.map((x) => `${x.pointer || "/"} ${x.message}`).join("; ")}`];
  const e = env as { id: unknown; result?: unknown; error?: { code: unknown; message: unknown } };
  // Both sides come from parseJson, so ids above 2^53 are bigints and compare by value.
  if (e.id !== want.id) problems.push(`${where}: id ${showId(e.id)}, expected ${showId(want.id)}`);
  if (e.error !== undefined) {
    const { code, message } = e.error;
    if (!Number.isInteger(code) || !DOCUMENTED_CODES.has(code as number)) problems.push(`${where}: undocumented error code ${String(code)}`);
    // -32603 is only for probes and result-schema failures; `Internal server error` means a handler threw unexpectedly.
    if (code === -32603) problems.push(`${where}: internal error -32603 (${String(message)})`);
    if (code === -32000 && message === "Internal server error" && !photonInternalError(want))
      problems.push(`${where}: a handler threw an unexpected error (-32000 Internal server error)`);
  }
  if (want.kind === "error") {
    if (e.error === undefined) problems.push(`${where}: expected error ${want.code}, got a result`);
    else if (e.error.code !== want.code) problems.push(`${where}: error ${String(e.error.code)} (${String(e.error.message)}), expected ${want.code}`);
    return problems;
  }
  const { method, params } = want;
  if (!CALLABLE.has(method)) {
    if (e.error?.code !== -32601)
      problems.push(`${where}: unknown method ${excerpt(method, 60)} answered ${e.error === undefined ? "with a result" : e.error.code}, expected -32601`);
    return problems;
  }
  if (method === "liveness" || method === "readiness" || !methods[methodOf(method)].hasParams) {
    // Methods without params ignore whatever `params` holds: getIndexerSlot answers the slot, getIndexerHealth "ok" (the
    // reference is never behind), liveness and readiness null.
    const value = method === "getIndexerSlot" ? slot : method === "getIndexerHealth" ? "ok" : null;
    if (e.error !== undefined || e.result !== value)
      problems.push(`${where}: ${method} answered ${excerpt(JSON.stringify(e.error ?? e.result) ?? "")}, expected result ${value}`);
    return problems;
  }
  // The params container the method takes: an object, or an array for the list methods.
  const paramsObject = params !== null && typeof params === "object" && Array.isArray(params) === LIST_PARAMS.has(methodOf(method));
  if (e.error !== undefined) {
    const allowed = UNREGISTERED.has(method) ? [-32602, -32601] : paramsObject ? [-32602, -32000, -32702] : [-32602];
    if (!allowed.includes(e.error.code as number))
      problems.push(`${where}: ${method} answered error ${String(e.error.code)} (${String(e.error.message)}), expected one of ${allowed.join(", ")}`);
    return problems;
  }
  if (UNREGISTERED.has(method)) {
    problems.push(`${where}: ${method} answered a result, expected -32601 (Photon 0.51.2 does not register it)`);
    return problems;
  }
  if (!paramsObject) {
    problems.push(`${where}: ${method} with params ${excerpt(String(JSON.stringify(params)), 60)} answered a result, expected -32602`);
    return problems;
  }
  const resultIssues = validate(methodValidators[methodOf(method)].result, e.result);
  if (resultIssues.length > 0)
    problems.push(
      `${where}: ${method} result fails its schema: ${resultIssues
        .slice(0, 3)
        .map((x) => `${x.pointer || "/"} ${x.message}`)
        .join("; ")}`,
    );
  const context = (e.result as { context?: { slot?: unknown } } | null)?.context;
  if (context !== undefined && context.slot !== slot && !(context.slot === 0 && emptyValidityRequest(method, params)))
    problems.push(`${where}: context.slot ${String(context.slot)}, expected ${slot}`);
  return problems;
}

/** Problems with one HTTP answer (empty when it is right). */
export function checkReply(r: Req, reply: Reply, slot: number): string[] {
  const want = expected(r);
  const status = want.kind === "http error" ? want.status : 200;
  if (reply.status !== status) return [`HTTP ${reply.status}, expected ${status}: ${excerpt(reply.text)}`];
  if (status === 415) return reply.contentType.startsWith("text/plain") ? [] : [`415 with content-type ${reply.contentType}`];
  if (!reply.contentType.startsWith("application/json")) return [`HTTP ${reply.status} with content-type ${JSON.stringify(reply.contentType)}`];
  if (want.kind === "empty") return reply.text === "" ? [] : [`a notification was answered: ${excerpt(reply.text)}`];
  if (reply.text === "") return [`HTTP ${reply.status} with an empty body`];
  let body: unknown;
  try {
    body = parseJson(reply.text);
  } catch (err) {
    return [`the answer is not JSON (${(err as Error).message}): ${excerpt(reply.text)}`];
  }
  if (want.kind === "http error") {
    const code = want.status === 400 ? -32700 : -32701;
    return checkEnvelope(body, { kind: "error", id: null, code }, `${want.status} body`, slot);
  }
  if (want.kind === "single") {
    if (Array.isArray(body)) return [`expected a single envelope, got an array of ${body.length}`];
    return checkEnvelope(body, want.answer, "answer", slot);
  }
  if (!Array.isArray(body)) {
    // DECISIONS #83: a batch answer over the response limit becomes one -32600 object with id null
    // (jsonrpsee@v0.16.2 core/src/server/helpers.rs:284-296), as an empty batch's answer looks.
    const oversized = body !== null && typeof body === "object" && (body as { error?: { code?: unknown } }).error?.code === -32600;
    if (oversized) return checkEnvelope(body, { kind: "error", id: null, code: -32600 }, "oversized batch answer", slot);
    return [`expected an array of ${want.answers.length} envelopes, got ${excerpt(reply.text)}`];
  }
  if (body.length !== want.answers.length) {
    return [
      `batch answered ${body.length} envelopes, expected ${want.answers.length} (ids ${body
        .map((x) => showId((x as { id?: unknown }).id))
        .slice(0, 10)
        .join(", ")} vs ${want.answers
        .map((a) => showId(a.id))
        .slice(0, 10)
        .join(", ")})`,
    ];
  }
  return body.flatMap((env, k) => checkEnvelope(env, want.answers[k]!, `batch answer ${k}`, slot));
}
