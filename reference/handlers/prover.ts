/**
 * The Groth16 `compressedProof` of validity proofs: the placeholder sent without a prover, or a gnark
 * prover's (`{proverUrl}/prove`) answer converted as Photon does (HEAD:src/api/method/get_validity_proof/prover/{prove,helpers,gnark}.rs):
 * POST the request (prove.rs:135-152), read the hex points (helpers.rs:65-95), negate A (gnark.rs:11-31)
 * and compress each point as Solana's `alt_bn128_g1_compress` / `alt_bn128_g2_compress` (gnark.rs:33-46).
 * Every failure is a `ProverError`, answered -32000 `Internal server error` as Photon's `UnexpectedError` (src/api/error.rs:62-68).
 */
import { postJson } from "@photon-indexer-kit/runtime";
import { ProverError } from "../errors.js";
import type { ProverRequest } from "../trees/forest.js";

/** The compressed proof as the spec's `CompressedProof` writes it: byte arrays of 32, 64 and 32 items. */
export interface CompressedProof {
  a: number[];
  b: number[];
  c: number[];
}

/** The gnark prover's answer (prover/structs.rs:54-59). */
export interface GnarkProofJson {
  ar: [string, string];
  bs: [[string, string], [string, string]];
  krs: [string, string];
}

/**
 * NOT A PROOF. The placeholder `compressedProof` without a prover: the bytes 1, 2, 3, … (32, 64, 32),
 * as stateless.js 0.23.3's `placeholderValidityProof()`; any verifier refuses it.
 */
export function placeholderProof(): CompressedProof {
  const count = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  return { a: count(32), b: count(64), c: count(32) };
}

/** The BN254 base field modulus p (the coordinates of G1 and G2 points; not Poseidon's scalar field r). */
export const BASE_FIELD_MODULUS = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
const HALF = (BASE_FIELD_MODULUS - 1n) / 2n;

/** One prover call's bounds: Photon's reqwest client has none; a forwarding reference should not hang on a prover. */
export const PROVER_TIMEOUT_MS = 120_000;
/** A gnark proof is about 600 bytes of JSON. */
export const PROVER_MAX_BODY_BYTES = 64 * 1024;

/** `deserialize_hex_string_to_bytes` (helpers.rs:57-63): strip `0x`, left-pad to 64 hex digits, decode. */
function coordinate(text: string, what: string): bigint {
  const digits = (text.startsWith("0x") ? text.slice(2) : text).padStart(64, "0");
  if (digits.length !== 64 || !/^[0-9a-fA-F]*$/.test(digits)) throw new ProverError(`Failed to convert ${what}: '${text}' is not 32 bytes of hex`);
  const value = BigInt(`0x${digits}`);
  // arkworks refuses a coordinate that is not a field element (the conversion's "Failed to compress …").
  if (value >= BASE_FIELD_MODULUS) throw new ProverError(`Failed to convert ${what}: ${text} is not below the base field modulus`);
  return value;
}

function bytes32(value: bigint): number[] {
  const out = new Array<number>(32);
  let v = value;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

const negate = (y: bigint) => (y === 0n ? 0n : BASE_FIELD_MODULUS - y);

/** arkworks' `y <= -y` is false: the flag bit 0x80 of a compressed point. */
const isLarger = (y: bigint) => y > HALF;

/** `alt_bn128_g1_compress` of (x, y). */
export function compressG1(x: bigint, y: bigint): number[] {
  const out = bytes32(x);
  if (x === 0n && y === 0n) return out;
  if (isLarger(y)) out[0] = (out[0] as number) | 0x80;
  return out;
}

/** `alt_bn128_g2_compress` of (x0, x1, y0, y1) as the prover sends them (Fq2 elements x1 + x0·u, y1 + y0·u). */
export function compressG2(x0: bigint, x1: bigint, y0: bigint, y1: bigint): number[] {
  const out = [...bytes32(x0), ...bytes32(x1)];
  if (x0 === 0n && x1 === 0n && y0 === 0n && y1 === 0n) return out;
  // QuadExtField's order compares c1 (y0) first, then c0 (y1).
  const larger = y0 !== 0n ? isLarger(y0) : isLarger(y1);
  if (larger) out[0] = (out[0] as number) | 0x80;
  return out;
}

function isPair(value: unknown): value is [string, string] {
  return Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string");
}

/** The prover's JSON as serde reads `GnarkProofJson` (unknown keys ignored, arrays of exactly two). */
export function parseGnarkProof(text: string): GnarkProofJson {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ProverError(`Error deserializing prover response: not JSON. Response text: '${text.slice(0, 200)}'`, err);
  }
  const o = json as Partial<Record<"ar" | "bs" | "krs", unknown>> | null;
  if (o === null || typeof o !== "object" || !isPair(o.ar) || !isPair(o.krs) || !Array.isArray(o.bs) || o.bs.length !== 2 || !o.bs.every(isPair))
    throw new ProverError(`Error deserializing prover response: not {ar, bs, krs}. Response text: '${text.slice(0, 200)}'`);
  return { ar: o.ar, bs: o.bs as GnarkProofJson["bs"], krs: o.krs };
}

/** Photon's `proof_from_json_struct` then `compress_proof`: A negated, all three compressed. */
export function compressGnarkProof(proof: GnarkProofJson): CompressedProof {
  const ax = coordinate(proof.ar[0], "proof_a");
  const ay = coordinate(proof.ar[1], "proof_a");
  const [bx0, bx1] = proof.bs[0].map((t) => coordinate(t, "proof_b")) as [bigint, bigint];
  const [by0, by1] = proof.bs[1].map((t) => coordinate(t, "proof_b")) as [bigint, bigint];
  const cx = coordinate(proof.krs[0], "proof_c");
  const cy = coordinate(proof.krs[1], "proof_c");
  return { a: compressG1(ax, negate(ay)), b: compressG2(bx0, bx1, by0, by1), c: compressG1(cx, cy) };
}

/** Posts `request` to `{proverUrl}/prove` (the URL joined as Photon joins it, prove.rs:136) and converts the answer. */
export async function prove(proverUrl: string, request: ProverRequest): Promise<CompressedProof> {
  let status: number;
  let body: string;
  try {
    ({ status, body } = await postJson(`${proverUrl}/prove`, JSON.stringify(request), {
      timeoutMs: PROVER_TIMEOUT_MS,
      maxBodyBytes: PROVER_MAX_BODY_BYTES,
      retry: false,
    }));
  } catch (err) {
    throw new ProverError(`Error sending request to prover: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  if (status < 200 || status > 299) throw new ProverError(`Error fetching proof: HTTP ${status}: ${body.slice(0, 200)}`);
  return compressGnarkProof(parseGnarkProof(body));
}
