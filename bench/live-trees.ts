/**
 * The forest following a live chain (reference/trees/forest-apply.ts): transactions applied per
 * second (`applyChange` writing the records, then `Forest.apply`) with a proof read every k
 * transactions, in process on one core, against the eager floor: an append hashed at once costs
 * 26 Poseidon calls (a V1 tree's height), so the hash library's calls/s ÷ 26 bounds an eager tree.
 * Folding writes on read shares the upper levels of the paths written between two reads.
 *
 * Every proof read is kept and checked after the timing: it proves the account just appended, and
 * folds to the root it answers; each run ends with the forest's roots equal to those of a fresh
 * forest over the same records. Poseidon runs without the build's memo (every call hashes).
 */
import { blockTime, HASH_TEXT, SIGNATURE_TEXT, base58Text } from "../reference/dataset-encoding.js";
import { generateDataset } from "../reference/dataset.js";
import { applyChange, type RecordLookup } from "../reference/live/apply.js";
import type { Change } from "../reference/live/change.js";
import { Random } from "../reference/random.js";
import type { AccountRecord, Dataset, TreeRecord } from "../reference/records.js";
import { Forest } from "../reference/trees/forest.js";
import { base58ToBigint, hash2, usePoseidonMemo } from "../reference/trees/poseidon.js";
import { foldProof } from "../reference/trees/state-tree.js";
import { type BenchOptions, type FigureResult, fmtNumber, main, type Table } from "./lib/figure.js";
import { inTurns, median, summary } from "./lib/stats.js";

/** A V1 state tree's height: the Poseidon calls of one append hashed at once. */
const EAGER_HASHES = 26;
const AIM_TX_PER_S = 1000;

interface Variant {
  readonly name: string;
  /** A proof read after every `every` transactions. */
  readonly every: number;
  /** Each transaction also spends an earlier account of the tree (its leaf becomes zero): two leaf writes. */
  readonly spend: boolean;
  readonly transactions: number;
}

/** What a run read: the proofs, to check after the timing. */
interface Read {
  readonly hash: string;
  readonly proof: { proof: string[]; root: string; leafIndex: number; hash: string };
}

/** Builds the next `count` transactions into `tree`, from its current leaf count and seq (not timed). */
function changes(dataset: Dataset, tree: TreeRecord, rng: Random, variant: Variant, unspent: AccountRecord[]): Change[] {
  let leafIndex = dataset.accounts.reduce((n, a) => (a.tree === tree.tree && a.leafIndex >= n ? a.leafIndex + 1 : n), 0);
  let seq = tree.seq;
  let slot = dataset.slot;
  const out: Change[] = [];
  for (let i = 0; i < variant.transactions; i++) {
    slot++;
    const closed = variant.spend ? [(unspent.splice(rng.below(unspent.length), 1)[0] as AccountRecord).hash] : [];
    seq += closed.length + 1;
    const account: AccountRecord = {
      hash: base58Text(rng, HASH_TEXT.length, HASH_TEXT.firstDigit),
      address: null,
      data: null,
      owner: "11111111111111111111111111111111",
      lamports: 1,
      tree: tree.tree,
      leafIndex: leafIndex++,
      seq,
      slotCreated: slot,
      spent: false,
      inInputQueue: false,
      inOutputQueue: false,
    };
    unspent.push(account);
    const signature = {
      signature: base58Text(rng, SIGNATURE_TEXT.length, SIGNATURE_TEXT.firstDigit),
      slot,
      blockTime: blockTime(slot),
      opened: [account.hash],
      closed,
    };
    out.push({
      slot,
      signature,
      opened: [account],
      tokens: [],
      closed,
      addresses: [],
      appended: [],
      nullified: [],
      inserted: [],
      seqs: new Map([[tree.tree, seq]]),
    });
  }
  return out;
}

/** Applies the changes (records, then forest), reading a proof of the latest account every `every` of them: transactions per second. */
function applyAll(
  dataset: Dataset,
  forest: Forest,
  lookup: RecordLookup & { add(a: AccountRecord): void },
  list: readonly Change[],
  every: number,
  reads: Read[],
): number {
  const started = performance.now();
  for (let i = 0; i < list.length; i++) {
    const change = list[i] as Change;
    const touched = applyChange(dataset, change, lookup);
    forest.apply(change, touched);
    const opened = change.opened[0] as AccountRecord;
    lookup.add(opened);
    if ((i + 1) % every === 0) reads.push({ hash: opened.hash, proof: forest.accountProof(opened.hash) });
  }
  return (list.length * 1000) / (performance.now() - started);
}

/** Each read proves the account it asked for and folds to the root it answers. */
function checkReads(reads: readonly Read[]): void {
  for (const { hash, proof } of reads) {
    if (proof.hash !== hash) throw new Error(`a proof of ${hash} answered leaf ${proof.hash}`);
    const root = foldProof(base58ToBigint(hash), proof.leafIndex, proof.proof.map(base58ToBigint));
    if (root !== base58ToBigint(proof.root)) throw new Error(`the proof of ${hash} does not fold to its root`);
  }
}

/** The hash library's two-input calls per second, through the hash the trees use (field checks included). */
function hashRate(calls: number, rng: Random): number {
  const inputs = Array.from({ length: calls + 1 }, () => base58ToBigint(base58Text(rng, HASH_TEXT.length, HASH_TEXT.firstDigit)));
  const started = performance.now();
  for (let i = 0; i < calls; i++) hash2(inputs[i] as bigint, inputs[i + 1] as bigint);
  return (calls * 1000) / (performance.now() - started);
}

export async function run(options: BenchOptions): Promise<{ results: FigureResult[]; tables: Table[] }> {
  usePoseidonMemo(null);
  const rounds = options.quick ? 1 : 3;
  const scale = options.quick ? 0.2 : 1;
  const variants: Variant[] = [
    { name: "append, a proof read after every transaction (eager)", every: 1, spend: false, transactions: Math.ceil(300 * scale) },
    { name: "append, a proof read every 4 transactions", every: 4, spend: false, transactions: Math.ceil(1200 * scale) },
    { name: "append, a proof read every 16 transactions", every: 16, spend: false, transactions: Math.ceil(3200 * scale) },
    { name: "append, a proof read every 64 transactions", every: 64, spend: false, transactions: Math.ceil(6400 * scale) },
    { name: "append and spend (a transfer), a proof read every 16 transactions", every: 16, spend: true, transactions: Math.ceil(2400 * scale) },
  ];
  const headline = variants[2] as Variant;
  const rng = new Random(30, "live-trees");
  // The default dataset of the reference (seed 1, 20,000 accounts); its first V1 tree, built before the timing.
  const dataset = generateDataset({ seed: 1, accounts: 20_000 });
  const tree = dataset.trees.find((t) => t.type === "StateV1") as TreeRecord;
  const forest = new Forest(dataset);
  forest.root(tree.tree);
  const byHash = new Map(dataset.accounts.map((a) => [a.hash, a]));
  const lookup = { account: (h: string) => byHash.get(h), queuedAddress: () => undefined, add: (a: AccountRecord) => byHash.set(a.hash, a) };
  const unspent = dataset.accounts.filter((a) => a.tree === tree.tree && !a.spent);

  const rates = new Map<Variant, number[]>(variants.map((v) => [v, []]));
  const floors: number[] = [];
  let checked = 0;
  hashRate(500, rng);
  for (let r = 0; r < rounds; r++) {
    for (const v of inTurns(r, variants)) {
      const list = changes(dataset, tree, rng, v, unspent);
      const reads: Read[] = [];
      rates.get(v)?.push(applyAll(dataset, forest, lookup, list, v.every, reads));
      checkReads(reads);
      checked += reads.length;
    }
    floors.push(hashRate(options.quick ? 500 : 3000, rng) / EAGER_HASHES);
  }
  // The forest that followed every change answers the root of a fresh one over the same records.
  if (new Forest(dataset).root(tree.tree).root !== forest.root(tree.tree).root) throw new Error(`the root of ${tree.tree} differs from a fresh forest's`);

  const floor = summary(floors, 0);
  const ours = summary(rates.get(headline) as number[], 0);
  const ratio = median((rates.get(headline) as number[]).map((x, i) => x / (floors[i] as number)));
  return {
    results: [
      {
        id: "live-trees.tx",
        what: `transactions applied per second by the forest (applyChange + Forest.apply: one V1 append each, smt1 of the default dataset, 26 levels), a proof read every ${headline.every}, every read checked; one core, in process`,
        ours: { label: `Forest.apply, folded on read (${headline.transactions} transactions × ${rounds} rounds)`, unit: "tx/s", ...ours },
        baseline: { label: `eager floor: the hash library's calls/s ÷ ${EAGER_HASHES} (Poseidon calls of one eager append)`, unit: "tx/s", ...floor },
        ratio,
        ratioOf: "ours ÷ eager floor (tx/s)",
        aim: { op: ">=", value: AIM_TX_PER_S, text: `≥ ${fmtNumber(AIM_TX_PER_S)} tx/s (absolute, one core)` },
        met: ours.value >= AIM_TX_PER_S,
        notes: [
          `${checked} proof reads checked (each proves the account just appended and folds to its root); the final roots equal a fresh forest's`,
          "folding: writes between two reads mark their paths dirty; the read rehashes each dirty node once, so appends between reads share their upper levels",
        ],
      },
    ],
    tables: [
      {
        title: "transactions per second by how often a proof is read (same run)",
        columns: ["transactions", "tx/s", "÷ eager floor"],
        rows: variants.map((v) => {
          const runs = rates.get(v) as number[];
          return [v.name, fmtNumber(median(runs)), `${median(runs.map((x, i) => x / (floors[i] as number))).toFixed(2)}×`];
        }),
        notes: [`eager floor ${fmtNumber(floor.value)} tx/s (the hash library's ${fmtNumber(floor.value * EAGER_HASHES)} calls/s ÷ ${EAGER_HASHES})`],
      },
    ],
  };
}

await main(import.meta.url, "live-trees", run);
