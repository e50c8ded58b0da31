/** `photon-gen diff`: formats, --fail-on exit codes, and exit 2 (with file and pointer) on unreadable input. */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../generator/cli.js";
import { diffSpecs, render } from "../../../generator/diff/index.js";
import { captured } from "../../helpers/capture.js";
import { ourSpec } from "../../helpers/paths.js";
import { useScratch } from "../../helpers/scratch.js";
import { bumps } from "./support.js";

const dir = useScratch("diff-cli");
let server: Server;
let base = "";

const run = (...args: string[]) => captured(main, args);

/** v1 plus one new optional param: a bump that breaks servers only. */
const serversOnly = join(dir, "servers-only.yaml");
const badRef = join(dir, "bad-ref.yaml");

beforeAll(async () => {
  const v1 = readFileSync(bumps(1), "utf8");
  writeFileSync(serversOnly, v1.replace("        verbose: { type: boolean }\n", "        verbose: { type: boolean }\n        at: { type: integer }\n"));
  writeFileSync(
    badRef,
    v1.replace('owner: { $ref: "#/components/schemas/Key" }\n        amount', 'owner: { $ref: "#/components/schemas/Nope" }\n        amount'),
  );
  server = createServer((req, res) => {
    if (req.url === "/v2.yaml") res.end(readFileSync(bumps(2)));
    else res.writeHead(404).end("no");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("photon-gen diff", () => {
  it("prints the text report and exits 0 without --fail-on", async () => {
    const r = await run("diff", bumps(1), bumps(2));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("11 changes: 7 break clients, 4 break servers, 0 compatible; methods 1 added, 1 removed, 2 changed");
    expect(r.stdout).toMatch(/breaks clients {2}result\.value\.note: made nullable \(in Item\)\n {18}why: clients now receive null/);
  });

  it("exits 1 when --fail-on matches, 0 when it does not", async () => {
    expect((await run("diff", bumps(1), bumps(2), "--fail-on", "breaking")).code).toBe(1);
    expect((await run("diff", bumps(1), serversOnly, "--fail-on", "clients")).code).toBe(0);
    expect((await run("diff", bumps(1), serversOnly, "--fail-on", "servers")).code).toBe(1);
    expect((await run("diff", bumps(1), serversOnly, "--fail-on", "breaking")).code).toBe(1);
    expect((await run("diff", ourSpec, ourSpec, "--fail-on", "any", "--include-docs")).code).toBe(0);
  });

  it("--fail-on any counts compatible changes, and docs only with --include-docs", async () => {
    const v2 = readFileSync(bumps(2), "utf8");
    const docsOnly = join(dir, "docs-only.yaml");
    writeFileSync(docsOnly, v2.replace("summary: Health of the indexer.", "summary: Whether the indexer keeps up."));
    expect((await run("diff", bumps(2), docsOnly, "--fail-on", "any")).code).toBe(0);
    expect((await run("diff", bumps(2), docsOnly, "--fail-on", "breaking", "--include-docs")).code).toBe(0);
    expect((await run("diff", bumps(2), docsOnly, "--fail-on", "any", "--include-docs")).code).toBe(1);
  });

  it("prints JSON equal to the library's report, and markdown tables", async () => {
    const json = await run("diff", bumps(2), bumps(3), "--format", "json");
    const parsed = JSON.parse(json.stdout) as { summary: { changes: number }; changes: { class: string; reason: string }[] };
    expect(json.stdout).toBe(render(await diffSpecs(bumps(2), bumps(3)), "json"));
    expect(parsed.summary.changes).toBe(13);
    expect(parsed.changes.every((c) => c.class && c.reason)).toBe(true);
    const md = await run("diff", bumps(2), bumps(3), "--format", "markdown");
    expect(md.stdout).toContain("## Spec diff: Bumps test API 1.1.0 → Bumps test API 2.0.0");
    expect(md.stdout).toContain("| `result.value.amount` | field removed (was required, uint64) (in Item) | breaks clients |");
  });

  it("reads a spec from an http URL", async () => {
    const r = await run("diff", bumps(1), `${base}/v2.yaml`, "--format", "json");
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { new: { source: string } }).new.source).toBe(`${base}/v2.yaml`);
  });

  it.each([
    ["a missing file", () => join(dir, "missing.yaml"), /diff-cli\/missing\.yaml: cannot read the spec: ENOENT \[PHOTON_GEN_ERR_READ\]/],
    [
      "an unresolvable $ref",
      () => badRef,
      /bad-ref\.yaml#\/components\/schemas\/Item\/properties\/owner\/\$ref: \$ref "#\/components\/schemas\/Nope" does not resolve/,
    ],
    ["a URL answering 404", () => `${base}/nope.yaml`, /nope\.yaml: HTTP 404 fetching the spec \[PHOTON_GEN_ERR_READ\]/],
  ])("exits 2 on %s, naming the file and pointer", async (_name, spec, message) => {
    const r = await run("diff", bumps(1), spec(), "--fail-on", "any");
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
  });

  it("exits 2 on a bad option value", async () => {
    expect((await run("diff", bumps(1), bumps(2), "--format", "xml")).code).toBe(2);
    expect((await run("diff", bumps(1), bumps(2), "--fail-on", "sometimes")).code).toBe(2);
    expect((await run("diff", bumps(1))).code).toBe(2);
  });
});
