/**
 * `photon-conformance serve --live MS [--lag N]` in a child process: it says what moves, its slot
 * advances, SIGTERM closes it with exit 0.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { cliArgs } from "../../helpers/cli.js";
import { root } from "../../helpers/paths.js";

const slotOf = async (url: string): Promise<number> => {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}' });
  return ((await res.json()) as { result: number }).result;
};

describe("serve --live", () => {
  it("moves the slot, names what moves, and closes on SIGTERM", async () => {
    const child = spawn(process.execPath, cliArgs(["serve", "--port", "0", "--accounts", "10000", "--live", "20", "--lag", "2"]), {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
    try {
      while (!/\nlive: /.test(out)) await new Promise((r) => setTimeout(r, 50));
      expect(out).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/\nlive: one slot every 20 ms, 2 slots behind once the trees are built; moving: owners /);
      const url = (/listening on (\S+)/.exec(out) as RegExpExecArray)[1] as string;
      const first = await slotOf(url);
      let now = first;
      while (now <= first + 2) {
        await new Promise((r) => setTimeout(r, 50));
        now = await slotOf(url);
      }
      expect(now).toBeGreaterThan(first);
    } finally {
      child.kill("SIGTERM");
    }
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  }, 120_000);
});
