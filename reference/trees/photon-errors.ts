/** The errors Photon answers from its proof methods, as `RpcError`s with Photon's codes and messages. */
import { RpcCode, RpcError } from "@photon-indexer-kit/runtime";

// PhotonApiError → jsonrpsee CallError (src/api/error.rs:26-74): every variant answers -32000 with
// the error's Display text, except database and unexpected errors ("Internal server error").

export const recordNotFound = (detail: string) => new RpcError(RpcCode.CALL_EXECUTION_FAILED, `Record Not Found: ${detail}`);
export const invalidPubkey = (field: string) => new RpcError(RpcCode.CALL_EXECUTION_FAILED, `Invalid Public Key: field '${field}'`);
export const unexpected = () => new RpcError(RpcCode.CALL_EXECUTION_FAILED, "Internal server error");
/** Rust's `{:?}` of a `Vec<String>` of base58 texts. */
export const debugList = (values: readonly string[]) => `[${values.map((v) => `"${v}"`).join(", ")}]`;
