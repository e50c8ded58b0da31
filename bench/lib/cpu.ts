/**
 * The CPU time a process has used, read from /proc without disturbing it: its threads' clocks
 * (µs), or utime + stime ticks of 10 ms when a thread started or ended meanwhile.
 */
import { readdirSync, readFileSync } from "node:fs";

/** CPU ms the process has used: its threads' `se.sum_exec_runtime` (/proc/PID/task/TID/sched, µs precision), and which threads they were. */
function threadCpu(pid: number): { ms: number; threads: string; wakeups: number } | null {
  try {
    const tids = readdirSync(`/proc/${pid}/task`).sort();
    let ms = 0;
    let wakeups = 0;
    for (const tid of tids) {
      const sched = readFileSync(`/proc/${pid}/task/${tid}/sched`, "utf8");
      const line = /^se\.sum_exec_runtime\s*:\s*([\d.]+)$/m.exec(sched);
      if (line === null) return null;
      ms += Number(line[1]);
      if (tid === String(pid)) wakeups = Number(/^nr_voluntary_switches\s*:\s*(\d+)$/m.exec(sched)?.[1] ?? Number.NaN);
    }
    return { ms, threads: tids.join(","), wakeups };
  } catch {
    return null; // no /proc/…/sched on this kernel, or a thread ended while it was read
  }
}

/** utime + stime from /proc/PID/stat, in ms (clock ticks of 10 ms: coarse, but it keeps ended threads' time). */
function statCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /s, "")
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // the 14th and 15th fields
}

export interface CpuUsed {
  readonly ms: number;
  /** From the threads' clocks (µs); false: from ticks of 10 ms, because a thread started or ended meanwhile. */
  readonly precise: boolean;
  /** Times the main thread went to sleep and woke (its voluntary context switches); NaN without /proc/…/sched. */
  readonly wakeups: number;
}

/** Reads a process's CPU time now; `since()` is what it used since. */
export function cpuMeter(pid: number): { since(): CpuUsed } {
  const threads0 = threadCpu(pid);
  const stat0 = statCpuMs(pid);
  return {
    since() {
      const threads1 = threadCpu(pid);
      if (threads0 === null || threads1 === null) return { ms: statCpuMs(pid) - stat0, precise: false, wakeups: Number.NaN };
      const wakeups = threads1.wakeups - threads0.wakeups;
      if (threads0.threads === threads1.threads) return { ms: threads1.ms - threads0.ms, precise: true, wakeups };
      return { ms: statCpuMs(pid) - stat0, precise: false, wakeups };
    },
  };
}
