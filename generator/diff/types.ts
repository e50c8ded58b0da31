/**
 * The shapes of a spec diff: what `compare` finds (a RawChange, facts only) and what the
 * report carries once each change is classified (a Change).
 */
import type { Json } from "@photon-indexer-kit/runtime";

/** Where a change sits: the method itself, its params (request) or its result (response). */
export type Scope = "method" | "params" | "result";

export type ChangeKind =
  | "method-added"
  | "method-removed"
  | "params-added"
  | "params-removed"
  | "params-required"
  | "params-optional"
  | "pagination-added"
  | "pagination-removed"
  | "pagination-changed"
  | "field-added"
  | "field-removed"
  | "field-required"
  | "field-optional"
  | "nullable-added"
  | "nullable-removed"
  | "type-changed"
  | "format-changed"
  | "enum-values-added"
  | "enum-values-removed"
  | "additional-properties-changed"
  | "constraint-changed"
  | "alternatives-changed"
  | "schema-changed"
  | "description-changed";

/** How the set of valid values moved: more values allowed, fewer, or neither a superset nor a subset. */
export type Effect = "wider" | "narrower" | "incomparable";

export interface RawChange {
  readonly method: string;
  readonly scope: Scope;
  /** Readable location: `params.limit`, `result.value.items[].hash`, `result<anyOf 1>`. */
  readonly path: string;
  readonly kind: ChangeKind;
  readonly before: Json;
  readonly after: Json;
  /** The innermost shared component the change was found in, when it was found through a `$ref`. */
  readonly via: string | null;
  /** Set for kinds whose direction is not implied by the kind itself. */
  readonly effect?: Effect;
  /** field-added / params-added: whether the new field is required. */
  readonly required?: boolean;
  /** field-added: the old object was closed; field-removed: the new object is closed. */
  readonly closed?: boolean;
  /** format-changed between a plain integer and uint64/int64, whose values may arrive as bigint (TS `number | bigint`). */
  readonly bigint?: "added" | "removed";
  /** constraint-changed / schema-changed: the keyword. */
  readonly keyword?: string;
}

export type ChangeClass = "breaking-clients" | "breaking-servers" | "breaking-both" | "compatible";

export interface Change extends RawChange {
  readonly breaks: { readonly clients: boolean; readonly servers: boolean };
  readonly class: ChangeClass;
  /** What changed, in one line. */
  readonly message: string;
  /** Why it is (or is not) breaking, in one line. */
  readonly reason: string;
}

export interface SpecIdentity {
  readonly title: string;
  readonly version: string;
  readonly source: string;
  readonly sha256: string;
  readonly methods: number;
}

export interface DiffReport {
  readonly old: SpecIdentity;
  readonly new: SpecIdentity;
  readonly includeDocs: boolean;
  readonly summary: {
    readonly methodsAdded: readonly string[];
    readonly methodsRemoved: readonly string[];
    readonly methodsChanged: readonly string[];
    readonly changes: number;
    readonly breakingClients: number;
    readonly breakingServers: number;
    readonly compatible: number;
  };
  readonly changes: readonly Change[];
}

export type FailOn = "breaking" | "clients" | "servers" | "any";
export type DiffFormat = "text" | "markdown" | "json";
