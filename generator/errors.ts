/**
 * The generator's coded errors, one catalogue (as fastify's FST_ERR_*), on the toolkit's
 * `PhotonError` base (runtime/errors.ts). Every error names the spec file and, where there is
 * one, the JSON pointer of the offending node.
 */
import { PhotonError, type CodeOf } from "@photon-indexer-kit/runtime";

export const GenErrorCode = {
  READ: "PHOTON_GEN_ERR_READ",
  YAML: "PHOTON_GEN_ERR_YAML",
  NOT_OPENAPI: "PHOTON_GEN_ERR_NOT_OPENAPI",
  REF_UNKNOWN: "PHOTON_GEN_ERR_REF_UNKNOWN",
  REF_CYCLE: "PHOTON_GEN_ERR_REF_CYCLE",
  REF_EXTERNAL: "PHOTON_GEN_ERR_REF_EXTERNAL",
  NOT_JSONRPC: "PHOTON_GEN_ERR_NOT_JSONRPC",
  DUPLICATE_METHOD: "PHOTON_GEN_ERR_DUPLICATE_METHOD",
  /** A method's path, operationId and envelope `method` enum name different methods. */
  METHOD_MISMATCH: "PHOTON_GEN_ERR_METHOD_MISMATCH",
  /** A method name outside the grammar, reserved, or meeting another in a generated name. */
  METHOD_NAME: "PHOTON_GEN_ERR_METHOD_NAME",
  /** A component, property or enum name the generated code cannot hold (reserved, duplicate). */
  NAME: "PHOTON_GEN_ERR_NAME",
  /** The spec is over a size or count limit. */
  LIMIT: "PHOTON_GEN_ERR_LIMIT",
  COMPONENT_CONFLICT: "PHOTON_GEN_ERR_COMPONENT_CONFLICT",
  SCHEMA: "PHOTON_GEN_ERR_SCHEMA",
  NO_METHODS: "PHOTON_GEN_ERR_NO_METHODS",
  WRITE: "PHOTON_GEN_ERR_WRITE",
  STALE: "PHOTON_GEN_ERR_STALE",
  /** A template writes a value without an escaping helper (templates/ is broken). */
  TEMPLATE: "PHOTON_GEN_ERR_TEMPLATE",
  /** The installed package is incomplete (its package root, with templates/, cannot be found). */
  INSTALL: "PHOTON_GEN_ERR_INSTALL",
  /** A broken invariant of the generator itself (`internalError(GenErrorCode.INTERNAL, …)`). */
  INTERNAL: "PHOTON_GEN_ERR_INTERNAL",
} as const;

export type GenErrorCodeValue = CodeOf<typeof GenErrorCode>;

export class GenError extends PhotonError<GenErrorCodeValue> {
  override name = "GenError";
  readonly file: string | null;
  readonly pointer: string | null;

  constructor(code: GenErrorCodeValue, message: string, where: { file?: string | null; pointer?: string | null; cause?: unknown } = {}) {
    super(code, message, where);
    this.file = where.file ?? null;
    this.pointer = where.pointer ?? null;
  }

  /**
   * `spec.yaml#/paths/~1getX/post: message [CODE]`. The pointer is shown as a URI fragment, with
   * `%`, controls, line breaks, bidi overrides and lone surrogates percent-encoded, so a name
   * from the spec cannot break the line or disguise it.
   */
  override toString(): string {
    const at = this.file ? `${this.file}${this.pointer !== null ? `#${fragment(this.pointer)}` : ""}: ` : "";
    return `${at}${this.message} [${this.code}]`;
  }
}

const UNSAFE_IN_FRAGMENT =
  /[%\0-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function fragment(pointer: string): string {
  return pointer.replace(UNSAFE_IN_FRAGMENT, (c) => (c.length === 1 && c >= "\ud800" && c <= "\udfff" ? "%EF%BF%BD" : encodeURIComponent(c)));
}

/** Spec text quoted in a message: a JSON string, cut at `max` characters, bidi controls escaped too. */
export function quote(text: string, max = 60): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut).replace(
    /[\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\x7f-\x9f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function escapePointer(segment: string | number): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

export function pointerOf(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${escapePointer(s)}`).join("");
}

export function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
