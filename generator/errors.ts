/**
 * The generator's coded errors, one catalogue (as fastify's FST_ERR_*). Every error names
 * the spec file and, where there is one, the JSON pointer of the offending node.
 */

export const GenErrorCode = {
  READ: "PHOTON_GEN_ERR_READ",
  YAML: "PHOTON_GEN_ERR_YAML",
  NOT_OPENAPI: "PHOTON_GEN_ERR_NOT_OPENAPI",
  REF_UNKNOWN: "PHOTON_GEN_ERR_REF_UNKNOWN",
  REF_CYCLE: "PHOTON_GEN_ERR_REF_CYCLE",
  REF_EXTERNAL: "PHOTON_GEN_ERR_REF_EXTERNAL",
  NOT_JSONRPC: "PHOTON_GEN_ERR_NOT_JSONRPC",
  DUPLICATE_METHOD: "PHOTON_GEN_ERR_DUPLICATE_METHOD",
  COMPONENT_CONFLICT: "PHOTON_GEN_ERR_COMPONENT_CONFLICT",
  SCHEMA: "PHOTON_GEN_ERR_SCHEMA",
  NO_METHODS: "PHOTON_GEN_ERR_NO_METHODS",
  WRITE: "PHOTON_GEN_ERR_WRITE",
  STALE: "PHOTON_GEN_ERR_STALE",
} as const;

export type GenErrorCodeValue = (typeof GenErrorCode)[keyof typeof GenErrorCode];

export class GenError extends Error {
  override name = "GenError";
  readonly code: GenErrorCodeValue;
  readonly file: string | null;
  readonly pointer: string | null;

  constructor(code: GenErrorCodeValue, message: string, where: { file?: string | null; pointer?: string | null; cause?: unknown } = {}) {
    super(message, where.cause === undefined ? undefined : { cause: where.cause });
    this.code = code;
    this.file = where.file ?? null;
    this.pointer = where.pointer ?? null;
  }

  /** `spec.yaml#/paths/~1getX/post: message [CODE]` */
  override toString(): string {
    const at = this.file ? `${this.file}${this.pointer !== null ? `#${this.pointer}` : ""}: ` : "";
    return `${at}${this.message} [${this.code}]`;
  }
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
