/** A method's name, read from every place a spec gives it (enum, operationId, path), which must agree. */
import { isObject, type JsonObject } from "@photon-indexer-kit/runtime";
import { GenErrorCode, quote } from "./errors.js";
import type { SpecDocument } from "./load.js";
import { deref, fail } from "./schema-view.js";

interface NameSource {
  readonly name: string;
  readonly at: (string | number)[];
  /** How a message names the source: "the `method` enum", "operationId", `path "/getX"`. */
  readonly label: string;
}

/**
 * The method name and the pointer it was read at: the `method` enum, else the operationId, else
 * the path's last segment. Every one of them the spec gives must name the same method (a path
 * `/` names none, as in per-method files): a typo in one would otherwise generate silently.
 */
export function methodName(
  doc: SpecDocument,
  envelope: JsonObject,
  operation: JsonObject,
  path: (string | number)[],
  route: string,
  envelopePath: (string | number)[] | null,
): { name: string; at: (string | number)[] } {
  const sources: NameSource[] = [];
  const props = envelope.properties as JsonObject;
  const method = deref(doc.doc, props.method);
  if (isObject(method) && Array.isArray(method.enum) && method.enum.length === 1 && typeof method.enum[0] === "string") {
    const inline = envelopePath !== null && isObject(props.method) && props.method.$ref === undefined;
    const at = inline ? [...envelopePath, "properties", "method", "enum", 0] : [...path, "requestBody"];
    sources.push({ name: method.enum[0], at, label: "the `method` enum" });
  }
  if (typeof operation.operationId === "string") sources.push({ name: operation.operationId, at: [...path, "operationId"], label: "operationId" });
  const segment = route.split("/").filter(Boolean).pop();
  if (segment && /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) sources.push({ name: segment, at: path.slice(0, 2), label: `path ${quote(route)}` });
  const [first] = sources;
  if (first === undefined) {
    return fail(GenErrorCode.NOT_JSONRPC, "cannot tell the JSON-RPC method name: give `method` a one-value enum or the operation an operationId", doc.file, [
      ...path,
      "requestBody",
    ]);
  }
  checkNamesAgree(doc.file, sources);
  return { name: first.name, at: first.at };
}

/** Refuses sources that name different methods, pointing at the one the others outvote (else the lesser of two). */
function checkNamesAgree(file: string, sources: readonly NameSource[]): void {
  if (sources.every((s) => s.name === sources[0]!.name)) return;
  const majority = sources.find((s) => sources.filter((o) => o.name === s.name).length > 1)?.name ?? sources[0]!.name;
  const odd = sources.find((s) => s.name !== majority)!;
  const others = sources.filter((s) => s.name === majority).map((s) => s.label);
  const say = others.length > 1 ? "say" : "says";
  const oddText = odd.label.startsWith("path ") ? odd.label : `${odd.label} ${quote(odd.name)}`;
  fail(
    GenErrorCode.METHOD_MISMATCH,
    `the method's names disagree: ${oddText}, but ${others.join(" and ")} ${say} ${quote(majority)} (a method has one name; others it answers to go in x-aliases)`,
    file,
    odd.at,
  );
}
