import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DatasetFormatError, readDataset, writeDataset } from "../../reference/dataset-file.js";
import { TOKEN_PROGRAM, U64_MAX } from "../../reference/records.js";
import type { Dataset } from "../../reference/records.js";
import { parseJson, stringifyJson } from "../../runtime/index.js";
import { dataset } from "./fixture.js";

const dir = mkdtempSync(join(tmpdir(), "reference-format-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const path = () => join(dir, `d${files++}.jsonl`);

const HASH = "1ff5FKJFi8JBHJZjsgiSLTgBHksysbq2258d9MhGWJN";
const HASH2 = "32MoWX6Czqhf1nEf8kd7wow5jCVWaBFAa4sohSU4MuYH";
const KEY = "3d6TQRZRWT26fEZBqEGAorfsFBeRKTgcX1yXrgRHrkiq";
const SIG = "5RaQPUHLbz26L9jhG5eF4Aq5B4UzXs1gNpihXRqhjkLxnL1H3XMcj3JUzxHB6hSTxxhYQ4aEGJ4sD1D2Y6pCAuRZ";

/** A tiny hand-made dataset: one program account, one token account with u64::MAX values. */
const tiny: Dataset = {
  seed: null,
  slot: 500,
  accounts: [
    {
      hash: HASH,
      address: KEY,
      data: { discriminator: U64_MAX, data: "AQID", dataHash: HASH2 },
      owner: KEY,
      lamports: U64_MAX,
      tree: KEY,
      leafIndex: 0,
      seq: 1,
      slotCreated: 10,
      spent: false,
    },
    { hash: HASH2, address: null, data: null, owner: TOKEN_PROGRAM, lamports: 0, tree: KEY, leafIndex: 1, seq: null, slotCreated: 20, spent: true },
  ],
  tokens: [{ hash: HASH2, mint: KEY, owner: KEY, amount: U64_MAX, delegate: null, state: "frozen", tlv: "AA==" }],
  signatures: [{ signature: SIG, slot: 20, blockTime: 1_732_000_000, accounts: [HASH2] }],
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
  it("writes a meta line then one record per line, u64 as bare integers", async () => {
    const lines = await linesOf(tiny);
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('{"type":"meta","format":"photon-reference-dataset","version":1,"slot":500,"seed":null}');
    expect(lines[1]).toContain('"lamports":18446744073709551615');
    expect(lines[1]).toContain('"discriminator":18446744073709551615');
    expect(lines[3]).toBe(
      `{"type":"token","hash":"${HASH2}","mint":"${KEY}","owner":"${KEY}","amount":18446744073709551615,"delegate":null,"state":"frozen","tlv":"AA=="}`,
    );
    expect((parseJson(lines[4] as string) as { type: string }).type).toBe("signature");
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
    ["an unknown record type", (l: string[]) => [...l, '{"type":"block","slot":1}'], 6, /unknown record type "block"/],
    ["a missing type", (l: string[]) => [...l, '{"slot":1}'], 6, /unknown record type \(missing\)/],
    ["a second meta line", (l: string[]) => [...l, l[0] as string], 6, /second meta/],
  ])("%s", async (_name, corrupt, line, message) => {
    const err = await readError(corrupt(await good()));
    expect(err.line).toBe(line);
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(new RegExp(`\\.jsonl:${line}: `));
  });

  it.each([
    ["an invalid hash", 2, (r: Record<string, unknown>) => (r.hash = "0OIl"), /hash must be a base58 32-byte hash/],
    ["a 31-byte owner", 2, (r: Record<string, unknown>) => (r.owner = "1111111111111111111111111111111"), /owner must be a base58 32-byte public key/],
    ["a negative lamports", 2, (r: Record<string, unknown>) => (r.lamports = -1), /lamports must be an integer in 0\.\.18446744073709551615/],
    ["a fractional leafIndex", 2, (r: Record<string, unknown>) => (r.leafIndex = 1.5), /leafIndex must be a non-negative safe integer/],
    ["bad base64 data", 2, (r: Record<string, unknown>) => ((r.data as Record<string, unknown>).data = "AQI"), /data\.data must be standard base64/],
    ["an unknown field", 2, (r: Record<string, unknown>) => (r.extra = 1), /unknown field "extra"/],
    ["a missing field", 2, (r: Record<string, unknown>) => delete r.seq, /missing field "seq"/],
    ["a non-boolean spent", 3, (r: Record<string, unknown>) => (r.spent = "no"), /spent must be a boolean/],
    ["a slot after the dataset slot", 3, (r: Record<string, unknown>) => (r.slotCreated = 501), /slotCreated 501 is after the dataset slot 500/],
    ["a duplicate account hash", 3, (r: Record<string, unknown>) => (r.hash = HASH), /duplicate account hash/],
    ["a token of an unknown account", 4, (r: Record<string, unknown>) => (r.hash = KEY), /not the hash of an earlier account line/],
    ["a bad token state", 4, (r: Record<string, unknown>) => (r.state = "closed"), /state must be/],
    ["a short signature", 5, (r: Record<string, unknown>) => (r.signature = HASH), /signature must be a base58 64-byte signature/],
    ["a signature of an unknown account", 5, (r: Record<string, unknown>) => (r.accounts = [HASH, KEY]), /accounts\[1\] .* earlier account line/],
    ["a wrong format name", 1, (r: Record<string, unknown>) => (r.format = "other"), /format must be "photon-reference-dataset"/],
    ["an unsupported version", 1, (r: Record<string, unknown>) => (r.version = 2), /unsupported version 2/],
  ])("%s", async (_name, line, change, message) => {
    const err = await readError(replace(await good(), line, change));
    expect(err.line).toBe(line);
    expect(err.message).toMatch(message);
  });

  it("rejects u64 values above u64::MAX without rounding them", async () => {
    const lines = await good();
    const err = await readError([
      lines[0] as string,
      (lines[1] as string).replace('"lamports":18446744073709551615', '"lamports":18446744073709551616'),
      ...lines.slice(2),
    ]);
    expect(err.line).toBe(2);
    expect(err.message).toMatch(/lamports/);
  });

  it("requires the meta line first and a non-empty file", async () => {
    const lines = await good();
    expect((await readError(lines.slice(1))).message).toMatch(/:1: the first line must be the meta line/);
    expect((await readError([])).message).toMatch(/:1: empty file/);
  });
});
