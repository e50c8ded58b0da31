/**
 * Validity-proof contexts agree with the separate proof calls Photon builds them from: accounts from
 * `get_multiple_compressed_leaf_proofs` (get_validity_proof/v1.rs:94-98, v2.rs:146-213), new addresses
 * from `get_multiple_new_address_proofs_helper` (v1.rs:100-110, v2.rs:222-231), root index = rootSeq %
 * root history (prover/prove.rs:28-50). Each entry is asked again through the methods the table gives
 * (`paramShape`) and must match root, leaf index and tree, judged at one slot (same-slot.ts): a moved
 * tree is inconclusive, never a failure. At most MAX_FOLLOW_UPS calls and MAX_ENTRIES entries per answer.
 */
import { isObject } from "@photon-indexer-kit/runtime";
import { fail, pass, skip, type Finding } from "../results.js";
import { atOneSlot, CHANGED, resultOf } from "../same-slot.js";
import type { MethodTable } from "../spec-facts.js";
import { show, type CheckContext } from "./check.js";
import { collectProofs, historyOf, treeOf, type Obj } from "./proof-shapes.js";

const P = "proofs";

/** Follow-up calls one validity answer costs at most. */
export const MAX_FOLLOW_UPS = 6;
/** Validity-proof entries compared per answer at most (a larger answer is left uncompared, with a skip). */
export const MAX_ENTRIES = 64;

/** The methods the table says take a bare list of account hashes, of addresses, and of (address, tree) objects. */
export interface ProofMethods {
  readonly accounts: readonly string[];
  readonly addresses: readonly string[];
  readonly addressesWithTrees: readonly string[];
}

/** The proof list methods of a table, by their params' shape (a JSON array of `hash`, `pubkey` or `object` items). */
export function proofMethods(table: MethodTable): ProofMethods {
  const out = { accounts: [] as string[], addresses: [] as string[], addressesWithTrees: [] as string[] };
  for (const m of Object.values(table)) {
    const shape = m.paramShape;
    if (shape?.type !== "array" || !shape.items) continue;
    if (shape.items.kind === "hash") out.accounts.push(m.name);
    else if (shape.items.kind === "pubkey") out.addresses.push(m.name);
    else if (shape.items.kind === "object") out.addressesWithTrees.push(m.name);
  }
  return out;
}

/** One account or address a validity proof proves, with the path of each of its fields. */
interface Entry {
  /** account: a V2 account; address: a new address; plain: a V1 leaf, an account hash or a plain (deprecated) address. */
  kind: "account" | "address" | "plain";
  leaf: string;
  tree: unknown;
  queue: unknown;
  treeType: unknown;
  root: unknown;
  rootIndex: unknown;
  /** undefined: the entry states none (V2 addresses). */
  leafIndex: unknown;
  byIndex: boolean;
  /** Field → its path in the answer. */
  at: (field: "root" | "rootIndex" | "leafIndex" | "tree") => string;
}

/** The entries a validity proof lists (its V1 leaves, V2 accounts and addresses), counted without reading them. */
function listedEntries(o: Obj): number {
  const { roots, rootIndices, leafIndices, leaves, merkleTrees } = o;
  let n = [roots, rootIndices, leafIndices, leaves, merkleTrees].every(Array.isArray) ? (leaves as unknown[]).length : 0;
  for (const list of ["accounts", "addresses"]) {
    const items = o[list];
    if (Array.isArray(items)) n += items.length;
  }
  return n;
}

function entriesOf(path: string, o: Obj, objectAddresses: ReadonlySet<string>): Entry[] {
  const out: Entry[] = [];
  const { roots, rootIndices, leafIndices, leaves, merkleTrees } = o;
  if ([roots, rootIndices, leafIndices, leaves, merkleTrees].every(Array.isArray)) {
    const v1 = { root: "roots", rootIndex: "rootIndices", leafIndex: "leafIndices", tree: "merkleTrees" } as const;
    (leaves as unknown[]).forEach((leaf, i) => {
      if (typeof leaf !== "string") return;
      out.push({
        kind: objectAddresses.has(leaf) ? "address" : "plain",
        leaf,
        tree: (merkleTrees as unknown[])[i],
        queue: undefined,
        treeType: undefined,
        root: (roots as unknown[])[i],
        rootIndex: (rootIndices as unknown[])[i],
        leafIndex: (leafIndices as unknown[])[i],
        byIndex: false,
        at: (f) => `result${path}.${v1[f]}.${i}`,
      });
    });
  }
  for (const [list, kind] of [
    ["accounts", "account"],
    ["addresses", "address"],
  ] as const) {
    const items = o[list];
    if (!Array.isArray(items)) continue;
    items.forEach((item, i) => {
      if (!isObject(item)) return;
      const leaf = kind === "account" ? item.hash : item.address;
      if (typeof leaf !== "string") return;
      const context = isObject(item.merkleContext) ? item.merkleContext : {};
      const index = isObject(item.rootIndex) ? item.rootIndex : null;
      const v2 = { root: "root", rootIndex: index ? "rootIndex.rootIndex" : "rootIndex", leafIndex: "leafIndex", tree: "merkleContext.tree" } as const;
      out.push({
        kind,
        leaf,
        tree: context.tree,
        queue: context.queue,
        treeType: context.treeType,
        root: item.root,
        rootIndex: index ? index.rootIndex : item.rootIndex,
        leafIndex: kind === "account" ? item.leafIndex : undefined,
        byIndex: index?.proveByIndex === true,
        at: (f) => `result${path}.${list}.${i}.${v2[f]}`,
      });
    });
  }
  return out;
}

/** A separate call's proof of one leaf, with the method that answered it. */
interface Separate {
  method: string;
  o: Obj;
}

/** A follow-up answer: its method and result, for the run-wide root ledger. */
export interface FollowUp {
  readonly method: string;
  readonly result: unknown;
}

/** List params of the request: the plain string lists, and every object item (an address with its tree). */
function requestLists(params: unknown): { strings: string[][]; objects: Obj[] } {
  const strings: string[][] = [];
  const objects: Obj[] = [];
  if (isObject(params))
    for (const v of Object.values(params)) {
      if (!Array.isArray(v)) continue;
      if (v.every((x) => typeof x === "string")) strings.push(v as string[]);
      else for (const x of v) if (isObject(x)) objects.push(x);
    }
  return { strings, objects };
}

const same = (a: unknown, b: unknown): boolean => (typeof a === "bigint" || typeof b === "bigint" ? String(a) === String(b) : a === b);

/**
 * Why the validity proofs among `validity` are not compared (a skip), or [] when they have no
 * entry; null when they are to be compared.
 */
function notCompared(ctx: CheckContext, validity: readonly { path: string; o: Obj }[], methods: ProofMethods): Finding[] | null {
  // Counted before any entry is built: an answer of a million entries costs a count, nothing more.
  const listed = validity.reduce((n, { o }) => n + listedEntries(o), 0);
  if (listed > MAX_ENTRIES) return [skip(P, `the validity proof's ${listed} entries were not compared with the separate proof calls (at most ${MAX_ENTRIES})`)];
  const entries = validity.reduce((n, { path, o }) => n + entriesOf(path, o, new Set()).length, 0);
  if (entries === 0) return [];
  if (ctx.target.live === false)
    return [skip(P, `the validity proof's ${entries} entries were not compared with the separate proof calls: captured traffic has no target to ask`)];
  if (methods.accounts.length + methods.addresses.length + methods.addressesWithTrees.length === 0)
    return [skip(P, "the method table names no proof list method (params a list of hashes or addresses): the validity proof was not compared")];
  return null;
}

/**
 * Compares the validity proofs among `validity` (objects of the answer `result` to the case's
 * request) with the target's separate proof calls for the same hashes and addresses, at one slot:
 * the case's request is asked again with them when the answers state different slots.
 */
export async function agreementFindings(
  ctx: CheckContext,
  result: unknown,
  validity: readonly { path: string; o: Obj }[],
): Promise<{ findings: Finding[]; followUps: FollowUp[] }> {
  const methods = proofMethods(ctx.methods);
  const early = notCompared(ctx, validity, methods);
  if (early) return { findings: early, followUps: [] };
  let followUps: FollowUp[] = [];
  const findings = await atOneSlot(ctx, P, "the validity proof and the separate proof calls", async (t) => {
    const exchange = await t.own();
    const again = exchange === ctx.exchange ? { result } : resultOf(exchange);
    const proofs = exchange === ctx.exchange ? validity : again ? collectProofs(again.result).validity : [];
    if (!again || notCompared(t.ctx, proofs, methods)) return CHANGED;
    const compared = await compare(t.ctx, proofs, methods);
    followUps = compared.followUps;
    return { each: [], across: compared.findings };
  });
  return { findings, followUps };
}

/** The comparison of one try: each validity-proof entry against the separate calls' proofs of it. */
async function compare(
  ctx: CheckContext,
  validity: readonly { path: string; o: Obj }[],
  methods: ProofMethods,
): Promise<{ findings: Finding[]; followUps: FollowUp[] }> {
  const followUps: FollowUp[] = [];
  const findings: Finding[] = [];
  const { strings, objects } = requestLists(ctx.testCase.params);
  const objectAddresses = new Set(objects.flatMap((x) => (typeof x.address === "string" ? [x.address] : [])));
  const entries = validity.flatMap(({ path, o }) => entriesOf(path, o, objectAddresses));
  let calls = 0;
  const errors: string[] = [];
  /** Calls `method` with `list`; its proofs by leaf (hash or address); null when it answered no result. */
  const ask = async (method: string, list: unknown[], kind: "accounts" | "addresses"): Promise<Map<string, Separate> | null> => {
    if (calls >= MAX_FOLLOW_UPS || list.length === 0) return null;
    calls++;
    const ex = await ctx.target.call(method, list);
    const body = ex.body;
    if (!isObject(body) || !("result" in body)) {
      errors.push(`${method}: ${ex.error ?? show(isObject(body) ? body.error : body)}`);
      return null;
    }
    followUps.push({ method, result: body.result });
    const found = collectProofs(body.result);
    const out = new Map<string, Separate>();
    for (const { o } of kind === "accounts" ? found.accounts : found.addresses) {
      const key = kind === "accounts" ? o.hash : `${String(o.address)}#${String(treeOf(o))}`;
      if (typeof key === "string" && !out.has(key)) out.set(key, { method, o });
    }
    return out;
  };

  /** leaf (hash, or address#tree) → the separate proofs answered for it. */
  const separate = new Map<string, Separate[]>();
  const add = (found: Map<string, Separate> | null) => {
    for (const [k, s] of found ?? []) separate.set(k, [...(separate.get(k) ?? []), s]);
  };

  // Accounts: the V2 accounts, and each plain list of the request that V1 leaves come from (a
  // list no account method answers is the deprecated address list, proved in the V1 address tree).
  const plain = entries.filter((e) => e.kind === "plain");
  const groups: Entry[][] = [entries.filter((e) => e.kind === "account")];
  for (const list of strings) {
    const group = plain.filter((e) => list.includes(e.leaf) && !groups.some((g) => g.includes(e)));
    if (group.length > 0) groups.push(group);
  }
  groups.push(plain.filter((e) => !groups.some((g) => g.includes(e))));
  const plainAddresses: Entry[] = [];
  for (const group of groups) {
    if (group.length === 0) continue;
    let answered = false;
    for (const method of methods.accounts) {
      let found = await ask(method, [...new Set(group.map((e) => e.leaf))], "accounts");
      // A method with no proof by index refuses a queued account (Photon's V1 list, mod.rs:41): ask again without them.
      if (!found && group.some((e) => e.byIndex)) found = await ask(method, [...new Set(group.filter((e) => !e.byIndex).map((e) => e.leaf))], "accounts");
      if (found && found.size > 0) answered = true;
      add(found);
    }
    if (!answered && group.every((e) => e.kind === "plain")) plainAddresses.push(...group);
  }

  // New addresses: those given with their tree (the request's objects, as sent), and the plain ones.
  const withTrees = entries.filter((e) => e.kind === "address");
  if (withTrees.length > 0) for (const method of methods.addressesWithTrees) add(await ask(method, objects, "addresses"));
  if (plainAddresses.length > 0) for (const method of methods.addresses) add(await ask(method, [...new Set(plainAddresses.map((e) => e.leaf))], "addresses"));

  let agreed = 0;
  const bad = (message: string, expected: string, actual: string) => findings.push(fail(P, message, expected, actual));
  for (const e of entries) {
    const isAddress = e.kind === "address" || plainAddresses.includes(e);
    const what = isAddress ? `address ${e.leaf}` : `account ${e.leaf}`;
    const proofs = isAddress ? (separate.get(`${e.leaf}#${String(e.tree)}`) ?? []) : (separate.get(e.leaf) ?? []);
    if (proofs.length === 0) {
      findings.push(
        fail(
          P,
          `${e.at("root")}: no separate proof call answers a proof of ${what} in tree ${show(e.tree)}, which the validity proof proves`,
          "a proof from one of " + show([...(isAddress ? [...methods.addressesWithTrees, ...methods.addresses] : methods.accounts)]),
          errors.length > 0 ? errors.join("; ") : "none",
        ),
      );
      continue;
    }
    const before = findings.length;
    for (const s of proofs) {
      const o = s.o;
      const by = `${s.method}'s proof of ${what}`;
      const sepByIndex = o.proveByIndex === true;
      if (e.byIndex !== sepByIndex) {
        bad(
          `${e.at("rootIndex")}: the validity proof ${e.byIndex ? "proves" : "does not prove"} ${what} by index, ${by} ${sepByIndex ? "does" : "does not"}`,
          String(sepByIndex),
          String(e.byIndex),
        );
        continue;
      }
      if (treeOf(o) !== e.tree) bad(`${e.at("tree")}: not the tree of ${by}`, show(treeOf(o)), show(e.tree));
      const ctxQueue = isObject(o.treeContext) ? o.treeContext.queue : undefined;
      if (e.queue !== undefined && ctxQueue !== undefined && ctxQueue !== e.queue)
        bad(`${e.at("tree")}: the queue differs from ${by}'s treeContext.queue`, show(ctxQueue), show(e.queue));
      const sepIndex = isAddress ? o.lowElementLeafIndex : o.leafIndex;
      if (e.leafIndex !== undefined && !same(sepIndex, e.leafIndex))
        bad(`${e.at("leafIndex")}: not the ${isAddress ? "lowElementLeafIndex" : "leafIndex"} of ${by}`, show(sepIndex), show(e.leafIndex));
      if (e.byIndex) continue;
      if (o.root !== e.root) bad(`${e.at("root")}: not the root of ${by} (a stale or foreign root)`, show(o.root), show(e.root));
      const history = historyOf(
        e.treeType ?? (isObject(o.treeContext) ? o.treeContext.treeType : undefined),
        Array.isArray(o.proof) ? o.proof.length : undefined,
      );
      const seq = o.rootSeq;
      if (history !== undefined && (typeof seq === "number" || typeof seq === "bigint")) {
        const want = BigInt(seq) % BigInt(history);
        if (!(typeof e.rootIndex === "number" || typeof e.rootIndex === "bigint") || BigInt(e.rootIndex) !== want)
          bad(
            `${e.at("rootIndex")}: root index is not the rootSeq ${seq} of ${by} modulo the tree's root history (${history})`,
            String(want),
            show(e.rootIndex),
          );
      }
    }
    if (findings.length === before) agreed++;
  }
  if (agreed === entries.length)
    findings.push(
      pass(
        P,
        `${agreed} validity-proof ${agreed === 1 ? "entry agrees" : "entries agree"} with the separate proof calls (${calls} call${calls === 1 ? "" : "s"}): root, leaf index, tree, root index = rootSeq % root history`,
      ),
    );
  return { findings, followUps };
}
