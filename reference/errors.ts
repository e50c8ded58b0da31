/**
 * The reference indexer's coded errors, one catalogue (as fastify's `lib/errors.js`), on the
 * toolkit's `PhotonError` base (runtime/errors.ts). The JSON-RPC codes it sends beyond Photon's
 * own (`RpcCode`) are catalogued here too, as numbers: they are wire values, not thrown errors.
 */
import { PhotonError, type CodeOf } from "@photon-indexer-kit/runtime";

export const RefErrorCode = {
  /** A dataset file that does not follow the format (`DatasetFormatError`: path and line). */
  DATASET: "PHOTON_REF_ERR_DATASET",
  /** Dataset records that contradict one another: a hash twice, an address held twice, a token record for no account. */
  DATASET_INCONSISTENT: "PHOTON_REF_ERR_DATASET_INCONSISTENT",
  /** Options the dataset generator cannot take (seed, account count). */
  OPTIONS: "PHOTON_REF_ERR_OPTIONS",
  /** A dataset `datasetProfile` cannot describe (not `generateDataset`'s output). */
  PROFILE: "PHOTON_REF_ERR_PROFILE",
  /** The prover (`--prover-url`) could not be reached, refused the request, or answered something that is not a proof. */
  PROVER: "PHOTON_REF_ERR_PROVER",
  /** A broken invariant of the reference indexer itself (`internalError(RefErrorCode.INTERNAL, …)`). */
  INTERNAL: "PHOTON_REF_ERR_INTERNAL",
} as const;

export type RefErrorCodeValue = CodeOf<typeof RefErrorCode>;

/** JSON-RPC error codes the reference indexer sends that Photon does not (runtime's `RpcCode` holds Photon's). */
export const RefRpcCode = {
  /** With HTTP 429 under `--rate-limit`, as gateways in front of Photon answer (Photon has no limit of its own). */
  RATE_LIMITED: -32429,
} as const;

/** An error of the reference indexer (`code` from `RefErrorCode`). */
export class ReferenceIndexerError extends PhotonError<RefErrorCodeValue> {
  override name = "ReferenceIndexerError";
}

/** A malformed dataset file; `line` is 1-based. */
export class DatasetFormatError extends ReferenceIndexerError {
  override name = "DatasetFormatError";
  constructor(
    readonly path: string,
    readonly line: number,
    detail: string,
  ) {
    super(RefErrorCode.DATASET, `${path}:${line}: ${detail}`);
  }
}

/** A failed call to the prover: the listener answers -32000 `Internal server error`, as Photon does. */
export class ProverError extends ReferenceIndexerError {
  override name = "ProverError";
  constructor(message: string, cause?: unknown) {
    super(RefErrorCode.PROVER, message, cause === undefined ? undefined : { cause });
  }
}
