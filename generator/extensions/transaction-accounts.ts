/**
 * `x-transaction-accounts`: `{opened: {list, hash}, closed: {list, hash}}`, where a transaction's
 * result lists the accounts it opened and closed (`list`, an array property dotted from the result)
 * and where each entry names the account's hash (`hash`, dotted from the entry). Both paths are
 * checked against the result schema.
 */
import { isObject, type Json, type JsonObject, type TransactionAccountsInfo } from "@photon-indexer-kit/runtime";
import { GenErrorCode, quote } from "../errors.js";
import { deref, fail, objectView } from "../schema-view.js";
import { atOperation, type OperationContext } from "./context.js";

/** The schema a dotted path (each segment a property) reaches from `node`, or undefined when a segment is no property. */
function schemaAtPath(doc: JsonObject, node: Json | undefined, dotted: string): Json | undefined {
  let current = node;
  for (const segment of dotted.split(".")) {
    const view = objectView(doc, current);
    if (!view || !isObject(view.properties) || !Object.hasOwn(view.properties, segment)) return undefined;
    current = view.properties[segment];
  }
  return current;
}

export function readTransactionAccounts(ctx: OperationContext): TransactionAccountsInfo | null {
  const { doc, file } = ctx.doc;
  const value = ctx.operation["x-transaction-accounts"];
  const path = atOperation(ctx, "x-transaction-accounts");
  if (value === undefined) return null;
  if (!isObject(value)) return fail(GenErrorCode.SCHEMA, "`x-transaction-accounts` must map `opened` and `closed` to `{list, hash}`", file, path);
  for (const key of Object.keys(value)) {
    if (key !== "opened" && key !== "closed")
      fail(GenErrorCode.SCHEMA, `\`x-transaction-accounts\` keys are opened and closed, not ${quote(key)}`, file, [...path, key]);
  }
  const side = (key: "opened" | "closed") => {
    const v = value[key];
    const at = [...path, key];
    if (!isObject(v) || typeof v.list !== "string" || v.list === "" || typeof v.hash !== "string" || v.hash === "")
      return fail(GenErrorCode.SCHEMA, `\`x-transaction-accounts.${key}\` needs a \`list\` path and a \`hash\` path`, file, at);
    const list = deref(doc, schemaAtPath(doc, ctx.result.source, v.list));
    if (!isObject(list) || list.type !== "array" || list.items === undefined)
      return fail(GenErrorCode.SCHEMA, `\`x-transaction-accounts.${key}.list\` names ${quote(v.list)}, which is not an array of the result`, file, [
        ...at,
        "list",
      ]);
    if (schemaAtPath(doc, list.items, v.hash) === undefined)
      return fail(GenErrorCode.SCHEMA, `\`x-transaction-accounts.${key}.hash\` names ${quote(v.hash)}, which is not a field of the list's entries`, file, [
        ...at,
        "hash",
      ]);
    return { list: v.list, hash: v.hash };
  };
  return { opened: side("opened"), closed: side("closed") };
}
