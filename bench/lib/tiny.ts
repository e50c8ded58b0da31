/**
 * In-process comparisons with tinybench: the tasks run side by side in several rounds (their
 * order rotated each round), each round warmed up first; a round's value is the task's median
 * latency, and the figure is the median over rounds.
 */
import { Bench } from "tinybench";
import { median } from "./stats.js";

export interface Task {
  readonly name: string;
  readonly fn: () => unknown;
}

export interface CompareOptions {
  readonly rounds: number;
  /** Measuring time per task per round, ms. */
  readonly time: number;
  /** Warm-up time per task per round, ms. */
  readonly warmupTime: number;
  /** Minimum iterations per task per round. */
  readonly iterations?: number;
}

export interface TaskTimes {
  /** Median latency per round, ms. */
  readonly rounds: number[];
  /** Median over rounds, ms. */
  readonly ms: number;
  /** Operations per second at that latency. */
  readonly hz: number;
  readonly samples: number;
}

export async function compare(tasks: readonly Task[], options: CompareOptions): Promise<Map<string, TaskTimes>> {
  const perRound = new Map<string, number[]>(tasks.map((t) => [t.name, []]));
  const samples = new Map<string, number>(tasks.map((t) => [t.name, 0]));
  for (let r = 0; r < options.rounds; r++) {
    const bench = new Bench({
      time: options.time,
      warmup: true,
      warmupTime: options.warmupTime,
      warmupIterations: 3,
      iterations: options.iterations ?? 5,
      throws: true,
    });
    const order = tasks.map((_, i) => tasks[(i + r) % tasks.length] as Task);
    for (const t of order) bench.add(t.name, t.fn);
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result === undefined || result.error !== undefined) throw result?.error ?? new Error(`${task.name}: no result`);
      const latency = result.latency;
      perRound.get(task.name)!.push(latency.p50 ?? latency.mean);
      samples.set(task.name, (samples.get(task.name) ?? 0) + latency.samples.length);
    }
  }
  const out = new Map<string, TaskTimes>();
  for (const [name, rounds] of perRound) {
    const ms = median(rounds);
    out.set(name, { rounds, ms, hz: 1000 / ms, samples: samples.get(name) ?? 0 });
  }
  return out;
}
