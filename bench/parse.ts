/**
 * Parsing the 1000-item getCompressedTokenAccountsByOwner response losslessly (its v2/v3
 * discriminators exceed 2^53 and must arrive as bigint): runtime `parseJson` against plain
 * `JSON.parse` of the same text (which rounds them).
 */
import { parseJson } from "../runtime/index.js";
import { responseText, tokenAccountsPage } from "./lib/data.js";
import { figure, main, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { pairedRatio, summary } from "./lib/stats.js";
import { compare } from "./lib/tiny.js";

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const text = responseText(tokenAccountsPage(1000));
  const unsafe = [...text.matchAll(/\d{16,}/g)].filter((m) => BigInt(m[0]) > BigInt(Number.MAX_SAFE_INTEGER)).length;
  // The lossless path must keep them: check one of them before timing.
  const parsed = parseJson(text) as { result: { value: { items: { account: { data: { discriminator: unknown } | null } }[] } } };
  if (!parsed.result.value.items.some((i) => typeof i.account.data?.discriminator === "bigint"))
    throw new Error("parseJson did not keep the big discriminators");

  const times = await compare(
    [
      { name: "ours", fn: () => parseJson(text) },
      { name: "JSON.parse", fn: () => JSON.parse(text) },
    ],
    options.quick ? { rounds: 2, time: 200, warmupTime: 100 } : { rounds: 7, time: 500, warmupTime: 200 },
  );
  const t = (name: string) => times.get(name)!;
  const mbs = (name: string) =>
    summary(
      t(name).rounds.map((ms) => text.length / 1e6 / (ms / 1000)),
      1,
    );
  return {
    results: [
      figure({
        id: "parse",
        what: `parse that response losslessly (${Math.round(text.length / 1024)} KiB, ${unsafe} integers above 2^53)`,
        ours: { label: "runtime parseJson", unit: "MB/s", ...mbs("ours") },
        baseline: { label: "plain JSON.parse", unit: "MB/s", ...mbs("JSON.parse") },
        ratio: pairedRatio(t("JSON.parse").rounds, t("ours").rounds),
        ratioOf: "ours ÷ baseline throughput",
        aim: { op: ">=", value: 0.5, text: "≥ 0.5×" },
      }),
    ],
  };
}

await main(import.meta.url, "parse", run);
