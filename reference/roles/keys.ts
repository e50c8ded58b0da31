/** Role keys: derived from the dataset's seed and the role's name, so the generator and the profile agree without storing them. */
import { encodeBase58 } from "@photon-indexer-kit/runtime";
import { Random } from "../random.js";

export interface Key {
  readonly text: string;
  readonly bytes: Uint8Array;
}

export function keyFromBytes(bytes: Uint8Array): Key {
  return { text: encodeBase58(bytes), bytes };
}

/** A 32-byte value below the BN254 field modulus, as Photon's Poseidon hashes are. */
export function asFieldElement(bytes: Uint8Array): Uint8Array {
  bytes[0] = (bytes[0] as number) % 0x30;
  return bytes;
}

/**
 * A 32-byte address value with a zero first byte, as Light Protocol derives addresses
 * (program-libs/hasher/src/hash_to_field_size.rs), so it is below the address trees' highest value.
 */
export function asAddress(bytes: Uint8Array): Uint8Array {
  bytes[0] = 0;
  return bytes;
}

/** The public key of a named role in the dataset of `seed`. */
export function roleKey(seed: number, role: string): Key {
  return keyFromBytes(new Random(seed, `role:${role}`).bytes(32));
}

/** An address value (see `asAddress`) for a named role (never produced by the generator's own stream). */
export function roleAddress(seed: number, role: string): Key {
  return keyFromBytes(asAddress(new Random(seed, `role:${role}`).bytes(32)));
}

/** A 32-byte hash for a named role (never produced by the generator's own stream). */
export function roleHash(seed: number, role: string): Key {
  return keyFromBytes(asFieldElement(new Random(seed, `role:${role}`).bytes(32)));
}
