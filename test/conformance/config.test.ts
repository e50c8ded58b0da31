/**
 * Settings from the environment (PHOTON_URL, PHOTON_HEADERS) and a config file
 * (`--config FILE`, or photon-conformance.config.{json,yaml} in the working directory):
 * flags override the file, the file overrides the environment; a bad file is exit 2 naming it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { Command } from "commander";
import { applySettings, CONFIG_FILES, loadConfig, parseHeaderLines } from "../../conformance/config.js";
import { parseJson } from "../../runtime/index.js";
import { captured } from "../helpers/capture.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("conformance-config");
const KEY = "c0nfig-held-k3y";
const UNREACHABLE = "http://127.0.0.1:1/";
const indexer = useReferenceIndexer();
let keyed: { url: string; server: Server };
const run = (...args: string[]) => captured(main, args);

/** A gateway that wants `x-api-key: KEY` on every request and forwards to the reference. */
async function keyedGateway(upstream: string): Promise<{ url: string; server: Server }> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    if (req.headers["x-api-key"] !== KEY) return void (req.resume(), res.writeHead(401, { "content-type": "text/plain" }).end("no key"));
    const { host: _h, ...headers } = req.headers;
    req.pipe(
      request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (answer) => (res.writeHead(answer.statusCode!, answer.headers), answer.pipe(res)),
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(async () => {
  keyed = await keyedGateway(indexer().url);
});
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(async () => {
  keyed.server.closeAllConnections();
  await new Promise((resolve) => keyed.server.close(resolve));
});

describe("the environment", () => {
  it("takes the target from PHOTON_URL and headers from PHOTON_HEADERS, one 'Name: value' a line, never printed", async () => {
    vi.stubEnv("PHOTON_URL", keyed.url);
    vi.stubEnv("PHOTON_HEADERS", `# the gateway's key\nx-api-key: ${KEY}\n\nx-client: conformance`);
    const r = await run("run", "--case", "slot/*", "--case", "http/liveness");
    expect(r.out).toContain(`against ${keyed.url}`);
    expect(r.out).toContain("VERDICT: CONFORMANT");
    expect(r.code).toBe(0);
    expect(r.out).not.toContain(KEY);
  }, 30_000);

  it("refuses a PHOTON_HEADERS line that is not a header, naming the line", async () => {
    expect(parseHeaderLines("a: 1\r\nB:  two words \n", "PHOTON_HEADERS")).toEqual({ a: "1", b: "two words" });
    vi.stubEnv("PHOTON_HEADERS", `x-api-key: ${KEY}\nnot a header`);
    const r = await run("run", "--url", keyed.url, "--case", "slot/*");
    expect(r.code).toBe(2);
    expect(r.out).toContain("PHOTON_HEADERS: line 2 is not 'Name: value'");
  });
});

describe("a config file", () => {
  it("supplies url, headers, selection and reporters; the environment is overridden by it", async () => {
    vi.stubEnv("PHOTON_URL", UNREACHABLE);
    const report = join(dir, "from-config.json");
    const config = file(
      "settings.yaml",
      [
        `url: ${keyed.url}`,
        "headers:",
        `  x-api-key: ${KEY}`,
        "case: [slot/*, http/readiness]",
        "max-rps: 500",
        "timeout: 5000",
        "reporters:",
        "  - console",
        `  - {name: json, output: ${report}}`,
        "",
      ].join("\n"),
    );
    const r = await run("run", "--config", config);
    expect(r.code).toBe(0);
    expect(r.out).toContain("VERDICT: CONFORMANT");
    const json = parseJson((await import("node:fs")).readFileSync(report, "utf8")) as { cases: { id: string }[]; options: { timeoutMs: number } };
    expect(json.cases.map((c) => c.id).filter((id) => !id.startsWith("slot/"))).toEqual(["http/readiness"]);
    expect(json.options.timeoutMs).toBe(5000);
    expect(r.out).not.toContain(KEY);
  }, 30_000);

  it("is overridden by flags: --url over its url, a --header over its header of the same name", async () => {
    const config = file("flags-win.json", JSON.stringify({ url: UNREACHABLE, headers: { "x-api-key": "wrong-key" }, case: "nonexistent/*" }));
    const r = await run("run", "--config", config, "--url", keyed.url, "--header", `x-api-key: ${KEY}`, "--case", "slot/*");
    expect(r.out).toContain(`against ${keyed.url}`);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain(KEY);
    expect(r.out).not.toContain("wrong-key");
  }, 30_000);

  it("is found in the working directory when --config is not given", async () => {
    const here = join(dir, "cwd");
    mkdirSync(here, { recursive: true });
    expect(await loadConfig(undefined, here)).toBeNull();
    writeFileSync(join(here, CONFIG_FILES[1]), `url: ${keyed.url}\nstrict: true\n`);
    const found = await loadConfig(undefined, here);
    expect(found?.source).toBe(join(here, "photon-conformance.config.yaml"));
    expect(found?.values).toEqual({ url: keyed.url, strict: true });
    writeFileSync(join(here, CONFIG_FILES[0]), `{"url": "${indexer().url}"}`);
    expect((await loadConfig(undefined, here))?.source).toBe(join(here, "photon-conformance.config.json"));
  });

  it("exits 2 naming the file, the JSON pointer and the line of what is wrong", async () => {
    const cases: [string, string, string][] = [
      ["syntax.json", '{\n  "url": "http://x/",\n}\n', "syntax.json:3: invalid JSON: a double-quoted key expected\n"],
      [
        "syntax.yaml",
        "url: http://x/\nheaders: [a\n",
        "syntax.yaml:2: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]\n",
      ],
      ["unknown.yaml", "url: http://127.0.0.1:1/\napi-key: x\n", "unknown.yaml:2: /api-key: unknown setting"],
      ["type.yaml", "url: http://127.0.0.1:1/\n\ntimeout: soon\n", "type.yaml:3: /timeout: --timeout must be an integer >= 1"],
      ["strict.json", '{"strict": "yes"}', "strict.json:1: /strict: must be true or false"],
      ["reporter.yaml", "reporters: [console, yaml]\n", "reporter.yaml:1: /reporters/1: a reporter is one of"],
      ["list.json", "[1, 2]", "list.json:1: a config file holds one object of settings"],
      ["url.yaml", "url: 127.0.0.1:8784\n", "url.yaml:1: /url: --url must be an http:// or https:// URL"],
    ];
    for (const [name, text, message] of cases) {
      const r = await run("run", "--config", file(name, text), "--list");
      expect(r.code, name).toBe(2);
      expect(r.out, name).toContain(message);
      expect(r.out, name).not.toMatch(/\n\s+at /);
    }
    const missing = await run("run", "--config", join(dir, "missing.yaml"));
    expect(missing.code).toBe(2);
    expect(missing.out).toContain("missing.yaml: cannot read the config file: ENOENT");
  });
});

describe("a config file's problems", () => {
  const lines = (out: string) => out.trimEnd().split("\n");

  it("lists every problem of a YAML file at once, one line each with file:line and key, and did-you-mean for unknown keys", async () => {
    const config = file(
      "many.yaml",
      ["url: http://127.0.0.1:1/", "timout: 5000", "max_rps: 3", "headers:", "  x-api-key: [k]", "reporters: [console, yml]", "strict: yes-please", ""].join(
        "\n",
      ),
    );
    const r = await run("run", "--config", config, "--list");
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    const got = lines(r.stderr);
    expect(got).toHaveLength(5);
    expect(got[0]).toBe(`photon-conformance: ${config}:2: /timout: unknown setting (did you mean \`timeout\`?)`);
    expect(got[1]).toBe(`photon-conformance: ${config}:3: /max_rps: unknown setting (did you mean \`max-rps\`?)`);
    expect(got[2]).toBe(`photon-conformance: ${config}:5: /headers/x-api-key: must be a string`);
    expect(got[3]).toMatch(
      new RegExp(
        `^photon-conformance: ${config.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:6: /reporters/1: a reporter is one of console, json, .* \\(got 'yml'\\)$`,
      ),
    );
    expect(got[4]).toBe(`photon-conformance: ${config}:7: /strict: must be true or false`);
  });

  it("lists every problem of a JSON file with the line of each key or entry", async () => {
    const config = file("many.json", '{\n  "url": "http://127.0.0.1:1/",\n  "timeout": 0,\n  "concurency": 2,\n  "secrets": ["a-secret",\n    7]\n}\n');
    const r = await run("run", "--config", config, "--list");
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      `photon-conformance: ${config}:3: /timeout: --timeout must be an integer >= 1`,
      `photon-conformance: ${config}:4: /concurency: unknown setting (did you mean \`concurrency\`?)`,
      `photon-conformance: ${config}:6: /secrets/1: must be a string`,
    ]);
  });

  it("puts a syntax fault on its own line: an unclosed quote or bracket where it opened, every fault of the file", async () => {
    const quote = file("quote.yaml", 'url: "http://127.0.0.1:1/\nstrict: true\n');
    expect(lines((await run("run", "--config", quote, "--list")).stderr)).toEqual([`photon-conformance: ${quote}:1: invalid YAML: Missing closing "quote`]);
    const bracket = file("bracket.yaml", "url: [http://127.0.0.1:1/\n");
    expect((await run("run", "--config", bracket, "--list")).stderr).toContain(`${bracket}:1: invalid YAML: Flow sequence`);
    const json = file("two-faults.json", '{\n  "url": "http://127.0.0.1:1/"\n  "strict": true,\n  "timeout": tru\n}\n');
    expect(lines((await run("run", "--config", json, "--list")).stderr)).toEqual([
      `photon-conformance: ${json}:3: invalid JSON: ',' expected between entries`,
      `photon-conformance: ${json}:4: invalid JSON: unexpected character`,
    ]);
  });
});

describe("a config file's lists", () => {
  it("gathers 40,000 secrets in one pass: the flag's parser is never handed the list so far to copy", () => {
    let copied = 0;
    // As commander's repeatable options do: each call copies what came before (40,000 entries: 800 million copies).
    const collect = (value: string, previous: string[] = []) => ((copied += previous.length), [...previous, value]);
    const command = new Command("run").option("--secret <value>", "a value to mask", collect);
    const secrets = Array.from({ length: 40_000 }, (_, i) => `sk_live_${i.toString(36).padStart(6, "0")}`);
    const flags: Record<string, unknown> = {};
    const source = { source: "secrets.json", values: { secret: secrets }, where: () => "secrets.json: /secrets", problems: [], secrets: [] };
    applySettings(command, flags, [source], new Set(["secret"]));
    expect(flags.secret).toEqual(secrets);
    expect(copied).toBe(0);
  });
});
