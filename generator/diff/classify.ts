/**
 * Judges each change for both sides of the wire. Params travel client → server: accepting
 * fewer values breaks clients (old ones may send what is now refused), accepting more
 * breaks servers (old ones refuse or mishandle what is now allowed). Results travel
 * server → client, the other way round. A change can break both. "Breaks" also covers
 * code written against the regenerated types: a handler that omits a now-required result
 * field, or client code that reads a removed one, stops compiling.
 */
import { isObject, type Json } from "@photon-indexer-kit/runtime";
import type { Change, ChangeClass, Effect, RawChange } from "./types.js";

interface Verdict {
  readonly clients: boolean;
  readonly servers: boolean;
  readonly reason: string;
}

const C = (reason: string): Verdict => ({ clients: true, servers: false, reason });
const S = (reason: string): Verdict => ({ clients: false, servers: true, reason });
const B = (reason: string): Verdict => ({ clients: true, servers: true, reason });
const OK = (reason: string): Verdict => ({ clients: false, servers: false, reason });

/** Kinds whose verdict depends only on the direction. */
const FIXED: Record<string, { request: Verdict; response: Verdict }> = {
  "nullable-added": {
    request: S("servers must now accept null here (handlers see null); old clients never send it"),
    response: C("clients now receive null here and must handle it"),
  },
  "nullable-removed": {
    request: C("old clients that send null here are now rejected"),
    response: S("servers may no longer send null here (handlers returning null stop compiling); clients are unaffected"),
  },
  "enum-values-added": {
    request: S("servers must handle the new values; old clients never send them"),
    response: C("old clients receive values they do not know (their validators and exhaustive switches fail)"),
  },
  "enum-values-removed": {
    request: C("old clients that send a removed value are now rejected"),
    response: S("servers must stop sending the removed values; clients are unaffected"),
  },
  "field-required": {
    request: C("old clients that omit it are now rejected"),
    response: S("servers must always send it (handlers that may omit it stop compiling); clients are unaffected"),
  },
  "field-optional": {
    request: S("servers must handle its absence (handler code that relies on it stops compiling); clients are unaffected"),
    response: C("clients must handle its absence (client code that relies on it stops compiling)"),
  },
};

function byEffect(direction: "request" | "response", effect: Effect): Verdict {
  if (direction === "request") {
    if (effect === "wider") return S("more values are now valid: servers must accept them; old clients never send them");
    if (effect === "narrower") return C("fewer values are now valid: old clients may send ones servers now reject");
    return B("the valid values changed both ways: old clients may send refused values, and servers must accept new ones");
  }
  if (effect === "wider") return C("more values are now valid: clients may receive ones they do not expect");
  if (effect === "narrower") return S("fewer values are now valid: servers must stop sending the others; clients are unaffected");
  return B("the valid values changed both ways: clients may receive unexpected values, and servers must send new ones");
}

function fieldAdded(c: RawChange, direction: "request" | "response"): Verdict {
  if (direction === "request") {
    return c.required
      ? B("old clients do not send this new required field and are rejected; servers must read it")
      : S("servers must accept and honour the new optional field; old clients need not send it");
  }
  const closedNote = "clients validating against the old closed object (the generated client does by default) reject the unknown field";
  if (c.required)
    return c.closed
      ? B(`every server must now send it (handlers stop compiling until they do); ${closedNote}`)
      : S("every server must now send it (handlers stop compiling until they do); clients may ignore it");
  return c.closed ? C(`servers need not send it, but ${closedNote}`) : OK("servers need not send it and clients may ignore it");
}

function fieldRemoved(c: RawChange, direction: "request" | "response"): Verdict {
  if (direction === "request") {
    return c.closed
      ? C("old clients that send it are now rejected (the object is closed); client code setting it stops compiling")
      : C("old clients that send it are silently ignored; client code setting it stops compiling");
  }
  return c.closed
    ? B("clients that read it lose it (client code reading it stops compiling); servers that still send it violate the closed object")
    : C("clients that read it lose it (client code reading it stops compiling); servers may keep sending it");
}

function methodLevel(c: RawChange): Verdict {
  switch (c.kind) {
    case "method-added":
      return S("servers must implement it (the generated Handlers interface requires every method); old clients never call it");
    case "method-removed":
      return C("clients calling it get -32601 method not found; servers may drop the handler");
    case "params-added":
      return c.required ? B("old clients send no params and are rejected; servers must read them") : S("servers must accept params; old clients send none");
    case "params-removed":
      return C("old clients still send params, which the method no longer takes");
    case "params-required":
      return C("old clients that omit params are now rejected");
    case "params-optional":
      return S("servers must handle a call without params; clients are unaffected");
    case "pagination-added":
      return B("servers must page results and return a cursor; old clients read only the first page (regenerated clients get an iterate… helper)");
    case "pagination-removed":
      return C("clients that follow the cursor lose it (the generated iterate… helper goes away); servers answer in one page");
    case "pagination-changed":
      return B("clients and servers must both follow the new paging contract (items, cursor, limit or order)");
    default:
      return B(`unclassified change ${c.kind}`);
  }
}

/** A switch between a plain integer and uint64/int64 also changes the TS type (number ↔ number | bigint). */
function bigintVerdict(c: RawChange, direction: "request" | "response"): Verdict | null {
  if (c.bigint === undefined) return null;
  const receiver = direction === "request" ? "server" : "client";
  const sender = direction === "request" ? "client" : "server";
  if (c.bigint === "added") {
    const v = `values may now arrive as bigint (number → number | bigint): ${receiver} code using them as numbers stops compiling`;
    return direction === "request" ? S(v) : C(v);
  }
  const v = `values are numbers again (number | bigint → number): ${sender} code passing a bigint stops compiling`;
  return direction === "request" ? C(v) : S(v);
}

function merge(a: Verdict, b: Verdict | null): Verdict {
  if (b === null) return a;
  const rest = a.reason.replace(/; (clients|servers) are unaffected$/, "");
  return { clients: a.clients || b.clients, servers: a.servers || b.servers, reason: `${b.reason}; ${rest}` };
}

export function verdict(c: RawChange): Verdict {
  if (c.kind === "description-changed") return OK("documentation only");
  if (c.scope === "method" || c.kind.startsWith("params-")) return methodLevel(c);
  const direction = c.scope === "params" ? "request" : "response";
  const fixed = FIXED[c.kind];
  if (fixed) return fixed[direction];
  if (c.kind === "field-added") return fieldAdded(c, direction);
  if (c.kind === "field-removed") return fieldRemoved(c, direction);
  return merge(byEffect(direction, c.effect ?? "incomparable"), bigintVerdict(c, direction));
}

function short(v: Json): string {
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

const list = (v: Json): string => (Array.isArray(v) ? v.map((x) => JSON.stringify(x)).join(", ") : short(v));

function paging(v: Json): string {
  return isObject(v)
    ? Object.entries(v)
        .map(([k, x]) => `${k} ${String(x)}`)
        .join(", ")
    : String(v);
}

function pagingDelta(a: Json, b: Json): string {
  if (!isObject(a) || !isObject(b)) return `${paging(a)} → ${paging(b)}`;
  return Object.keys(b)
    .filter((k) => a[k] !== b[k])
    .map((k) => `${k} ${String(a[k] ?? "none")} → ${String(b[k])}`)
    .join("; ");
}

export function message(c: RawChange): string {
  switch (c.kind) {
    case "method-added":
      return "method added";
    case "method-removed":
      return "method removed";
    case "params-added":
      return `params added (${c.required ? "required" : "optional"}, ${short(c.after)})`;
    case "params-removed":
      return `params removed (were ${short(c.before)})`;
    case "params-required":
      return "params made required";
    case "params-optional":
      return "params made optional";
    case "pagination-added":
      return `pagination added (${paging(c.after)})`;
    case "pagination-removed":
      return `pagination removed (was ${paging(c.before)})`;
    case "pagination-changed":
      return `pagination ${pagingDelta(c.before, c.after)}`;
    case "field-added":
      return `field added (${c.required ? "required" : "optional"}, ${short(c.after)})`;
    case "field-removed":
      return `field removed (was ${c.required ? "required" : "optional"}, ${short(c.before)})`;
    case "field-required":
      return "made required";
    case "field-optional":
      return "made optional";
    case "nullable-added":
      return "made nullable";
    case "nullable-removed":
      return "no longer nullable";
    case "type-changed":
      return `type ${short(c.before)} → ${short(c.after)}`;
    case "format-changed":
      return `format ${c.before === null ? "none" : short(c.before)} → ${c.after === null ? "none" : short(c.after)}`;
    case "enum-values-added":
      return `enum values added: ${list(c.after)}`;
    case "enum-values-removed":
      return `enum values removed: ${list(c.before)}`;
    case "additional-properties-changed":
      return `additional properties ${short(c.before)} → ${short(c.after)}`;
    case "alternatives-changed":
      return `${c.keyword} alternatives ${short(c.before)} → ${short(c.after)}`;
    case "constraint-changed":
    case "schema-changed":
      return `${c.keyword} ${c.before === null ? "none" : short(c.before)} → ${c.after === null ? "none" : short(c.after)}`;
    case "description-changed":
      return `${c.scope === "method" ? c.path : "description"} ${c.before === null ? "added" : c.after === null ? "removed" : "changed"}`;
  }
}

export function classOf(v: { clients: boolean; servers: boolean }): ChangeClass {
  return v.clients && v.servers ? "breaking-both" : v.clients ? "breaking-clients" : v.servers ? "breaking-servers" : "compatible";
}

export function classify(c: RawChange): Change {
  const v = verdict(c);
  return { ...c, breaks: { clients: v.clients, servers: v.servers }, class: classOf(v), message: message(c), reason: v.reason };
}
