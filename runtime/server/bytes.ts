/**
 * A single call's success envelope written straight to bytes when its result holds `encodeOnce` values: each kept
 * item's UTF-8 is copied in, not joined and encoded again. The bytes are those `stringifyJson` gives; anything the
 * walk does not handle gives `undefined`, and the caller takes the string path.
 */
import { isEncoded } from "../json/encoded.js";
import { stringifyJson } from "../json/stringify.js";

/**
 * Where the UTF-8 bytes of an encoded value sit, once written: `,` + its JSON, `slab[start, end)`
 * (the bytes of an element after the first of an array; from `start + 1` elsewhere). Encoded
 * values are frozen: their text never changes.
 */
interface Kept {
  readonly slab: Buffer;
  readonly start: number;
  readonly end: number;
}

const kept = new WeakMap<object, Kept>();

/**
 * The JSON text a handler wrote for a value of its result (`writtenAs`, offered to handlers as
 * `CallContext.written`): a module-private symbol, so nothing parsed from a request can carry it.
 */
const WRITTEN: unique symbol = Symbol("written JSON");
type Written = { readonly [WRITTEN]?: string };

/**
 * Marks `value` as serialised by `json`, which must equal `stringifyJson(value)`; a single call's
 * answer then writes that text as is. Freezes `value`; returns it unmarked when already frozen or encoded.
 */
export function writtenAs<T extends object>(value: T, json: string): T {
  if (!Object.isExtensible(value) || isEncoded(value)) return value;
  Object.defineProperty(value, WRITTEN, { value: json });
  return Object.freeze(value);
}

/** The text `writtenAs` attached to `value`, if any. */
export function writtenText(value: object): string | undefined {
  return (value as Written)[WRITTEN];
}

// Kept bytes are cut from slabs of their own, back to back (no alignment gaps): the items of a
// list first written together (a page) sit next to each other, so that a later page holding them
// in the same order is copied as one run instead of item by item (Pieces.bytes).
const ITEM_SLAB_BYTES = 1 << 20;
const MAX_FROM_ITEM_SLAB = ITEM_SLAB_BYTES >>> 4;
let itemSlab = Buffer.allocUnsafeSlow(0);
let itemUsed = 0;

function keep(value: object): Kept {
  const text = `,${stringifyJson(value)}`;
  const n = Buffer.byteLength(text, "utf8");
  let k: Kept;
  if (n > MAX_FROM_ITEM_SLAB) k = { slab: Buffer.from(text, "utf8"), start: 0, end: n };
  else {
    if (itemUsed + n > itemSlab.length) {
      itemSlab = Buffer.allocUnsafeSlow(ITEM_SLAB_BYTES);
      itemUsed = 0;
    }
    itemSlab.write(text, itemUsed, "utf8");
    k = { slab: itemSlab, start: itemUsed, end: itemUsed + n };
    itemUsed += n;
  }
  kept.set(value, k);
  return k;
}

/** Deeper than this the walk gives up (the string path has its own depth rules). */
const MAX_DEPTH = 64;
/** How far `holdsEncoded` looks for an encoded value: a few levels, and only the first element of each array. */
const LOOK_DEPTH = 4;

/** What `write` did: wrote the value, left it out (JSON has no text for it), or gave up (the string path writes it). */
const WROTE = 0;
const LEFT_OUT = 1;
const GIVE_UP = 2;
type Wrote = typeof WROTE | typeof LEFT_OUT | typeof GIVE_UP;

/**
 * Whether an encoded value (or one `writtenAs` marked) sits near the top of `value` (results hold
 * their items a few levels down, all of one kind): then `envelopeBytes` pays; otherwise the native
 * serialiser is faster.
 */
export function holdsEncoded(value: unknown, depth = 0): boolean {
  if (typeof value !== "object" || value === null || depth > LOOK_DEPTH) return false;
  if (isEncoded(value) || (value as Written)[WRITTEN] !== undefined) return true;
  if (Array.isArray(value)) return value.length > 0 && holdsEncoded(value[0], depth + 1);
  for (const key in value) if (holdsEncoded((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

/** Bytes `slab[start, end)` of the answer: one or more kept values that sit next to each other. */
class Run {
  constructor(
    readonly slab: Buffer,
    readonly start: number,
    public end: number,
  ) {}
}

/**
 * Pieces of the answer: text runs, single ASCII characters (the commas between kept items) and
 * runs of kept bytes, in order. Kept values whose bytes follow each other in memory are one run.
 */
class Pieces {
  readonly parts: (string | number | Run)[] = [];
  text = "";
  size = 0;
  private run: Run | null = null;

  /** Kept bytes `k.slab[start, k.end)` (start: `k.start`, or `k.start + 1` without the comma). */
  kept(k: Kept, start: number): void {
    if (this.text.length > 0) this.flush();
    this.size += k.end - start;
    const run = this.run;
    if (run !== null && run.slab === k.slab && run.end === start) {
      run.end = k.end;
      return;
    }
    this.parts.push((this.run = new Run(k.slab, start, k.end)));
  }

  flush(): void {
    const text = this.text;
    if (text.length === 1 && text.charCodeAt(0) < 0x80) {
      this.parts.push(text.charCodeAt(0));
      this.size += 1;
    } else {
      this.parts.push(text);
      this.size += Buffer.byteLength(text, "utf8");
    }
    this.run = null;
    this.text = "";
  }
}

/** Writes `value` as `stringifyJson` would; LEFT_OUT for a value JSON leaves out (undefined, a function, a symbol). */
function write(out: Pieces, value: unknown, depth: number): Wrote {
  switch (typeof value) {
    case "string":
      out.text += JSON.stringify(value);
      return WROTE;
    case "number":
    case "boolean":
      out.text += JSON.stringify(value);
      return WROTE;
    case "bigint":
      out.text += value.toString();
      return WROTE;
    case "undefined":
    case "function":
    case "symbol":
      return LEFT_OUT;
  }
  if (value === null) {
    out.text += "null";
    return WROTE;
  }
  const object = value as object;
  const json = (object as Written)[WRITTEN];
  if (json !== undefined) {
    out.text += json;
    return WROTE;
  }
  if (isEncoded(object)) {
    const k = kept.get(object) ?? keep(object);
    out.kept(k, k.start + 1);
    return WROTE;
  }
  // An object or array with toJSON is written by it, as the string path does: left to that path.
  if (depth > MAX_DEPTH || typeof (object as { toJSON?: unknown }).toJSON === "function") return GIVE_UP;
  if (Array.isArray(object)) {
    out.text += "[";
    for (let i = 0; i < object.length; i++) {
      const v: unknown = object[i];
      if (i > 0) {
        // An encoded element after the first: its kept bytes with the comma before them, one piece
        // (only encoded values are in `kept`; a miss is looked at closer).
        if (typeof v === "object" && v !== null) {
          const k = kept.get(v) ?? (isEncoded(v) ? keep(v) : undefined);
          if (k !== undefined) {
            out.kept(k, k.start);
            continue;
          }
        }
        out.text += ",";
      }
      const wrote = write(out, v, depth + 1);
      if (wrote === GIVE_UP) return GIVE_UP;
      if (wrote === LEFT_OUT) out.text += "null";
    }
    out.text += "]";
    return WROTE;
  }
  const proto: unknown = Object.getPrototypeOf(object);
  // Anything but a plain object (a class instance, a Date) is left to the string path.
  if (proto !== Object.prototype && proto !== null) return GIVE_UP;
  out.text += "{";
  let first = true;
  for (const key of Object.keys(object)) {
    const v: unknown = (object as Record<string, unknown>)[key];
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    out.text += first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`;
    first = false;
    if (write(out, v, depth + 1) === GIVE_UP) return GIVE_UP;
  }
  out.text += "}";
  return WROTE;
}

// Answers are cut from shared slabs (as node's Buffer pool does for small buffers): one allocation
// per slab instead of one per answer. A slab is freed once every answer cut from it is written and dropped.
const SLAB_BYTES = 1 << 20;
const MAX_FROM_SLAB = SLAB_BYTES >>> 2;
let slab = Buffer.allocUnsafeSlow(0);
let used = 0;

function take(n: number): Buffer {
  if (n > MAX_FROM_SLAB) return Buffer.allocUnsafeSlow(n);
  if (used + n > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    used = 0;
  }
  const b = slab.subarray(used, used + n);
  // Keep the next answer 8-byte aligned.
  used = (used + n + 7) & ~7;
  return b;
}

const HEAD = '{"jsonrpc":"2.0","result":';

/** Where an envelope's result starts, in bytes. */
export const RESULT_AT = HEAD.length;

/**
 * `{"jsonrpc":"2.0","result":<value>,"id":<idText>}` as bytes, the result written as `stringifyJson`
 * writes it, in one buffer (one `res.end`, as every other answer: middleware that wraps `end` sees
 * the whole body); undefined when the value holds something the walk leaves to the string path.
 */
export function envelopeBytes(value: unknown, idText: string): Buffer | undefined {
  const out = new Pieces();
  out.text = HEAD;
  const wrote = write(out, value, 0);
  if (wrote === GIVE_UP) return undefined;
  if (wrote === LEFT_OUT) out.text += "null";
  out.text += `,"id":${idText}}`;
  out.flush();
  const parts = out.parts;
  const answer = take(out.size);
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (typeof part === "number") answer[at++] = part;
    else if (typeof part === "string") at += answer.write(part, at, "utf8");
    else at += part.slab.copy(answer, at, part.start, part.end);
  }
  if (at !== out.size) return undefined;
  return answer;
}
