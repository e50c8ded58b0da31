import type { Generated, Startup } from "../children/trees.js";
import { figure, fmtNumber, type BenchOptions, type FigureResult } from "../lib/figure.js";
import { runTs } from "../lib/proc.js";
import { inTurns, median, pairedRatio, round, summary } from "../lib/stats.js";
import { CHILD } from "./http.js";

/** 1. Start-up: fresh child processes, alternating with and without the background tree build. */
export async function startupFigures(options: BenchOptions): Promise<FigureResult[]> {
  const rounds = options.quick ? 2 : 9;
  const one = async <T>(args: string[]): Promise<T> => {
    const done = await runTs(CHILD, args);
    if (done.code !== 0) throw new Error(`${CHILD} ${args.join(" ")} exited ${done.code}: ${done.stderr.slice(0, 500)}`);
    return JSON.parse(done.stdout.trim().split("\n").pop() ?? "{}") as T;
  };
  const ours: Startup[] = [];
  const base: Startup[] = [];
  const gen: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const order = inTurns(r, ["ours", "base"] as const);
    for (const side of order) {
      if (side === "ours") ours.push(await one<Startup>(["startup"]));
      else base.push(await one<Startup>(["startup", "--no-warm"]));
    }
    gen.push((await one<Generated>(["generate"])).generateMs);
  }
  const total = (list: Startup[]) => list.map((s) => s.totalMs);
  const oursTotal = summary(total(ours), 1);
  const baseTotal = summary(total(base), 1);
  const answer = (list: Startup[]) => round(median(list.map((s) => s.answerMs)), 1);
  const listen = (list: Startup[]) => round(median(list.map((s) => s.listenMs)), 1);
  const method = ours[0]!.method;
  const hashes = median(ours.map((s) => s.hashes));
  const built = [...new Set(ours.flatMap((s) => s.built))];
  const breakdown = [
    `startReferenceIndexer() to listening: ours ${listen(ours)} ms, baseline ${listen(base)} ms (medians); listening to the first answer: ours ${answer(ours)} ms, baseline ${answer(base)} ms`,
    `generateDataset() alone (the default dataset, in the same kind of fresh process): ${round(median(gen), 1)} ms median (runs: ${gen.map((g) => round(g, 0)).join(", ")})`,
    `by the first answer the background build had made ${fmtNumber(hashes)} Poseidon calls (median) and started ${built.length ? built.map((t) => t.slice(0, 4)).join(", ") : "no tree"}; the baseline none`,
  ];
  return [
    figure({
      id: "trees.startup",
      what: `reference start-up with the default dataset (20,000 accounts) to its first answer (${method}, as \`npm start\` waits for), fresh process per run, ${rounds} runs each`,
      ours: { label: "startReferenceIndexer() (trees built in the background)", unit: "ms", ...oursTotal },
      baseline: { label: "the same with warmTrees: false (no tree built)", unit: "ms", ...baseTotal },
      ratio: pairedRatio(total(ours), total(base)),
      ratioOf: "ours ÷ baseline start-up time",
      aim: { op: "<=", value: 1.1, text: "trees add nothing (≤ 1.1×)" },
      notes: [
        ...breakdown,
        "the 10% tolerance covers process-start noise on a shared machine; the forest's constructor (both sides) indexes 9 tree records and hashes nothing",
      ],
    }),
    figure({
      id: "trees.startup-time",
      what: "the same start-up, absolute (startReferenceIndexer() called to the first answer received; module loading not included)",
      ours: { label: "startReferenceIndexer() to first answer", unit: "ms", ...oursTotal },
      baseline: null,
      ratio: null,
      ratioOf: "absolute",
      aim: { op: "<", value: 1000, text: "< 1 s" },
    }),
  ];
}
