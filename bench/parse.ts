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

/**
 * The least the lossless parser's scan can do: step from quote to quote with `indexOf` (to pass
 * over strings, where digits are not numbers), nothing else. Returns the count so the loop is kept.
 */
function quotesOf(text: string): number {
  let n = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) n++;
  return n;
}

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
      { name: "quotes", fn: () => quotesOf(text) },
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
        notes: [boundNote(mbs("JSON.parse").value, mbs("quotes").value)],
      }),
    ],
  };
}

/** What bounds the figure: JSON.parse itself, plus a scan that at least passes over every string. */
function boundNote(parse: number, quotes: number): string {
  const bound = 1 / (1 / parse + 1 / quotes);
  return (
    "bounded by JSON.parse itself (it does the parsing) plus one scan of the text outside its strings for the integers above 2^53 and where they sit; " +
    `that scan's floor, stepping from quote to quote with indexOf and nothing else, runs at ${Math.round(quotes)} MB/s here, ` +
    `so no parser of this design passes ${Math.round(bound)} MB/s (${(bound / parse).toFixed(2)}× JSON.parse)`
  );
}

await main(import.meta.url, "parse", run);
