/**
 * Validating a 1000-item getCompressedTokenAccountsByOwner result: the generated standalone
 * ajv validator (through runtime `validate`) against a zod schema of the same shape, and
 * against ajv compiling the same normalised schema at run time (cold start included: a new
 * Ajv, the schemas added and compiled, then the one validation).
 */
import { methodValidators } from "../generated/index.js";
import { validate } from "../runtime/index.js";
import { compileAtRunTime, resultSchemaOf, specModel } from "./lib/ajv-runtime.js";
import { asReceived, tokenAccountsPage } from "./lib/data.js";
import { figure, main, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { pairedRatio, summary } from "./lib/stats.js";
import { compare } from "./lib/tiny.js";
import { tokenAccountsResult } from "./lib/zod-schema.js";

type Page = ReturnType<typeof tokenAccountsPage>;

/** The three validators must agree on the valid page and on a few broken copies. */
function sanityCheck(value: Page, ours: (v: unknown) => boolean, zod: (v: unknown) => boolean, ajv: (v: unknown) => boolean): void {
  const broken: [string, (p: Page) => void][] = [
    ["31-byte delegate", (p) => void (p.value.items[500]!.tokenData.delegate = "1111111111111111111111111111111")],
    ["negative amount", (p) => void (p.value.items[999]!.tokenData.amount = -1)],
    ["u64 overflow", (p) => void (p.value.items[3]!.account.lamports = 18446744073709551616n)],
    ["unknown account field", (p) => void ((p.value.items[7]!.account as Record<string, unknown>).extra = 1)],
    ["bad base64", (p) => void (p.value.items[1]!.account.data = { discriminator: 2, data: "abc", dataHash: p.value.items[1]!.account.hash })],
    ["missing nullable field", (p) => void delete (p.value.items[2]!.tokenData as Partial<Page["value"]["items"][number]["tokenData"]>).tlv],
  ];
  for (const [name, v] of [
    ["ours", ours],
    ["zod", zod],
    ["ajv", ajv],
  ] as const) {
    if (!v(value)) throw new Error(`${name} rejects the valid page`);
    for (const [what, breakIt] of broken) {
      const copy = asReceived(value);
      breakIt(copy);
      if (v(copy)) throw new Error(`${name} accepts a page with a ${what}`);
    }
  }
}

/** The least any validator does: visit every value of the result once and read its type. Returns the count so the walk is kept. */
function valuesIn(value: unknown): number {
  if (typeof value !== "object" || value === null) return 1;
  let n = 1;
  if (Array.isArray(value)) for (const v of value) n += valuesIn(v);
  else for (const key of Object.keys(value)) n += valuesIn((value as Record<string, unknown>)[key]);
  return n;
}

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const value = asReceived(tokenAccountsPage(1000));
  const fn = methodValidators.getCompressedTokenAccountsByOwner.result;
  const schemas = resultSchemaOf(await specModel(), "getCompressedTokenAccountsByOwner");

  const ours = () => validate(fn, value).length === 0;
  const zod = () => tokenAccountsResult.safeParse(value).success;
  const ajvCold = () => compileAtRunTime(schemas)(value);
  sanityCheck(
    value,
    (v) => validate(fn, v).length === 0,
    (v) => tokenAccountsResult.safeParse(v).success,
    (v) => compileAtRunTime(schemas)(v),
  );

  const times = await compare(
    [
      { name: "ours", fn: ours },
      { name: "zod", fn: zod },
      { name: "ajv", fn: ajvCold },
      { name: "walk", fn: () => valuesIn(value) },
    ],
    options.quick ? { rounds: 2, time: 200, warmupTime: 100 } : { rounds: 7, time: 500, warmupTime: 200 },
  );
  const t = (name: string) => times.get(name)!;
  const hz = (name: string) =>
    summary(
      t(name).rounds.map((ms) => 1000 / ms),
      1,
    );
  const o = hz("ours");
  return {
    results: [
      figure({
        id: "validate.zod",
        what: "validate a 1000-item getCompressedTokenAccountsByOwner result",
        ours: { label: "generated standalone ajv validator", unit: "validations/s", ...o },
        baseline: { label: "zod 4 schema of the same shape", unit: "validations/s", ...hz("zod") },
        ratio: pairedRatio(t("zod").rounds, t("ours").rounds),
        ratioOf: "ours ÷ baseline throughput",
        aim: { op: ">=", value: 5, text: "≥ 5× zod throughput" },
        notes: [
          `floor: a bare walk visiting each of the result's ${valuesIn(value).toLocaleString("en-US")} values once and reading its type, nothing checked: ` +
            `${Math.round(hz("walk").value).toLocaleString("en-US")} walks/s; ours runs at ${(o.value / hz("walk").value).toFixed(2)}× that`,
          "ours above the floor: the checks themselves (types, required and unknown keys, integer ranges) and the formats, the most of it: " +
            "each base58 value's byte count (pubkeys and hashes: 32 bytes) and each base64 text",
        ],
      }),
      figure({
        id: "validate.ajv-cold",
        what: "validate the same result, ajv compiling at run time (cold start included)",
        ours: { label: "generated standalone ajv validator", unit: "validations/s", ...o },
        baseline: { label: "new Ajv + compile + validate", unit: "validations/s", ...hz("ajv") },
        ratio: pairedRatio(t("ajv").rounds, t("ours").rounds),
        ratioOf: "ours ÷ baseline throughput",
        aim: null,
        notes: ["the issue sets no separate aim for this baseline"],
      }),
    ],
  };
}

await main(import.meta.url, "validate", run);
