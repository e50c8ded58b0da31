/**
 * Names: the grammar a method name must match, the names it may not take, and the
 * identifiers the emitters derive from it. A spec that breaks a rule is refused (exit 2) with
 * the file and JSON pointer of the method, before anything is emitted.
 */
import { GenError, GenErrorCode, quote } from "../errors.js";
import { identifier } from "./escape.js";

/**
 * A method name: a letter, then letters, digits and `_` (Photon's names, and those of every
 * JSON-RPC API we know of, such as Solana's). It is used as it stands for members, exports
 * (`<name>Params`) and keys, so it must be a plain identifier.
 */
export const METHOD_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
export const MAX_METHOD_NAME = 128;

/** Object.prototype's members: as a key they read as present on every object. */
export const OBJECT_MEMBERS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Names the generated code itself uses beside the methods: the client's `rpc`; `then` would make a client a thenable. */
const GENERATED_MEMBERS = new Set(["rpc", "then"]);

export function pascal(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""));
  return cleaned.charAt(0).toUpperCase() + cleaned.slice(1);
}

/** The iterator of a paginated method: `getThingsByOwner` → `iterateThingsByOwner`, `list_things` → `iterateListThings`. */
export function iteratorName(method: string): string {
  const base = /^get[A-Z]/.test(method) ? method.slice(3) : pascal(method);
  return identifier(`iterate${base}`);
}

interface NamedMethod {
  readonly name: string;
  readonly file: string;
  readonly pointer: string;
  readonly namePointer: string;
  readonly pagination: unknown;
}

/** A method name must match the grammar and not be a reserved name. */
export function checkMethodName(m: NamedMethod): void {
  const where = { file: m.file, pointer: m.namePointer };
  if (m.name.length > MAX_METHOD_NAME || !METHOD_NAME.test(m.name)) {
    throw new GenError(GenErrorCode.METHOD_NAME, `method name ${quote(m.name)} must match ${METHOD_NAME} (at most ${MAX_METHOD_NAME} characters)`, where);
  }
  if (OBJECT_MEMBERS.has(m.name) || GENERATED_MEMBERS.has(m.name)) {
    throw new GenError(GenErrorCode.METHOD_NAME, `method name ${m.name} is reserved (a member of every object, or of the generated client)`, where);
  }
}

/**
 * No two methods may meet in one generated name: the same member of the client (a method and
 * an iterator), or names equal but for case.
 */
export function checkMethodCollisions(methods: readonly NamedMethod[]): void {
  const taken = new Map<string, NamedMethod>();
  const claim = (key: string, m: NamedMethod, what: string) => {
    const other = taken.get(key);
    if (other && other !== m) {
      throw new GenError(GenErrorCode.METHOD_NAME, `method ${m.name}: ${what} collides with method ${other.name} at ${other.file}#${other.namePointer}`, {
        file: m.file,
        pointer: m.namePointer,
      });
    }
    taken.set(key, m);
  };
  for (const m of methods) {
    claim(`member:${m.name.toLowerCase()}`, m, "its name, ignoring case,");
    if (m.pagination) claim(`member:${iteratorName(m.name).toLowerCase()}`, m, `its iterator ${iteratorName(m.name)}`);
  }
}
