import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DatasetFormatError, readDataset, writeDataset } from "../../reference/dataset-file.js";
import { TOKEN_PROGRAM, U64_MAX } from "../../reference/records.js";
import type { AccountRecord, Dataset } from "../../reference/records.js";
import { encodeBase58, parseJson, stringifyJson } from "../../runtime/index.js";
import { dataset } from "./fixture.js";

const dir = mkdtempSync(join(tmpdir(), "reference-format-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const path = () => join(dir, `d${files++}.jsonl`);

const HASH = "1ff5FKJFi8JBHJZjsgiSLTgBHksysbq2258d9MhGWJN";
const HASH2 = "32MoWX6Czqhf1nEf8kd7wow5jCVWaBFAa4sohSU4MuYH";
const KEY = "3d6TQRZRWT26fEZBqEGAorfsFBeRKTgcX1yXrgRHrkiq";
const SIG = "5RaQPUHLbz26L9jhG5eF4Aq5B4UzXs1gNpihXRqhjkLxnL1H3XMcj3JUzxHB6hSTxxhYQ4aEGJ4sD1D2Y6pCAuRZ";
const SIG2 = encodeBase58(new Uint8Array(64).fill(7));
const SMT1 = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT";
const AMT1 = "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2";
const AMT2 = "amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx";
const BMT1 = "bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU";
const OQ1 = "oq1na8gojfdUhsfCpyjNt6h4JaDWtHf1yQj4koBWfto";

/**
 * A tiny hand-made dataset: a V1 state tree and a batched address tree, one program account,
 * one token account with u64::MAX values (opened with it, then closed), one queued address.
 */
const tiny: Dataset = {
  seed: null,
  slot: 500,
  trees: [
    { tree: SMT1, queue: "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148", type: "StateV1", height: 26, rootHistory: 2400, cpiContext: KEY, seq: 3 },
    { tree: AMT2, queue: AMT2, type: "AddressV2", height: 40, rootHistory: 200, cpiContext: null, seq: 0 },
  ],
  accounts: [
    {
      hash: HASH,
      address: KEY,
      data: { discriminator: U64_MAX, data: "AQID", dataHash: HASH2 },
      owner: KEY,
      lamports: U64_MAX,
      tree: SMT1,
      leafIndex: 0,
      seq: 1,
      slotCreated: 10,
      spent: false,
      inInputQueue: false,
      inOutputQueue: false,
    },
    {
      hash: HASH2,
      address: null,
      data: null,
      owner: TOKEN_PROGRAM,
      lamports: 0,
      tree: SMT1,
      leafIndex: 1,
      seq: 2,
      slotCreated: 10,
      spent: true,
      inInputQueue: false,
      inOutputQueue: false,
    },
  ],
  tokens: [{ hash: HASH2, mint: KEY, owner: KEY, amount: U64_MAX, delegate: null, state: "frozen", tlv: "AA==" }],
  signatures: [
    { signature: SIG, slot: 10, blockTime: 1_732_000_000, opened: [HASH, HASH2], closed: [] },
    { signature: SIG2, slot: 20, blockTime: 1_732_000_004, opened: [], closed: [HASH2] },
  ],
  addresses: [{ address: KEY, tree: AMT2, slot: 10, queued: true }],
};

async function linesOf(d: Dataset): Promise<string[]> {
  const p = path();
  await writeDataset(d, p);
  return readFileSync(p, "utf8").trimEnd().split("\n");
}

async function readError(lines: string[]): Promise<DatasetFormatError> {
  const p = path();
  writeFileSync(p, lines.length === 0 ? "" : `${lines.join("\n")}\n`);
  try {
    await readDataset(p);
  } catch (err) {
    expect(err).toBeInstanceOf(DatasetFormatError);
    return err as DatasetFormatError;
  }
  throw new Error("readDataset accepted a malformed file");
}

describe("dataset file format", () => {
  it("writes a meta line then one record per line (trees, accounts, tokens, signatures, addresses), u64 as bare integers", async () => {
    const lines = await linesOf(tiny);
    expect(lines).toHaveLength(9);
    expect(lines[0]).toBe('{"type":"meta","format":"photon-reference-dataset","version":2,"slot":500,"seed":null}');
    expect(lines[2]).toBe(`{"type":"tree","tree":"${AMT2}","queue":"${AMT2}","treeType":"AddressV2","height":40,"rootHistory":200,"cpiContext":null,"seq":0}`);
    expect(lines[3]).toContain('"lamports":18446744073709551615');
    expect(lines[3]).toContain('"discriminator":18446744073709551615');
    expect(lines[4]).toMatch(/"seq":2,"slotCreated":10,"spent":true,"inInputQueue":false,"inOutputQueue":false}$/);
    expect(lines[5]).toBe(
      `{"type":"token","hash":"${HASH2}","mint":"${KEY}","owner":"${KEY}","amount":18446744073709551615,"delegate":null,"state":"frozen","tlv":"AA=="}`,
    );
    expect(lines[6]).toBe(`{"type":"signature","signature":"${SIG}","slot":10,"blockTime":1732000000,"opened":["${HASH}","${HASH2}"],"closed":[]}`);
    expect(lines[7]).toBe(`{"type":"signature","signature":"${SIG2}","slot":20,"blockTime":1732000004,"opened":[],"closed":["${HASH2}"]}`);
    expect(lines[8]).toBe(`{"type":"address","address":"${KEY}","tree":"${AMT2}","slot":10,"queued":true}`);
  });

  it("round-trips the tiny dataset and the default generated one exactly", async () => {
    const p = path();
    await writeDataset(tiny, p);
    expect(await readDataset(p)).toEqual(tiny);
    const q = path();
    await writeDataset(dataset, q);
    const back = await readDataset(q);
    expect(back).toEqual(dataset);
    const r = path();
    await writeDataset(back, r);
    expect(readFileSync(r).equals(readFileSync(q))).toBe(true);
  });

  it("keeps a batched tree's accounts as Photon sends them: seq null for each, inOutputQueue marking the queued ones", async () => {
    const batched: Dataset = {
      seed: null,
      slot: 30,
      trees: [{ tree: BMT1, queue: OQ1, type: "StateV2", height: 32, rootHistory: 200, cpiContext: KEY, seq: 1 }],
      accounts: [
        { ...(tiny.accounts[0] as AccountRecord), tree: BMT1, seq: null, inOutputQueue: false },
        { ...(tiny.accounts[1] as AccountRecord), tree: BMT1, seq: null, spent: false, inOutputQueue: true },
      ],
      tokens: [],
      signatures: [{ signature: SIG, slot: 10, blockTime: 1_732_000_000, opened: [HASH, HASH2], closed: [] }],
      addresses: [],
    };
    const lines = await linesOf(batched);
    expect(lines[2]).toMatch(/"seq":null,"slotCreated":10,"spent":false,"inInputQueue":false,"inOutputQueue":false}$/);
    expect(lines[3]).toMatch(/"seq":null,"slotCreated":10,"spent":false,"inInputQueue":false,"inOutputQueue":true}$/);
    const p = path();
    await writeDataset(batched, p);
    expect(await readDataset(p)).toEqual(batched);
    // A seq in a batched tree is what Photon never sends, queued or not.
    for (const at of [2, 3]) {
      const record = parseJson(lines[at] as string) as Record<string, unknown>;
      record.seq = 1;
      const err = await readError(lines.map((l, i) => (i === at ? stringifyJson(record) : l)));
      expect([err.line, err.message]).toEqual([at + 1, expect.stringMatching(/seq must be null exactly for an account of a StateV2 tree/)]);
    }
  });

  it("fails cleanly when the file cannot be written or read", async () => {
    await expect(writeDataset(tiny, join(dir, "missing", "x.jsonl"))).rejects.toThrow(/ENOENT/);
    await expect(readDataset(join(dir, "missing.jsonl"))).rejects.toThrow(/ENOENT/);
  });
});

describe("readDataset errors name the line", () => {
  const good = async () => linesOf(tiny);
  const replace = (lines: string[], n: number, change: (record: Record<string, unknown>) => void) => {
    const record = parseJson(lines[n - 1] as string) as Record<string, unknown>;
    change(record);
    const copy = [...lines];
    copy[n - 1] = stringifyJson(record);
    return copy;
  };

  it.each([
    ["not JSON", (l: string[]) => [...l.slice(0, 2), "{not json", ...l.slice(3)], 3, /not JSON/],
    ["an empty line", (l: string[]) => [...l.slice(0, 2), "", ...l.slice(2)], 3, /empty line/],
    ["a JSON array", (l: string[]) => [...l.slice(0, 1), "[1]", ...l.slice(1)], 2, /JSON object/],
    ["an unknown record type", (l: string[]) => [...l, '{"type":"block","slot":1}'], 10, /unknown record type "block"/],
    ["a missing type", (l: string[]) => [...l, '{"slot":1}'], 10, /unknown record type \(missing\)/],
    ["a second meta line", (l: string[]) => [...l, l[0] as string], 10, /second meta/],
    ["an address twice", (l: string[]) => [...l, l[8] as string], 10, /duplicate address/],
    [
      "a queued address of a V1 address tree",
      (l: string[]) => [
        ...l.slice(0, 3),
        `{"type":"tree","tree":"${AMT1}","queue":"${KEY}","treeType":"AddressV1","height":26,"rootHistory":2400,"cpiContext":null,"seq":0}`,
        ...l.slice(3),
        `{"type":"address","address":"${HASH}","tree":"${AMT1}","slot":10,"queued":true}`,
      ],
      11,
      /queued may be true only in an AddressV2 tree/,
    ],
    [
      "an account before its tree",
      (l: string[]) => [l[0] as string, l[3] as string, ...l.slice(1, 3), ...l.slice(4)],
      2,
      /tree .* is not a state tree of an earlier tree line/,
    ],
  ])("%s", async (_name, corrupt, line, message) => {
    const err = await readError(corrupt(await good()));
    expect(err.line).toBe(line);
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(new RegExp(`\\.jsonl:${line}: `));
  });

  type Line = Record<string, unknown>;
  it.each([
    ["a tree twice", 3, (r: Line) => (r.tree = SMT1), /duplicate tree/],
    ["an unknown tree type", 2, (r: Line) => (r.treeType = "StateV3"), /treeType must be one of StateV1, AddressV1, StateV2, AddressV2/],
    ["a zero height", 2, (r: Line) => (r.height = 0), /height must be between 1 and 64/],
    ["a negative tree seq", 2, (r: Line) => (r.seq = -1), /seq must be a non-negative safe integer/],
    ["an invalid hash", 4, (r: Line) => (r.hash = "0OIl"), /hash must be a base58 32-byte hash/],
    ["a 31-byte owner", 4, (r: Line) => (r.owner = "1111111111111111111111111111111"), /owner must be a base58 32-byte public key/],
    ["a negative lamports", 4, (r: Line) => (r.lamports = -1), /lamports must be an integer in 0\.\.18446744073709551615/],
    ["a fractional leafIndex", 4, (r: Line) => (r.leafIndex = 1.5), /leafIndex must be a non-negative safe integer/],
    ["bad base64 data", 4, (r: Line) => ((r.data as Line).data = "AQI"), /data\.data must be standard base64/],
    ["an unknown field", 4, (r: Line) => (r.extra = 1), /unknown field "extra"/],
    ["a missing field", 4, (r: Line) => delete r.seq, /missing field "seq"/],
    ["a missing inInputQueue", 4, (r: Line) => delete r.inInputQueue, /missing field "inInputQueue"/],
    ["an account in an address tree", 4, (r: Line) => (r.tree = AMT2), /tree .* is not a state tree of an earlier tree line/],
    ["a missing inOutputQueue", 4, (r: Line) => delete r.inOutputQueue, /missing field "inOutputQueue"/],
    ["a null seq in a V1 tree", 4, (r: Line) => (r.seq = null), /seq must be null exactly for an account of a StateV2 tree/],
    ["inOutputQueue in a V1 tree", 4, (r: Line) => (r.inOutputQueue = true), /inOutputQueue may be true only for an account of a StateV2 tree/],
    ["a non-boolean inOutputQueue", 4, (r: Line) => (r.inOutputQueue = 0), /inOutputQueue must be a boolean/],
    ["inInputQueue in a V1 tree", 5, (r: Line) => (r.inInputQueue = true), /inInputQueue may be true only for a spent account of a StateV2 tree/],
    ["a non-boolean spent", 5, (r: Line) => (r.spent = "no"), /spent must be a boolean/],
    ["a slot after the dataset slot", 5, (r: Line) => (r.slotCreated = 501), /slotCreated 501 is after the dataset slot 500/],
    ["a duplicate account hash", 5, (r: Line) => (r.hash = HASH), /duplicate account hash/],
    ["a token of an unknown account", 6, (r: Line) => (r.hash = KEY), /not the hash of an earlier account line/],
    ["a bad token state", 6, (r: Line) => (r.state = "closed"), /state must be/],
    ["a short signature", 7, (r: Line) => (r.signature = HASH), /signature must be a base58 64-byte signature/],
    ["a signature of an unknown account", 7, (r: Line) => (r.opened = [HASH, KEY]), /opened\[1\] .* earlier account line/],
    ["the old accounts field", 7, (r: Line) => (r.accounts = [HASH]), /unknown field "accounts"/],
    ["closed not a list", 7, (r: Line) => (r.closed = HASH), /closed must be an array of account hashes/],
    ["an unspent account closed", 7, (r: Line) => (r.closed = [HASH]), /closed\[0\] .* is not a spent account/],
    ["an account opened twice", 8, (r: Line) => (r.opened = [HASH2]), /opened\[0\] .* is opened by an earlier signature line too/],
    ["an account closed twice", 8, (r: Line) => (r.closed = [HASH2, HASH2]), /closed\[1\] .* is closed by an earlier signature line too/],
    ["an address in a state tree", 9, (r: Line) => (r.tree = SMT1), /tree .* is not an address tree of an earlier tree line/],
    ["a 31-byte address", 9, (r: Line) => (r.address = "1111111111111111111111111111111"), /address must be a base58 32-byte public key/],
    ["a non-boolean queued", 9, (r: Line) => (r.queued = 1), /queued must be a boolean/],
    ["an address slot after the dataset slot", 9, (r: Line) => (r.slot = 501), /slot 501 is after the dataset slot 500/],
    ["a wrong format name", 1, (r: Line) => (r.format = "other"), /format must be "photon-reference-dataset"/],
    ["an unsupported version", 1, (r: Line) => (r.version = 3), /unsupported version 3/],
    ["a version 1 file", 1, (r: Line) => (r.version = 1), /version 1 files are no longer read .*regenerate the file/],
  ])("%s", async (_name, line, change, message) => {
    const err = await readError(replace(await good(), line, change));
    expect(err.line).toBe(line);
    expect(err.message).toMatch(message);
  });

  it("rejects u64 values above u64::MAX without rounding them", async () => {
    const lines = await good();
    const err = await readError([
      lines[0] as string,
      ...lines.slice(1, 3),
      (lines[3] as string).replace('"lamports":18446744073709551615', '"lamports":18446744073709551616'),
      ...lines.slice(4),
    ]);
    expect(err.line).toBe(4);
    expect(err.message).toMatch(/lamports/);
  });

  it("requires the meta line first and a non-empty file", async () => {
    const lines = await good();
    expect((await readError(lines.slice(1))).message).toMatch(/:1: the first line must be the meta line/);
    expect((await readError([])).message).toMatch(/:1: empty file/);
  });
});
