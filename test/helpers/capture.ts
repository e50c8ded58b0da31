import { vi } from "vitest";

export interface Captured {
  readonly code: number;
  /** stdout and stderr interleaved, as a terminal shows them. */
  readonly out: string;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a CLI `main` in-process, capturing what it writes to stdout and stderr (interleaved in `out`, and each apart). */
export async function captured(main: (argv: string[]) => Promise<number>, args: string[]): Promise<Captured> {
  let out = "";
  let stdout = "";
  let stderr = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => ((out += String(s)), (stdout += String(s)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => ((out += String(s)), (stderr += String(s)), true));
  try {
    // A throw here (an unhandled error) fails the test: main must always return a code.
    const code = await main(args);
    return { code, out, stdout, stderr };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}
