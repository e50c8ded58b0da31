/** bench/trees' calls over loopback: JSON-RPC bodies, timed calls, and the check that each proof answered folds to its root. */
import { request } from "undici";
import { addressLeaf, fold } from "../../reference/index.js";
import { parseJson, stringifyJson } from "../../runtime/index.js";

/** The child process every server of bench/trees runs in. */
export const CHILD = "bench/children/trees.ts";

export const kib = (bytes: number) => (bytes < 10_240 ? `${(bytes / 1024).toFixed(1)} KiB` : `${Math.round(bytes / 1024)} KiB`);

export const bodyOf = (method: string, params: unknown) => stringifyJson({ jsonrpc: "2.0", id: 1, method, params });

export async function call(url: string, body: string): Promise<{ ms: number; text: string }> {
  const t0 = performance.now();
  const res = await request(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const text = await res.body.text();
  const ms = performance.now() - t0;
  if (res.statusCode !== 200 || !text.startsWith('{"jsonrpc":"2.0","result"')) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
  return { ms, text };
}

export function resultOf<T>(text: string): T {
  return (parseJson(text) as { result: T }).result;
}

export interface AccountProofValue {
  proof: string[];
  root: string;
  leafIndex: number;
  hash: string;
  proveByIndex?: boolean;
}

export interface NewAddressProofValue {
  root: string;
  lowerRangeAddress: string;
  higherRangeAddress: string;
  nextIndex: number;
  proof: string[];
  lowElementLeafIndex: number;
}

/** A proof must fold to its root: the work measured is the real work. */
export function checkAccountProof(p: AccountProofValue, height: number, what: string): void {
  if (p.proof.length !== height || p.proveByIndex === true || fold(p.hash, p.leafIndex, p.proof) !== p.root)
    throw new Error(`${what}: the proof of ${p.hash} does not fold to its root over ${height} levels`);
}

export function checkAddressProof(p: NewAddressProofValue, type: "AddressV1" | "AddressV2", height: number): void {
  const leaf = addressLeaf(type, p.lowerRangeAddress, p.nextIndex, p.higherRangeAddress);
  if (p.proof.length !== height || fold(leaf, p.lowElementLeafIndex, p.proof) !== p.root)
    throw new Error(`new-address proof in ${type}: the low element's proof does not fold to the root`);
}
