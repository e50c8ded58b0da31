/**
 * The JSON-RPC 2.0 envelope schemas. These are the protocol (jsonrpc.org/specification),
 * not the spec's content: every method shares them. The id rule is what the real server
 * accepts (string, u64 or null: spec/DECISIONS.md #4), whatever enum the spec documents.
 */
import type { JsonObject } from "@photon-indexer-kit/runtime";

const id: JsonObject = { anyOf: [{ type: "string" }, { uint64: true }, { type: "null" }] };

export const errorObjectSchema: JsonObject = {
  type: "object",
  required: ["code", "message"],
  properties: { code: { type: "integer" }, message: { type: "string" }, data: {} },
};

export const requestEnvelopeSchema: JsonObject = {
  type: "object",
  required: ["jsonrpc", "method"],
  properties: {
    jsonrpc: { const: "2.0" },
    id,
    method: { type: "string" },
    params: { type: ["object", "array", "null"] },
  },
};

/** `result` xor `error`: `oneOf` fails when both or neither are present. */
export const responseEnvelopeSchema: JsonObject = {
  type: "object",
  required: ["jsonrpc", "id"],
  properties: {
    jsonrpc: { const: "2.0" },
    id,
    result: {},
    error: { $ref: "envelope-error.json" },
  },
  oneOf: [
    { required: ["result"], properties: { result: {} } },
    { required: ["error"], properties: { error: {} } },
  ],
};
