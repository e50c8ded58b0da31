import { vi } from "vitest";

/** Runs a CLI `main` in-process, capturing what it writes to stdout and stderr (interleaved). */
export async function captured(main: (argv: string[]) => Promise<number>, args: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => ((out += String(s)), true));
  try {
    return { code: await main(args), out };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}
