/**
 * The dataset file format, version 2: JSON lines (see reference/README.md), a `meta` line then
 * `tree`, `account`, `token`, `signature` and `address` lines in dataset order, so the same dataset
 * always gives the same bytes. u64s are bare integers (`stringifyJson`/`parseJson`). A line may only
 * name trees or account hashes of earlier lines. Version 1 files are refused: regenerate them.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { finished } from "node:stream/promises";
import { formats, isUint64, parseJson, stringifyJson } from "@photon-indexer-kit/runtime";
import { DatasetFormatError, RefErrorCode, ReferenceIndexerError } from "./errors.js";
import type { AccountRecord, AddressRecord, Dataset, SignatureRecord, TokenRecord, TreeRecord, TreeType, U64 } from "./records.js";

export const FORMAT_NAME = "photon-reference-dataset";
export const FORMAT_VERSION = 2;

const TREE_TYPES: readonly TreeType[] = ["StateV1", "AddressV1", "StateV2", "AddressV2"];

export { DatasetFormatError };

/** The lines of a dataset file, without newlines. */
export function* datasetLines(dataset: Dataset): Generator<string> {
  yield stringifyJson({ type: "meta", format: FORMAT_NAME, version: FORMAT_VERSION, slot: dataset.slot, seed: dataset.seed });
  for (const t of dataset.trees) {
    yield stringifyJson({
      type: "tree",
      tree: t.tree,
      queue: t.queue,
      treeType: t.type,
      height: t.height,
      rootHistory: t.rootHistory,
      cpiContext: t.cpiContext,
      seq: t.seq,
    });
  }
  for (const a of dataset.accounts) {
    const data = a.data === null ? null : { discriminator: a.data.discriminator, data: a.data.data, dataHash: a.data.dataHash };
    yield stringifyJson({
      type: "account",
      hash: a.hash,
      address: a.address,
      data,
      owner: a.owner,
      lamports: a.lamports,
      tree: a.tree,
      leafIndex: a.leafIndex,
      seq: a.seq,
      slotCreated: a.slotCreated,
      spent: a.spent,
      inInputQueue: a.inInputQueue,
      inOutputQueue: a.inOutputQueue,
    });
  }
  for (const t of dataset.tokens) {
    yield stringifyJson({ type: "token", hash: t.hash, mint: t.mint, owner: t.owner, amount: t.amount, delegate: t.delegate, state: t.state, tlv: t.tlv });
  }
  for (const s of dataset.signatures) {
    yield stringifyJson({ type: "signature", signature: s.signature, slot: s.slot, blockTime: s.blockTime, opened: s.opened, closed: s.closed });
  }
  for (const a of dataset.addresses) yield stringifyJson({ type: "address", address: a.address, tree: a.tree, slot: a.slot, queued: a.queued });
}

/** Writes `dataset` to `path` as JSON lines, streaming. */
export async function writeDataset(dataset: Dataset, path: string): Promise<void> {
  const out = createWriteStream(path);
  const failed = once(out, "error").then(([err]) => Promise.reject(err as Error));
  failed.catch(() => undefined);
  try {
    let chunk: string[] = [];
    const flush = async () => {
      if (!out.write(`${chunk.join("\n")}\n`)) await Promise.race([once(out, "drain"), failed]);
      chunk = [];
    };
    for (const line of datasetLines(dataset)) {
      chunk.push(line);
      if (chunk.length >= 1024) await flush();
    }
    if (chunk.length > 0) await flush();
    out.end();
    await Promise.race([finished(out), failed]);
  } catch (err) {
    out.destroy();
    throw err;
  }
}

type Fields = Record<string, unknown>;

/** A problem with one line; readDataset adds the path and line number. */
class LineError extends ReferenceIndexerError {
  constructor(detail: string) {
    super(RefErrorCode.DATASET, detail);
  }
}

function fail(detail: string): never {
  throw new LineError(detail);
}

/** Flags of an account hash seen on an earlier line. */
const SPENT = 1;
const OPENED = 2;
const CLOSED = 4;

/** Checks parsed lines, remembering what earlier lines declared. */
class LineChecker {
  private readonly pubkeys = new Set<string>();
  /** Account hash -> SPENT | OPENED | CLOSED. */
  private readonly hashes = new Map<string, number>();
  private readonly tokenHashes = new Set<string>();
  private readonly signatures = new Set<string>();
  private readonly trees = new Map<string, TreeType>();
  private readonly addresses = new Set<string>();

  constructor(readonly slot: number) {}

  private keys(record: Fields, expected: readonly string[]): void {
    for (const k of Object.keys(record)) if (!expected.includes(k)) fail(`unknown field "${k}"`);
    for (const k of expected) if (!(k in record)) fail(`missing field "${k}"`);
  }

  private pubkey(value: unknown, field: string, nullable = false): string | null {
    if (value === null && nullable) return null;
    if (typeof value === "string" && (this.pubkeys.has(value) || formats.pubkey(value))) {
      this.pubkeys.add(value);
      return value;
    }
    fail(`${field} must be a base58 32-byte public key${nullable ? " or null" : ""}`);
  }

  private hash(value: unknown, field: string): string {
    if (typeof value === "string" && formats.hash(value)) return value;
    fail(`${field} must be a base58 32-byte hash`);
  }

  private base64(value: unknown, field: string, nullable = false): string | null {
    if (value === null && nullable) return null;
    if (typeof value === "string" && formats.base64(value)) return value;
    fail(`${field} must be standard base64${nullable ? " or null" : ""}`);
  }

  private u64(value: unknown, field: string): U64 {
    if (isUint64(value)) return value;
    fail(`${field} must be an integer in 0..18446744073709551615`);
  }

  private int(value: unknown, field: string, nullable = false): number | null {
    if (value === null && nullable) return null;
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
    fail(`${field} must be a non-negative safe integer${nullable ? " or null" : ""}`);
  }

  private slotOf(value: unknown, field: string): number {
    const slot = this.int(value, field) as number;
    if (slot > this.slot) fail(`${field} ${slot} is after the dataset slot ${this.slot}`);
    return slot;
  }

  private knownAccount(hash: string, field: string): string {
    if (!this.hashes.has(hash)) fail(`${field} ${hash} is not the hash of an earlier account line`);
    return hash;
  }

  private boolean(value: unknown, field: string): boolean {
    if (typeof value === "boolean") return value;
    fail(`${field} must be a boolean`);
  }

  /** A tree of an earlier tree line whose type is one of `types`. */
  private knownTree(value: unknown, field: string, types: readonly TreeType[], what: string): [string, TreeType] {
    const tree = this.pubkey(value, field) as string;
    const type = this.trees.get(tree);
    if (type === undefined || !types.includes(type)) fail(`${field} ${tree} is not ${what} of an earlier tree line`);
    return [tree, type];
  }

  tree(r: Fields): TreeRecord {
    this.keys(r, ["type", "tree", "queue", "treeType", "height", "rootHistory", "cpiContext", "seq"]);
    const tree = this.pubkey(r.tree, "tree") as string;
    if (this.trees.has(tree)) fail(`duplicate tree ${tree}`);
    const type = r.treeType;
    if (typeof type !== "string" || !TREE_TYPES.includes(type as TreeType)) fail(`treeType must be one of ${TREE_TYPES.join(", ")}`);
    const record: TreeRecord = {
      tree,
      queue: this.pubkey(r.queue, "queue") as string,
      type: type as TreeType,
      height: this.int(r.height, "height") as number,
      rootHistory: this.int(r.rootHistory, "rootHistory") as number,
      cpiContext: this.pubkey(r.cpiContext, "cpiContext", true),
      seq: this.int(r.seq, "seq") as number,
    };
    if (record.height < 1 || record.height > 64) fail("height must be between 1 and 64");
    if (record.rootHistory < 1) fail("rootHistory must be at least 1");
    this.trees.set(tree, record.type);
    return record;
  }

  account(r: Fields): AccountRecord {
    this.keys(r, ["type", "hash", "address", "data", "owner", "lamports", "tree", "leafIndex", "seq", "slotCreated", "spent", "inInputQueue", "inOutputQueue"]);
    const hash = this.hash(r.hash, "hash");
    if (this.hashes.has(hash)) fail(`duplicate account hash ${hash}`);
    let data: AccountRecord["data"] = null;
    if (r.data !== null) {
      if (typeof r.data !== "object" || Array.isArray(r.data)) fail("data must be an object or null");
      const d = r.data as Fields;
      for (const k of Object.keys(d)) if (!["discriminator", "data", "dataHash"].includes(k)) fail(`unknown field "data.${k}"`);
      data = {
        discriminator: this.u64(d.discriminator, "data.discriminator"),
        data: this.base64(d.data, "data.data") as string,
        dataHash: this.hash(d.dataHash, "data.dataHash"),
      };
    }
    const spent = this.boolean(r.spent, "spent");
    const inInputQueue = this.boolean(r.inInputQueue, "inInputQueue");
    const [tree, treeType] = this.knownTree(r.tree, "tree", ["StateV1", "StateV2"], "a state tree");
    const seq = this.int(r.seq, "seq", true);
    const inOutputQueue = this.boolean(r.inOutputQueue, "inOutputQueue");
    if ((seq === null) !== (treeType === "StateV2")) fail("seq must be null exactly for an account of a StateV2 tree (as Photon sends it)");
    if (inOutputQueue && treeType !== "StateV2") fail("inOutputQueue may be true only for an account of a StateV2 tree");
    if (inInputQueue && !(spent && treeType === "StateV2")) fail("inInputQueue may be true only for a spent account of a StateV2 tree");
    const record: AccountRecord = {
      hash,
      address: this.pubkey(r.address, "address", true),
      data,
      owner: this.pubkey(r.owner, "owner") as string,
      lamports: this.u64(r.lamports, "lamports"),
      tree,
      leafIndex: this.int(r.leafIndex, "leafIndex") as number,
      seq,
      slotCreated: this.slotOf(r.slotCreated, "slotCreated"),
      spent,
      inInputQueue,
      inOutputQueue,
    };
    this.hashes.set(hash, spent ? SPENT : 0);
    return record;
  }

  token(r: Fields): TokenRecord {
    this.keys(r, ["type", "hash", "mint", "owner", "amount", "delegate", "state", "tlv"]);
    const hash = this.knownAccount(this.hash(r.hash, "hash"), "hash");
    if (this.tokenHashes.has(hash)) fail(`duplicate token line for account ${hash}`);
    if (r.state !== "initialized" && r.state !== "frozen") fail('state must be "initialized" or "frozen"');
    const record: TokenRecord = {
      hash,
      mint: this.pubkey(r.mint, "mint") as string,
      owner: this.pubkey(r.owner, "owner") as string,
      amount: this.u64(r.amount, "amount"),
      delegate: this.pubkey(r.delegate, "delegate", true),
      state: r.state,
      tlv: this.base64(r.tlv, "tlv", true),
    };
    this.tokenHashes.add(hash);
    return record;
  }

  /** `opened` or `closed` of a signature line: hashes of earlier accounts, each opened (closed) by one signature only. */
  private sides(value: unknown, field: "opened" | "closed"): string[] {
    if (!Array.isArray(value)) fail(`${field} must be an array of account hashes`);
    const flag = field === "opened" ? OPENED : CLOSED;
    return value.map((h: unknown, i) => {
      const hash = this.knownAccount(this.hash(h, `${field}[${i}]`), `${field}[${i}]`);
      const flags = this.hashes.get(hash) as number;
      if ((flags & flag) !== 0) fail(`${field}[${i}] ${hash} is ${field} by an earlier signature line too`);
      if (flag === CLOSED && (flags & SPENT) === 0) fail(`closed[${i}] ${hash} is not a spent account`);
      this.hashes.set(hash, flags | flag);
      return hash;
    });
  }

  signature(r: Fields): SignatureRecord {
    this.keys(r, ["type", "signature", "slot", "blockTime", "opened", "closed"]);
    const signature = r.signature;
    if (typeof signature !== "string" || !formats.signature(signature)) fail("signature must be a base58 64-byte signature");
    if (this.signatures.has(signature)) fail(`duplicate signature ${signature}`);
    const record: SignatureRecord = {
      signature,
      slot: this.slotOf(r.slot, "slot"),
      blockTime: this.int(r.blockTime, "blockTime") as number,
      opened: this.sides(r.opened, "opened"),
      closed: this.sides(r.closed, "closed"),
    };
    this.signatures.add(signature);
    return record;
  }

  address(r: Fields): AddressRecord {
    this.keys(r, ["type", "address", "tree", "slot", "queued"]);
    const address = this.pubkey(r.address, "address") as string;
    if (this.addresses.has(address)) fail(`duplicate address ${address}`);
    const [tree, treeType] = this.knownTree(r.tree, "tree", ["AddressV1", "AddressV2"], "an address tree");
    const queued = this.boolean(r.queued, "queued");
    if (queued && treeType !== "AddressV2") fail("queued may be true only in an AddressV2 tree");
    const record: AddressRecord = { address, tree, slot: this.slotOf(r.slot, "slot"), queued };
    this.addresses.add(address);
    return record;
  }
}

function meta(r: Fields): { slot: number; seed: number | null } {
  if (r.type !== "meta") fail('the first line must be the meta line {"type":"meta",…}');
  if (r.format !== FORMAT_NAME) fail(`format must be "${FORMAT_NAME}"`);
  if (r.version === 1) {
    fail(
      `version 1 files are no longer read (this reader knows version ${FORMAT_VERSION}: trees, addresses, signatures with opened/closed): regenerate the file`,
    );
  }
  if (r.version !== FORMAT_VERSION) fail(`unsupported version ${String(r.version)} (this reader knows ${FORMAT_VERSION})`);
  for (const k of Object.keys(r)) if (!["type", "format", "version", "slot", "seed"].includes(k)) fail(`unknown field "${k}"`);
  const slot = r.slot;
  if (typeof slot !== "number" || !Number.isSafeInteger(slot) || slot < 0) fail("slot must be a non-negative safe integer");
  const seed = r.seed ?? null;
  if (seed !== null && (typeof seed !== "number" || !Number.isSafeInteger(seed))) fail("seed must be a safe integer or null");
  return { slot, seed };
}

/** Reads a dataset file line by line, validating every value. Throws `DatasetFormatError`. */
export async function readDataset(path: string): Promise<Dataset> {
  const input = createReadStream(path);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  let checker: LineChecker | undefined;
  const dataset: Dataset = { seed: null, slot: 0, trees: [], accounts: [], tokens: [], signatures: [], addresses: [] };
  try {
    for await (const line of lines) {
      n++;
      let parsed: unknown;
      try {
        parsed = parseJson(line);
      } catch (err) {
        fail(line.trim() === "" ? "empty line" : `not JSON (${(err as Error).message})`);
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) fail("a line must be a JSON object");
      const record = parsed as Fields;
      if (checker === undefined) {
        const m = meta(record);
        dataset.slot = m.slot;
        dataset.seed = m.seed;
        checker = new LineChecker(m.slot);
        continue;
      }
      switch (record.type) {
        case "tree":
          dataset.trees.push(checker.tree(record));
          break;
        case "account":
          dataset.accounts.push(checker.account(record));
          break;
        case "token":
          dataset.tokens.push(checker.token(record));
          break;
        case "signature":
          dataset.signatures.push(checker.signature(record));
          break;
        case "address":
          dataset.addresses.push(checker.address(record));
          break;
        default:
          fail(record.type === "meta" ? "a second meta line" : `unknown record type ${JSON.stringify(record.type) ?? "(missing)"}`);
      }
    }
  } catch (err) {
    lines.close();
    input.destroy();
    if (err instanceof LineError) throw new DatasetFormatError(path, n, err.message);
    throw err;
  }
  if (checker === undefined) throw new DatasetFormatError(path, 1, "empty file: expected the meta line");
  return dataset;
}
