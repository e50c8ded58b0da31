/** `x-moves-with`: the result fields that move with the tree's root, the slot or the index's state (the method table's `moving`). */
import { isObject, type Json, type MovingField, type ParamFact } from "@photon-indexer-kit/runtime";
import { GenErrorCode, quote } from "../errors.js";
import { resolvePointer } from "../load.js";
import { fail, paramFact } from "../schema-view.js";
import type { OperationContext } from "./context.js";

const MOVES_WITH = ["root", "slot", "state"] as const;

/** The conformance `{type: …}` name a value of this schema always satisfies, or null (nullable, or several types). */
function matcherType(fact: ParamFact): string | null {
  if (fact.nullable || fact.kind === "any") return null;
  if (fact.kind === "integer") return fact.minimum !== null && fact.minimum >= 0 ? "uint64" : "number";
  return fact.kind;
}
const LOCAL_REF = /^#\/(.*)$/;

/**
 * `x-moves-with` on any object schema the result reaches: `{root, slot, state: [property…], seq: property}`, the fields
 * that move with the tree's root, the slot or the index's state although the thing did not change, and the property
 * stating the root sequence; paths dotted from the result, `[]` after an array (DECISIONS rows 76, 84).
 */
export function readMovesWith({ doc, result }: OperationContext): MovingField[] {
  const out: MovingField[] = [];
  const seen = new Set<string>();
  const visit = (node: Json | undefined, at: (string | number)[], path: string, stack: ReadonlySet<string>, depth: number): void => {
    if (depth > 32) return;
    let current = node;
    let where = at;
    const refs = new Set(stack);
    for (let i = 0; i < 64 && isObject(current) && typeof current.$ref === "string"; i++) {
      const ref = current.$ref;
      if (refs.has(ref)) return; // a recursive schema: its fields were read on the way in
      refs.add(ref);
      const m = LOCAL_REF.exec(ref);
      where = m
        ? m[1]!
            .split("/")
            .filter(Boolean)
            .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
        : where;
      current = resolvePointer(doc.doc, ref);
    }
    if (!isObject(current)) return;
    for (const key of ["allOf", "anyOf", "oneOf"]) {
      const branches = current[key];
      if (Array.isArray(branches)) branches.forEach((b, i) => visit(b, [...where, key, i], path, refs, depth + 1));
    }
    if (current.items !== undefined) visit(current.items, [...where, "items"], `${path}[]`, refs, depth + 1);
    const props = isObject(current.properties) ? current.properties : {};
    const mark = current["x-moves-with"];
    if (mark !== undefined) {
      const markAt = [...where, "x-moves-with"];
      if (!isObject(mark))
        fail(GenErrorCode.SCHEMA, "`x-moves-with` must map `root`, `slot` or `state` to a list of the object's properties", doc.file, markAt);
      const full = (name: string) => (path === "" ? name : `${path}.${name}`);
      let seq: string | null = null;
      if (mark.seq !== undefined) {
        if (typeof mark.seq !== "string" || !Object.hasOwn(props, mark.seq))
          fail(GenErrorCode.SCHEMA, "`x-moves-with.seq` must name the property stating the root sequence", doc.file, [...markAt, "seq"]);
        seq = full(mark.seq as string);
      }
      for (const [what, names] of Object.entries(mark)) {
        if (what === "seq") continue;
        if (!(MOVES_WITH as readonly string[]).includes(what))
          fail(GenErrorCode.SCHEMA, `\`x-moves-with\` keys are ${MOVES_WITH.join(", ")} or seq, not ${quote(what)}`, doc.file, [...markAt, what]);
        if (!Array.isArray(names)) fail(GenErrorCode.SCHEMA, `\`x-moves-with.${what}\` must be a list of property names`, doc.file, [...markAt, what]);
        names.forEach((name, i) => {
          if (typeof name !== "string" || !Object.hasOwn(props, name))
            fail(GenErrorCode.SCHEMA, `\`x-moves-with.${what}\` names ${quote(String(name))}, which is not a property of the object`, doc.file, [
              ...markAt,
              what,
              i,
            ]);
          if (seen.has(full(name))) return;
          seen.add(full(name));
          out.push({
            path: full(name),
            with: what as MovingField["with"],
            type: matcherType(paramFact(doc.doc, props[name])),
            seq: what === "root" ? seq : null,
          });
        });
      }
    }
    for (const [name, prop] of Object.entries(props)) visit(prop, [...where, "properties", name], path === "" ? name : `${path}.${name}`, refs, depth + 1);
  };
  visit(result.source, result.path, "", new Set(), 0);
  return out;
}
