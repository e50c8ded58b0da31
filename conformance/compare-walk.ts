/**
 * Where two answers differ, each difference classified in one linear walk of both: `added` (a key only
 * the side under test has), `rootMoved` (a root-moving field at different root sequences), `slot` and
 * `state` (judged by the replies' slots), `fixed` (anything else, including a type change or an
 * identity difference in a `state` field).
 */
import { isObject } from "@photon-indexer-kit/runtime";
import { movingIn, movingTrie, NO_MOVING, type MovingNode } from "./moving.js";
import type { MethodTable } from "./spec-facts.js";

export type DiffKind = "fixed" | "added" | "rootMoved" | "slot" | "state";

export interface Difference {
  /** Dotted, into the body (`0.result.value.3.root`; `(root)` for the body itself). */
  readonly path: string;
  /** The reply it lies in (the batch element), or -1 for the body as a whole. */
  readonly reply: number;
  readonly kind: DiffKind;
  /** The values there, under test and trusted (undefined where a side lacks the path). */
  readonly x: unknown;
  readonly y: unknown;
}

/** What one reply's walk needs: its method, the paths it ignores and the lookup key asked. */
export interface ReplyPlan {
  readonly method: string | null;
  /** Paths from the reply (`id`, `result.context.slot`, `result`), ignored with all they hold. */
  readonly ignored: readonly string[];
  /** The item field a lookup fixes (`hash` of a lookup by hash), or null. */
  readonly lookupField: string | null;
}

interface IgnoreNode {
  readonly children: Map<string, IgnoreNode>;
  end: boolean;
}

function ignoreTrie(paths: readonly string[]): IgnoreNode {
  const root: IgnoreNode = { children: new Map(), end: false };
  for (const path of paths) {
    let node = root;
    for (const s of path.split(".")) {
      let next = node.children.get(s);
      if (next === undefined) node.children.set(s, (next = { children: new Map(), end: false }));
      node = next;
    }
    node.end = true;
  }
  return root;
}

/** The mark a walk is under: the innermost moving field, whether its root sequence differs, and whether it starts at this node. */
interface Mark {
  readonly with: "root" | "slot" | "state";
  readonly rootMoved: boolean;
  readonly here: boolean;
}

const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "bigint" ? "number" : typeof v);

/** Whether two JSON values differ (numbers equal across number and bigint; objects by key, not key order). */
export function differs(a: unknown, b: unknown): boolean {
  if (a === b) return false;
  const ta = typeof a;
  const tb = typeof b;
  if ((ta === "number" || ta === "bigint") && (tb === "number" || tb === "bigint")) return ta === tb ? a !== b : BigInt(a as number) !== BigInt(b as number);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return true;
    for (let i = 0; i < a.length; i++) if (differs(a[i], b[i])) return true;
    return false;
  }
  if (isObject(a) && isObject(b) && !Array.isArray(b)) {
    let n = 0;
    for (const k in a) {
      if (!Object.hasOwn(a, k)) continue;
      n++;
      if (!Object.hasOwn(b, k) || differs(a[k], b[k])) return true;
    }
    let m = 0;
    for (const k in b) if (Object.hasOwn(b, k)) m++;
    return n !== m;
  }
  return true;
}

function at(value: unknown, steps: readonly string[]): unknown {
  let node = value;
  for (const s of steps) {
    if (Array.isArray(node)) node = node[Number(s)];
    else if (isObject(node)) node = Object.hasOwn(node, s) ? node[s] : undefined;
    else return undefined;
  }
  return node;
}

/** One reply's walk. */
class ReplyWalk {
  private readonly segments: string[] = [];
  private anySeqMoved: boolean | null = null;

  constructor(
    private readonly out: Difference[],
    private readonly reply: number,
    private readonly prefix: readonly string[],
    private readonly plan: ReplyPlan,
    private readonly table: MethodTable,
    private readonly results: readonly [unknown, unknown],
  ) {}

  private path(last?: string): string {
    const all = last === undefined ? [...this.prefix, ...this.segments] : [...this.prefix, ...this.segments, last];
    return all.length === 0 ? "(root)" : all.join(".");
  }

  /** Whether any root sequence the two replies state differs (for a `root` field whose object states none). */
  private anySequenceMoved(): boolean {
    if (this.anySeqMoved === null) {
      const [x, y] = this.results;
      const method = this.plan.method;
      const seqs = new Set(
        method === null ? [] : [...movingIn(method, x, "", this.table), ...movingIn(method, y, "", this.table)].flatMap((m) => (m.seq === null ? [] : [m.seq])),
      );
      const steps = (p: string) => p.split(".").filter(Boolean);
      this.anySeqMoved = [...seqs].some((s) => differs(at(x, steps(s)), at(y, steps(s))));
    }
    return this.anySeqMoved;
  }

  private push(kind: DiffKind, x: unknown, y: unknown, last?: string): void {
    this.out.push({ path: this.path(last), reply: this.reply, kind, x, y });
  }

  /** The kind of a difference between `a` and `b` under `mark` (`missing`: a key of an object only one side has). */
  private kindAt(mark: Mark | null, a: unknown, b: unknown, missing: boolean): DiffKind {
    if (mark === null) return "fixed";
    if (mark.with === "root") return mark.rootMoved ? "rootMoved" : "fixed";
    if (mark.with === "slot") return "slot";
    if (missing) return mark.here ? "state" : "fixed"; // an item's key on one side only is its shape
    const [ka, kb] = [kindOf(a), kindOf(b)];
    if (ka !== kb && ka !== "null" && kb !== "null") return "fixed";
    const last = this.segments[this.segments.length - 1];
    return this.plan.lookupField !== null && last === this.plan.lookupField ? "fixed" : "state";
  }

  /** The mark for a child: its own field's, or the parent's. */
  private markOf(child: MovingNode | undefined, parent: Mark | null, a: unknown, b: unknown): Mark | null {
    const field = child?.field;
    if (field === undefined || field === null) return parent === null ? null : parent.here ? { ...parent, here: false } : parent;
    let rootMoved = false;
    if (field.with === "root") {
      const seq = child!.seqFromParent;
      rootMoved = seq !== null ? differs(at(a, seq), at(b, seq)) : this.anySequenceMoved();
    }
    return { with: field.with, rootMoved, here: true };
  }

  walk(a: unknown, b: unknown, moving: MovingNode | undefined, ignore: IgnoreNode | undefined, mark: Mark | null): void {
    if (ignore?.end) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      const each = moving?.children.get("[]");
      const itemMark = this.markOf(each, mark, a, b);
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i++) {
        const index = String(i);
        const ig = ignore?.children.get(index);
        if (ig?.end) continue;
        if (i >= a.length || i >= b.length) {
          // An item one list lacks: the list's length moved, or its shape differs.
          const kind = itemMark === null ? "fixed" : itemMark.with === "root" ? (itemMark.rootMoved ? "rootMoved" : "fixed") : itemMark.with;
          this.push(kind, a[i], b[i], index);
          continue;
        }
        this.segments.push(index);
        this.walk(a[i], b[i], each, ig, itemMark);
        this.segments.pop();
      }
      return;
    }
    if (isObject(a) && isObject(b) && !Array.isArray(a) && !Array.isArray(b)) {
      for (const k in b) {
        if (!Object.hasOwn(b, k)) continue;
        const child = moving?.children.get(k);
        const ig = ignore?.children.get(k);
        if (ig?.end) continue;
        const childMark = this.markOf(child, mark, a, b);
        if (!Object.hasOwn(a, k)) {
          this.push(this.kindAt(childMark, undefined, b[k], true), undefined, b[k], k);
          continue;
        }
        this.segments.push(k);
        this.walk(a[k], b[k], child, ig, childMark);
        this.segments.pop();
      }
      for (const k in a) {
        if (!Object.hasOwn(a, k) || Object.hasOwn(b, k) || ignore?.children.get(k)?.end) continue;
        this.push("added", a[k], undefined, k); // a key only the side under test has
      }
      return;
    }
    if (differs(a, b)) this.push(this.kindAt(mark, a, b, false), a, b);
  }
}

/** The differences of one reply pair, appended to `out`; `prefix` is the reply's place in a batch (`["0"]`) or none. */
function walkReply(out: Difference[], x: unknown, y: unknown, reply: number, prefix: readonly string[], plan: ReplyPlan, table: MethodTable): void {
  const ignore = ignoreTrie(plan.ignored);
  const moving = movingTrie(plan.method, table);
  const result = (r: unknown) => (isObject(r) ? r.result : undefined);
  const walk = new ReplyWalk(out, reply, prefix, plan, table, [result(x), result(y)]);
  // The reply's envelope is fixed; the trie starts at its `result`.
  const envelope: MovingNode = { children: new Map([["result", moving]]), field: null, seqFromParent: null };
  walk.walk(x, y, moving === NO_MOVING ? undefined : envelope, ignore, null);
}

/**
 * Every difference between two bodies, classified: a batch reply by reply (each with its own
 * plan, by position), else the body as one reply. Linear in the bodies' size.
 */
export function classifiedDifferences(x: unknown, y: unknown, plans: readonly ReplyPlan[], table: MethodTable): Difference[] {
  const out: Difference[] = [];
  const none: ReplyPlan = { method: null, ignored: ["id"], lookupField: null };
  if (Array.isArray(x) && Array.isArray(y)) {
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      if (i >= x.length || i >= y.length) out.push({ path: String(i), reply: -1, kind: "fixed", x: x[i], y: y[i] });
      else walkReply(out, x[i], y[i], i, [String(i)], plans[i] ?? none, table);
    }
  } else if (Array.isArray(x) || Array.isArray(y)) out.push({ path: "(root)", reply: -1, kind: "fixed", x, y });
  else walkReply(out, x, y, 0, [], plans[0] ?? none, table);
  return out;
}

/** Every path where two JSON values differ (objects compared by key, not key order), `ignored` paths left out with all they hold. */
export function differences(a: unknown, b: unknown, ignored: ReadonlySet<string>): string[] {
  const out: Difference[] = [];
  new ReplyWalk(out, 0, [], { method: null, ignored: [], lookupField: null }, {}, [undefined, undefined]).walk(a, b, undefined, ignoreTrie([...ignored]), null);
  return out.map((d) => d.path);
}
