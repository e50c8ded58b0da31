/**
 * The runtime's base58 (runtime/base58.ts) against bs58, the library it replaces: encoding and
 * decoding 1,000 values of 32 bytes (keys, hashes) and of 64 bytes (signatures). bs58 stays in the
 * runtime only for a direction where ours is measured slower.
 */
import { createHash } from "node:crypto";
import bs58 from "bs58";
import { decodeBase58, encodeBase58 } from "../runtime/index.js";
import { figure, main, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { pairedRatio, summary } from "./lib/stats.js";
import { compare } from "./lib/tiny.js";

const COUNT = 1000;

/** `COUNT` values of `size` bytes, the same every run; one in sixteen with a leading zero byte. */
function values(size: number): Uint8Array[] {
  return Array.from({ length: COUNT }, (_, i) => {
    const bytes = new Uint8Array(size);
    for (let at = 0; at < size; at += 32)
      bytes.set(
        createHash("sha256")
          .update(`bench/base58 ${size} ${i} ${at}`)
          .digest()
          .subarray(0, size - at),
        at,
      );
    if (i % 16 === 0) bytes[0] = 0;
    return bytes;
  });
}

/** Both sides must give the same text and the same bytes before anything is timed. */
function sameAsBs58(list: readonly Uint8Array[], texts: readonly string[]): void {
  list.forEach((bytes, i) => {
    if (encodeBase58(bytes) !== texts[i]) throw new Error(`encodeBase58 differs from bs58 on value ${i}`);
    if (Buffer.compare(decodeBase58(texts[i]!)!, bytes) !== 0) throw new Error(`decodeBase58 differs from bs58 on value ${i}`);
  });
}

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const results: FigureResult[] = [];
  for (const size of [32, 64]) {
    const list = values(size);
    const texts = list.map((b) => bs58.encode(b));
    sameAsBs58(list, texts);
    let sink = 0;
    const times = await compare(
      [
        { name: "encode", fn: () => list.forEach((b) => void (sink += encodeBase58(b).length)) },
        { name: "bs58.encode", fn: () => list.forEach((b) => void (sink += bs58.encode(b).length)) },
        { name: "decode", fn: () => texts.forEach((t) => void (sink += decodeBase58(t)!.length)) },
        { name: "bs58.decode", fn: () => texts.forEach((t) => void (sink += bs58.decodeUnsafe(t)!.length)) },
      ],
      options.quick ? { rounds: 2, time: 200, warmupTime: 100 } : { rounds: 7, time: 500, warmupTime: 200 },
    );
    if (sink === 0) throw new Error("nothing was encoded");
    const t = (name: string) => times.get(name)!;
    const perSecond = (name: string) =>
      summary(
        t(name).rounds.map((ms) => (COUNT * 1000) / ms),
        0,
      );
    for (const [way, bs58Way] of [
      ["encode", "bs58.encode"],
      ["decode", "bs58.decodeUnsafe"],
    ] as const) {
      const baseline = way === "encode" ? "bs58.encode" : "bs58.decode";
      results.push(
        figure({
          id: `base58.${way}-${size}`,
          what: `${way} ${COUNT.toLocaleString("en-US")} base58 values of ${size} bytes (one in sixteen with a leading zero byte)`,
          ours: { label: `runtime ${way}Base58`, unit: "values/s", ...perSecond(way) },
          baseline: { label: `bs58 6 ${bs58Way}`, unit: "values/s", ...perSecond(baseline) },
          ratio: pairedRatio(t(baseline).rounds, t(way).rounds),
          ratioOf: "ours ÷ baseline throughput",
          aim: { op: ">=", value: 1, text: "no slower than bs58 (≥ 1×)" },
        }),
      );
    }
  }
  return { results };
}

await main(import.meta.url, "base58", run);
