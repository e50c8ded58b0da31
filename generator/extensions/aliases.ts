/**
 * `x-aliases`: other names of the method (Photon registers `getCompressedBalance` with the handler of
 * `getCompressedAccountBalance`). Each must be a valid method name; collisions are checked once every
 * method is known.
 */
import { GenError, GenErrorCode, pointerOf, quote } from "../errors.js";
import { checkMethodName } from "../emit/names.js";
import { fail } from "../schema-view.js";
import { atOperation, type OperationContext } from "./context.js";

export function readAliases(ctx: OperationContext): string[] {
  const value = ctx.operation["x-aliases"];
  const file = ctx.doc.file;
  const path = atOperation(ctx, "x-aliases");
  if (value === undefined) return [];
  if (!Array.isArray(value)) return fail(GenErrorCode.SCHEMA, "`x-aliases` must be a list of method names", file, path);
  return value.map((alias, i) => {
    if (typeof alias !== "string") return fail(GenErrorCode.METHOD_NAME, "an `x-aliases` entry must be a method name", file, [...path, i]);
    checkMethodName({ name: alias, file, pointer: pointerOf(path), namePointer: pointerOf([...path, i]), pagination: null });
    return alias;
  });
}

interface Named {
  readonly name: string;
  readonly file: string;
  readonly pointer: string;
  readonly namePointer: string;
  readonly aliases: readonly string[];
}

/** No alias may take the name of a method or of another alias, ignoring case (the names are keys of one dispatch table). */
export function checkAliases(methods: readonly Named[]): void {
  const taken = new Map<string, string>();
  for (const m of methods) taken.set(m.name.toLowerCase(), `method ${m.name} at ${m.file}#${m.namePointer}`);
  for (const m of methods) {
    m.aliases.forEach((alias, i) => {
      const other = taken.get(alias.toLowerCase());
      if (other !== undefined) {
        throw new GenError(GenErrorCode.METHOD_NAME, `alias ${quote(alias)} of method ${m.name} collides with ${other}`, {
          file: m.file,
          pointer: `${m.pointer}/x-aliases/${i}`,
        });
      }
      taken.set(alias.toLowerCase(), `alias ${alias} of method ${m.name}`);
    });
  }
}
