import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { runSuite, type RunOptions } from "../../conformance/run.js";
import { cliRunOptions, DEFAULT_CONCURRENCY, referenceFixtures } from "../lib/suite-options.js";

interface Ask {
  readonly concurrency: number;
  readonly shard: { readonly index: number; readonly total: number };
}
interface Answer {
  readonly results: number;
  readonly passed: boolean;
  readonly ms: number;
}

const fixtures = await referenceFixtures();
const optionsFor = (url: string, concurrency: number, shard?: Ask["shard"]): RunOptions =>
  cliRunOptions(url, fixtures, { concurrency, ...(shard ? { shard } : {}) });

async function timed(options: RunOptions): Promise<Answer> {
  const t0 = performance.now();
  const summary = await runSuite(options);
  return { results: summary.results.length, passed: summary.passed, ms: performance.now() - t0 };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

if (!isMainThread) {
  const url = workerData as string;
  parentPort!.on("message", (ask: Ask) => {
    void timed(optionsFor(url, ask.concurrency, ask.shard)).then((answer) => parentPort!.postMessage(answer));
  });
} else {
  const { startReference } = await import("../lib/reference.js");
  const reference = await startReference();
  const url = reference.info.url;
  // The worker runs this file's TypeScript through tsx, as the main thread does.
  const worker = new Worker(new URL("./suite-sharded-worker.mjs", import.meta.url), { workerData: url });
  // One question at a time: the answer, or the worker's error or exit, settles it.
  let pending: { resolve(a: Answer): void; reject(e: Error): void } | null = null;
  const settle = (f: (p: NonNullable<typeof pending>) => void) => {
    const p = pending;
    pending = null;
    if (p) f(p);
  };
  worker.on("message", (a: Answer) => settle((p) => p.resolve(a)));
  worker.on("error", (e: Error) => settle((p) => p.reject(e)));
  worker.on("exit", (code) => settle((p) => p.reject(new Error(`the worker exited (${code})`))));
  const inWorker = (ask: Ask) =>
    new Promise<Answer>((resolve, reject) => {
      pending = { resolve, reject };
      worker.postMessage(ask);
    });
  // Each half of the cases with half the default's cases in flight: as many in flight in all as one thread runs.
  const HALF = Math.max(1, Math.floor(DEFAULT_CONCURRENCY / 2));
  const half = (index: number): Ask => ({ concurrency: HALF, shard: { index, total: 2 } });
  const sharded = async (): Promise<Answer> => {
    const t0 = performance.now();
    const [a, b] = await Promise.all([timed(optionsFor(url, HALF, half(1).shard)), inWorker(half(2))]);
    return { results: a.results + b.results, passed: a.passed && b.passed, ms: performance.now() - t0 };
  };
  try {
    const rounds = Number(process.argv[2] ?? 12);
    for (let i = 0; i < 3; i++) {
      await timed(optionsFor(url, DEFAULT_CONCURRENCY));
      await sharded();
    }
    const single: number[] = [];
    const split: number[] = [];
    for (let i = 0; i < rounds; i++) {
      // In turns, so that neither way always runs right after the other.
      let a: Answer;
      let b: Answer;
      if (i % 2 === 0) {
        a = await timed(optionsFor(url, DEFAULT_CONCURRENCY));
        b = await sharded();
      } else {
        b = await sharded();
        a = await timed(optionsFor(url, DEFAULT_CONCURRENCY));
      }
      if (a.results !== b.results || !a.passed || !b.passed)
        throw new Error(`the two ways differ: ${a.results} and ${b.results} results, passed ${a.passed} and ${b.passed}`);
      single.push(a.ms);
      split.push(b.ms);
    }
    const alone1: number[] = [];
    const alone2: number[] = [];
    for (let i = 0; i < Math.max(3, rounds >> 1); i++) {
      alone1.push((await timed(optionsFor(url, HALF, half(1).shard))).ms);
      alone2.push((await inWorker(half(2))).ms);
    }
    console.log(`${`single thread, ${DEFAULT_CONCURRENCY} in flight:`.padEnd(40)} ${median(single).toFixed(0)} ms (median of ${rounds})`);
    console.log(`${`main + worker thread, ${HALF} in flight each:`.padEnd(40)} ${median(split).toFixed(0)} ms`);
    console.log(`  shard 1/2 alone on the main thread:    ${median(alone1).toFixed(0)} ms`);
    console.log(`  shard 2/2 alone in the worker:         ${median(alone2).toFixed(0)} ms`);
  } finally {
    await worker.terminate();
    await reference.stop();
  }
}
