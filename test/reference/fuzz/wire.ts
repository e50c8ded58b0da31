/**
 * Request bodies as a small JSON AST that can hold raw number tokens (1e400 stays 1e400 on the
 * wire) and ordered, possibly repeated or `__proto__`, keys; and the HTTP requests that carry them.
 */
import fc from "fast-check";

export interface Raw {
  readonly $raw: string;
}
export interface Obj {
  readonly $entries: readonly (readonly [string, J])[];
}
export type J = null | boolean | number | bigint | string | Raw | Obj | readonly J[];
export type Entry = readonly [string, J];

export const raw = (text: string): Raw => ({ $raw: text });
export const obj = (...entries: (Entry | undefined | null)[]): Obj => ({ $entries: entries.filter((e): e is Entry => e !== undefined && e !== null) });
export const isList = (v: J): v is readonly J[] => Array.isArray(v);

export function emit(v: J): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "number":
      return Number.isFinite(v) ? String(v) : "null";
    case "bigint":
      return v.toString();
    case "string":
      return JSON.stringify(v);
    default:
      break;
  }
  if (isList(v)) return `[${v.map(emit).join(",")}]`;
  if ("$raw" in v) return v.$raw;
  return `{${v.$entries.map(([k, x]) => `${JSON.stringify(k)}:${emit(x)}`).join(",")}}`;
}

/** One generated HTTP request. Printed compactly in fast-check counterexamples. */
export interface Req {
  readonly category: string;
  readonly body: Buffer;
  /** undefined: no content-type header. */
  readonly contentType: string | undefined;
  readonly path: string;
}

export function excerpt(text: string, max = 240): string {
  const shown = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(shown);
}

export function describeReq(r: Req): string {
  const ct = r.contentType === undefined ? "no content-type" : `content-type ${JSON.stringify(r.contentType)}`;
  return `${r.category} POST ${r.path} (${ct}, ${r.body.length} bytes): ${excerpt(r.body.toString("latin1"))}`;
}

export function req(category: string, body: string | Uint8Array, opts: { contentType?: string | undefined; path?: string } = {}): Req {
  const r: Req = {
    category,
    body: typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body),
    contentType: "contentType" in opts ? opts.contentType : "application/json",
    path: opts.path ?? "/",
  };
  Object.defineProperty(r, fc.toStringMethod, { value: () => `Req(${describeReq(r)})`, enumerable: false });
  return r;
}

export interface Reply {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}
