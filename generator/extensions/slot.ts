/**
 * `x-slot`: where the slot stands in a result, marked on the result schema (a path inside it, `""`
 * for the result itself) or on the schema of one of its properties (`context` + `slot`).
 */
import { isObject, type Json } from "@photon-indexer-kit/runtime";
import { GenErrorCode } from "../errors.js";
import { deref, fail, objectView } from "../schema-view.js";
import type { OperationContext } from "./context.js";

export function readSlot({ doc, result }: OperationContext): string | null {
  const own = (node: Json | undefined): string | null => {
    let current = deref(doc.doc, node);
    for (let i = 0; i < 16 && isObject(current); i++) {
      const mark = current["x-slot"];
      if (mark !== undefined) {
        if (typeof mark !== "string") return fail(GenErrorCode.SCHEMA, "`x-slot` must be a dotted path (`''` for the value itself)", doc.file, result.path);
        return mark;
      }
      if (Array.isArray(current.allOf) && current.allOf.length === 1) current = deref(doc.doc, current.allOf[0]);
      else return null;
    }
    return null;
  };
  const self = own(result.source);
  if (self !== null) return self;
  const view = objectView(doc.doc, result.source);
  for (const [name, prop] of Object.entries(view && isObject(view.properties) ? view.properties : {})) {
    const inner = own(prop);
    if (inner !== null) return inner === "" ? name : `${name}.${inner}`;
  }
  return null;
}
