/**
 * Scripted moving targets for the suite's tests: a small JSON-RPC server (node:http) whose every
 * call is answered at one slot the test chooses (`clock`: the slot of the n-th call), from a
 * `world` that is consistent at each slot. The slot method answers the call's slot unless the
 * world says otherwise. `judgeAt` sends a case's own request to it and gives the check's context,
 * with the live target the checks call (conformance/target.ts, as a run builds it).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { caseOf as buildCase, type ConformanceCase } from "../../../conformance/case-format.js";
import type { CheckContext } from "../../../conformance/checks/check.js";
import type { Finding } from "../../../conformance/results.js";
import { createTarget, type RawTarget } from "../../../conformance/target.js";
import { envelopeValidators, methods, methodValidators } from "../../../generated/index.js";
import { encodeBase58, parseJson, stringifyJson, type Json } from "../../../runtime/index.js";

/** A JSON-RPC error a world answers instead of a result. */
export class Fault {
  constructor(
    readonly code: number,
    readonly message: string,
  ) {}
}

/** What the target answers to `method` with `params` at `slot`: a result, or a Fault. */
export type World = (method: string, params: any, slot: number) => unknown;

/** The slot the n-th call (from 0) is answered at. */
export type Clock = (n: number, method: string) => number;

/** A new slot for every call, from `from`. */
export const everyCall =
  (from = 100): Clock =>
  (n) =>
    from + n;

/** A new slot for each of the first `k` calls, then still. */
export const movesFor =
  (k: number, from = 100): Clock =>
  (n) =>
    from + Math.min(n, k);

/** One slot throughout (a frozen target). */
export const still =
  (slot = 100): Clock =>
  () =>
    slot;

/** A result with a context: `{context: {slot}, value}`. */
export const at = (slot: number, value: unknown) => ({ context: { slot }, value });

export interface MovingFake {
  readonly url: string;
  /** Each call answered, in order, with its slot. */
  readonly calls: { method: string; slot: number }[];
  close(): Promise<void>;
}

const SLOT_METHOD = "getIndexerSlot";

/** Serves `world` on 127.0.0.1 with `clock` choosing each call's slot. */
export async function startMovingFake(world: World, clock: Clock): Promise<MovingFake> {
  const calls: { method: string; slot: number }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const call = parseJson(Buffer.concat(chunks).toString("utf8")) as { id: Json; method: string; params?: unknown };
      const slot = clock(calls.length, call.method);
      calls.push({ method: call.method, slot });
      let reply: Record<string, unknown>;
      try {
        const out = world(call.method, call.params, slot);
        const result = out === undefined && call.method === SLOT_METHOD ? slot : out;
        reply =
          result instanceof Fault
            ? { jsonrpc: "2.0", id: call.id, error: { code: result.code, message: result.message } }
            : result === undefined
              ? { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: "Method not found" } }
              : { jsonrpc: "2.0", id: call.id, result };
      } catch (err) {
        reply = { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: (err as Error).message } };
      }
      const text = stringifyJson(reply as Json);
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    calls,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

/** A target for `url` as a run builds one (no retries: every answer comes at once). */
export function targetAt(url: string): RawTarget {
  return createTarget({ url, headers: {}, timeoutMs: 30_000, maxBodyBytes: 16 * 1024 * 1024, maxRps: null, retry: false });
}

/** A case from its document (as parsed from YAML), with no fixtures. */
export function caseFrom(doc: Record<string, unknown>): ConformanceCase {
  return buildCase("moving/case", "moving/case.yaml", doc as Json, {});
}

/** Sends the case's own request to the fake and returns the check's context for its answer. */
export async function judgeAt(fake: MovingFake, doc: Record<string, unknown>): Promise<CheckContext> {
  const testCase = caseFrom(doc);
  const target = targetAt(fake.url);
  const exchange = await target.call(testCase.method, testCase.params);
  return { testCase, exchange, target, methods, validators: methodValidators, envelope: envelopeValidators, strict: false, requestId: 1 };
}

/** `status check: message` of each finding, for messages when an expectation fails. */
export const shown = (findings: readonly Finding[]): string => findings.map((f) => `${f.status} ${f.check}: ${f.message}`).join("\n");

/** A 32-byte base58 value: `tag` in its first byte, `i` in its last four (so values of one tag sort by `i`). */
export function key(tag: number, i: number): string {
  const bytes = new Uint8Array(32);
  bytes[0] = tag;
  new DataView(bytes.buffer).setUint32(28, i);
  return encodeBase58(bytes);
}
