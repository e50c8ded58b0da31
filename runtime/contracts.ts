/**
 * The shapes that generated code hands to the runtime: the method table and the
 * precompiled validators. Client, server and conformance runner all read these.
 */

/** One key of a method's documented item order (from the spec's `x-pagination.order`). */
export interface OrderKey {
  /** Dotted path inside an item, e.g. `tokenData.mint`. */
  readonly field: string;
  readonly direction: "asc" | "desc";
  /** How values compare: as integers, or as the bytes a base58 string decodes to. */
  readonly compare: "integer" | "base58-bytes" | "string";
}

export interface PaginationInfo {
  /** The array field of the page holding its items (the page is `result.value` when the result has a context, else the result). */
  readonly items: string;
  /** The params field taking the cursor, which is also the `value` field returning it. */
  readonly cursor: string;
  /** The params field taking the page size, if any. */
  readonly limit: string | null;
  /** The documented order of items, when the spec states one. */
  readonly order: readonly OrderKey[] | null;
  /** The largest page size the limit param accepts (its schema's `maximum`), if any. */
  readonly maxLimit: number | null;
  /** The page size used when the limit param is absent or null (its schema's `x-default`), if stated. */
  readonly defaultLimit: number | null;
}

/** One way to look an item up (from `x-lookup.by`): a param and the item field that must equal it. */
export interface LookupKey {
  readonly param: string;
  /** Dotted path inside an item. */
  readonly field: string;
}

/** A lookup method (from the operation's `x-lookup`). */
export interface LookupInfo {
  /**
   * Null: the page is the item itself (or null when unknown), keyed by the first `by` param given.
   * Else the page's array field for list params: one item per input, in input order, null when unknown.
   */
  readonly items: string | null;
  readonly by: readonly LookupKey[];
}

/** A field of an item and the field of another method's items it is computed from. */
export interface SumField {
  readonly field: string;
  readonly of: string;
}

/** Totals that must agree with another method's items (from the operation's `x-sums`). */
export interface SumsInfo {
  /** The method whose items are summed. */
  readonly method: string;
  /** The params both calls take (with the same values). */
  readonly params: readonly string[];
  /** Each item's group: `field` of this method's item equals `of` of the summed items. */
  readonly key: SumField;
  /** Each item's total: `field` equals the sum of `of` over the summed items of its group (absent groups sum to 0). */
  readonly sum: SumField;
}

export interface MethodInfo {
  readonly name: string;
  /** The documented HTTP path (`/<method>`); the real indexer routes by the body. */
  readonly path: string;
  readonly summary: string | null;
  /** Whether the method takes a `params` object at all. */
  readonly hasParams: boolean;
  readonly requiredParams: readonly string[];
  readonly optionalParams: readonly string[];
  /** Whether the result is `{ context, value }` (else a bare value). */
  readonly hasContext: boolean;
  readonly pagination: PaginationInfo | null;
  /**
   * Where the indexer slot the answer was read at stands in the result: a dotted path
   * (`context.slot`), `""` when the result is the slot itself, null when it carries none
   * (from `x-slot` on the result schema or on the schema of one of its properties).
   */
  readonly slot: string | null;
  /** The item field whose value fixes the item's whole content (`x-identity`), if any. */
  readonly identity: string | null;
  /** Param → item field every item must equal when the param is given (`x-filters`). */
  readonly filters: Readonly<Record<string, string>>;
  readonly lookup: LookupInfo | null;
  readonly sums: SumsInfo | null;
  /** Param → the most entries its list may hold, enforced by the handler, not the schema (`x-max-items`). */
  readonly maxItems: Readonly<Record<string, number>>;
  /** Extension values (`x-…`) of the operation that the table does not already read, passed through. */
  readonly extensions: Readonly<Record<string, unknown>>;
  /** The params schema's shape, for spec-derived cases; absent in tables written by hand. */
  readonly paramShape?: ParamShape | null;
  /**
   * Result fields (`x-moves-with`) whose value changes as the chain moves on though the thing asked
   * about did not: a proof's siblings and root, a queue's contents, a list or balance. Absent: none.
   */
  readonly moving?: readonly MovingField[];
  /**
   * Where a transaction's result lists the accounts it opened and closed (`x-transaction-accounts`),
   * or null/absent when the method returns no such lists.
   */
  readonly transactionAccounts?: TransactionAccountsInfo | null;
}

/** One list of a transaction's accounts: `list` dotted from the result, `hash` the account hash dotted from each entry. */
export interface TransactionAccountList {
  readonly list: string;
  readonly hash: string;
}

/** The accounts a transaction opened (created) and closed (spent), from `x-transaction-accounts`. */
export interface TransactionAccountsInfo {
  readonly opened: TransactionAccountList;
  readonly closed: TransactionAccountList;
}

/**
 * A field of a result that moves with the chain: `path` is dotted from the result, `[]` after a
 * segment standing for every element of that array (`value[].root`, `value.accounts[].rootIndex`;
 * `[].x` when the result itself is an array).
 */
export interface MovingField {
  readonly path: string;
  /**
   * `root`: changes when its tree's root advances; `slot`: changes as slots pass (queues fill and
   * drain); `state`: what the index holds changes, while an item named by its identity keeps its content.
   */
  readonly with: "slot" | "root" | "state";
  /**
   * The conformance `{type: …}` matcher name every value of the field's schema satisfies
   * (`hash`, `pubkey`, `uint64`, `array`, `boolean`, …), or null when the schema is nullable or
   * allows several types.
   */
  readonly type: string | null;
  /**
   * For a `root` field: the path (same notation) of the field of the same object stating the root
   * sequence it was read at (`x-moves-with.seq`: a proof's `rootSeq`), or null when it states none.
   */
  readonly seq: string | null;
}

/** What JSON a param takes: a base58/base64 string format, a plain string, an integer, … (`any` when the schema allows several). */
export type ParamKind = "pubkey" | "hash" | "signature" | "base58" | "base64" | "string" | "integer" | "number" | "boolean" | "object" | "array" | "any";

/** One param's (or a list param's item) schema, reduced to what derived cases need. */
export interface ParamFact {
  readonly kind: ParamKind;
  readonly nullable: boolean;
  /** Bounds of an integer (an unsigned `format` counts as `minimum: 0`), else null. */
  readonly minimum: number | null;
  readonly maximum: number | null;
}

/** The params schema: an object (closed when `additionalProperties: false`) with its properties, or a JSON array of items. */
export interface ParamShape {
  readonly type: "object" | "array";
  readonly closed: boolean;
  readonly properties: Readonly<Record<string, ParamFact>>;
  readonly items: ParamFact | null;
}

/** An ajv error object, as standalone validators report them. */
export interface AjvErrorObject {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A precompiled (ajv standalone) validation function. */
export interface StandaloneValidate {
  (data: unknown): boolean;
  errors?: AjvErrorObject[] | null;
}

export interface MethodValidators {
  readonly params: StandaloneValidate;
  readonly result: StandaloneValidate;
}

export interface EnvelopeValidators {
  readonly request: StandaloneValidate;
  readonly response: StandaloneValidate;
  readonly error: StandaloneValidate;
}

/** Where a value failed validation: a JSON pointer into the validated value, and why. */
export interface ValidationIssue {
  readonly pointer: string;
  readonly keyword: string;
  readonly message: string;
  readonly params: Record<string, unknown>;
}

function describe(e: AjvErrorObject): string {
  switch (e.keyword) {
    case "additionalProperties":
      return `unknown field \`${String(e.params.additionalProperty)}\``;
    case "required":
      return `missing field \`${String(e.params.missingProperty)}\``;
    case "format":
      return `must be a valid ${String(e.params.format)}`;
    case "uint64":
      return "must be an unsigned 64-bit integer (0..18446744073709551615)";
    case "enum":
      return `must be one of ${JSON.stringify(e.params.allowedValues)}`;
    default:
      return e.message ?? e.keyword;
  }
}

/** Runs a standalone validator and turns its errors into pointer-named issues, one cause per pointer (see `oneCause`). */
export function validate(fn: StandaloneValidate, value: unknown): ValidationIssue[] {
  if (fn(value)) return [];
  return oneCause(
    (fn.errors ?? []).map((e) => {
      const pointer =
        e.keyword === "required"
          ? `${e.instancePath}/${String(e.params.missingProperty)}`
          : e.keyword === "additionalProperties"
            ? `${e.instancePath}/${String(e.params.additionalProperty)}`
            : e.instancePath;
      return { pointer, keyword: e.keyword, message: describe(e), params: e.params };
    }),
  );
}

const under = (pointer: string, base: string) => pointer === base || pointer.startsWith(`${base}/`);

/**
 * Reduces an `anyOf`/`oneOf`'s issues to the branch that explains the value: drops ajv's summary,
 * drops errors at the value when a branch failed deeper, else names the branch whose type matched,
 * else merges the types ("must be object or null").
 */
function oneCause(issues: ValidationIssue[]): ValidationIssue[] {
  const out = [...issues];
  for (let k = 0; k < out.length; k++) {
    const summary = out[k]!;
    if (summary.keyword !== "anyOf" && summary.keyword !== "oneOf") continue;
    const at = summary.pointer;
    const branches = out.slice(0, k).filter((i) => under(i.pointer, at));
    if (branches.length === 0) continue; // nothing better to say than the summary
    const here = branches.filter((i) => i.pointer === at);
    let drop = here;
    let merged: ValidationIssue[] = [];
    if (branches.length === here.length) {
      if (here.some((i) => i.keyword !== "type")) drop = here.filter((i) => i.keyword === "type");
      else {
        const types = [...new Set(here.flatMap((i) => [i.params.type].flat().map(String)))];
        merged = [{ pointer: at, keyword: "type", message: `must be ${types.join(" or ")}`, params: { type: types } }];
      }
    }
    const kept = [...out.slice(0, k).filter((i) => !drop.includes(i)), ...merged];
    out.splice(0, k + 1, ...kept);
    k = kept.length - 1;
  }
  return out;
}

/** One line per issue: `/value/items/0/hash must be a valid hash` (the value itself is `root`, or `/`). */
export function formatIssues(issues: readonly ValidationIssue[], root = ""): string {
  return issues.map((i) => `${`${root}${i.pointer}` || "/"} ${i.message}`).join("; ");
}
