/**
 * Where `run`, `diff` and `record` take their settings besides the command line, so a key
 * need not sit in process arguments or shell history. Precedence, highest first:
 *
 *   1. flags on the command line;
 *   2. a config file: `--config FILE`, else `photon-conformance.config.json`, `.yaml` or `.yml`
 *      in the working directory (keys mirror the long flags: `url`, `headers`, `timeout`,
 *      `max-rps` or `maxRps`, …; `reporters` is a list of `name` or `{name, output}`);
 *   3. the environment: `PHOTON_URL` (the target) and `PHOTON_HEADERS` (one `Name: value` a line).
 *
 * Headers merge by name across the three (a flag's value for a name wins); `--secret`s, the
 * config's `secrets` and PHOTON_SECRETS are all masked. A config file that cannot be read or
 * holds an unknown key or a bad value is a usage error naming the file, the JSON pointer and,
 * where known, the line.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command, Option } from "commander";
import { LineCounter, parseDocument } from "yaml";
import { ConfigError } from "./errors.js";

/** Config files looked for in the working directory, in this order, when `--config` is not given. */
export const CONFIG_FILES = ["photon-conformance.config.json", "photon-conformance.config.yaml", "photon-conformance.config.yml"] as const;

export { ConfigError };

/** A reporter as a config file names it. */
export interface ConfigReporter {
  readonly name: string;
  readonly output: string | null;
}

/** Settings from one source, keyed by the option's attribute name (`maxRps`); `reporters` apart. */
export interface Settings {
  /** `photon-conformance.config.json`, or `PHOTON_URL`/`PHOTON_HEADERS` for the environment. */
  readonly source: string;
  readonly values: Readonly<Record<string, unknown>>;
  readonly reporters?: readonly ConfigReporter[];
  /** Where a key's value stands, for messages: ` (line 3)` or "". */
  readonly line: (key: string) => string;
  /** The key's JSON pointer as the file writes it (`/max-rps`). */
  readonly pointer: (key: string) => string;
}

/** Plural spellings a config file may use for repeatable flags. */
const ALIASES: Readonly<Record<string, string>> = { headers: "header", secrets: "secret", againstHeaders: "againstHeader", methods: "method" };

const camel = (key: string) => key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** `Name: value` lines (PHOTON_HEADERS); blank lines and lines starting with `#` are skipped. */
export function parseHeaderLines(text: string, source: string): Record<string, string> {
  const headers: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const at = line.indexOf(":");
    if (at <= 0) throw new ConfigError(`${source}: line ${i + 1} is not 'Name: value'`);
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  });
  return headers;
}

const ENV = "the environment";

/** PHOTON_URL and PHOTON_HEADERS. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Settings {
  const values: Record<string, unknown> = {};
  if (env.PHOTON_URL?.trim()) values.url = env.PHOTON_URL.trim();
  if (env.PHOTON_HEADERS?.trim()) values.header = parseHeaderLines(env.PHOTON_HEADERS, "PHOTON_HEADERS");
  return { source: ENV, values, line: () => "", pointer: (key) => `/${key}` };
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}

/** Reads a config file: `--config FILE`, or the first of CONFIG_FILES in `cwd`; null when there is none. */
export async function loadConfig(file: string | undefined, cwd: string = process.cwd()): Promise<Settings | null> {
  const path = file ?? CONFIG_FILES.map((name) => join(cwd, name)).find((p) => existsSync(p));
  if (!path) return null;
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new ConfigError(`${path}: cannot read the config file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let raw: unknown;
  let line: (pointer: (string | number)[]) => string = () => "";
  if (/\.json$/i.test(path)) {
    try {
      raw = JSON.parse(text);
    } catch (err) {
      const at = /position (\d+)/.exec((err as Error).message);
      throw new ConfigError(`${path}${at ? ` (line ${lineOf(text, Number(at[1]))})` : ""}: invalid JSON: ${(err as Error).message}`);
    }
  } else {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
    const first = doc.errors[0];
    if (first)
      throw new ConfigError(
        `${path} (line ${first.linePos?.[0].line ?? "?"}): invalid YAML: ${first.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`,
      );
    raw = doc.toJS();
    line = (pointer) => {
      const node = doc.getIn(pointer, true) as { range?: [number, number, number] } | undefined;
      return node?.range ? ` (line ${lineCounter.linePos(node.range[0]).line})` : "";
    };
  }
  if (raw === null || raw === undefined) raw = {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw new ConfigError(`${path}: a config file holds one object of settings`);
  const values: Record<string, unknown> = {};
  let reporters: ConfigReporter[] | undefined;
  const keyOf: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const name = ALIASES[camel(key)] ?? camel(key);
    keyOf[name] = key;
    if (name === "reporter" || name === "reporters") reporters = configReporters(value, path, (i) => line(i === null ? [key] : [key, i]), key);
    else values[name] = value;
  }
  return {
    source: path,
    values,
    ...(reporters ? { reporters } : {}),
    line: (name) => line([keyOf[name] ?? name]),
    pointer: (name) => `/${keyOf[name] ?? name}`,
  };
}

function configReporters(value: unknown, file: string, line: (i: number | null) => string, key: string): ConfigReporter[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry, i) => {
    const at = Array.isArray(value) ? i : null;
    const where = `${file}${line(at)}: /${key}${at === null ? "" : `/${at}`}`;
    if (typeof entry === "string") return { name: entry, output: null };
    if (typeof entry === "object" && entry !== null && typeof (entry as ConfigReporter).name === "string") {
      const { name, output, ...rest } = entry as Record<string, unknown>;
      if (Object.keys(rest).length > 0) throw new ConfigError(`${where}: a reporter has only \`name\` and \`output\``);
      if (output !== undefined && output !== null && typeof output !== "string") throw new ConfigError(`${where}/output must be a file name`);
      return { name: name as string, output: (output as string | undefined) ?? null };
    }
    throw new ConfigError(`${where}: a reporter is a name or {name, output}`);
  });
}

/** One setting's value in the command's own form, through the option's parser. */
function convert(option: Option, value: unknown, where: string, previous: unknown): unknown {
  const name = option.attributeName();
  if (option.isBoolean()) {
    if (typeof value !== "boolean") throw new ConfigError(`${where} must be true or false`);
    return value;
  }
  const parse = (text: string, prev: unknown) => {
    try {
      return option.parseArg ? option.parseArg(text, prev) : text;
    } catch (err) {
      throw new ConfigError(`${where}: ${(err as Error).message}`);
    }
  };
  if (name === "header" || name === "againstHeader") {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return Object.entries(value).reduce<unknown>((acc, [k, v]) => {
        if (typeof v !== "string") throw new ConfigError(`${where}/${k} must be a string`);
        return parse(`${k}: ${v}`, acc);
      }, previous);
    }
  }
  const repeatable = ["header", "againstHeader", "method", "case", "secret"].includes(name);
  if (repeatable && Array.isArray(value)) {
    return value.reduce<unknown>((acc, v, i) => {
      if (typeof v !== "string") throw new ConfigError(`${where}/${i} must be a string`);
      return parse(v, acc);
    }, previous);
  }
  if (typeof value !== "string" && typeof value !== "number")
    throw new ConfigError(`${where} must be a ${repeatable ? "string or a list of strings" : "string or number"}`);
  return parse(String(value), previous);
}

/**
 * Fills `flags` (the command's parsed options) from config and environment wherever the
 * command line did not set a value. `known` lists the settings any command takes: a key outside
 * it is an error, a key another command takes (`against` read by `run`) is ignored.
 */
export function applySettings(command: Command, flags: Record<string, unknown>, sources: readonly Settings[], known: ReadonlySet<string>): void {
  const options = new Map(command.options.map((o) => [o.attributeName(), o]));
  for (const source of sources) {
    for (const key of Object.keys(source.values))
      if (!known.has(key))
        throw new ConfigError(
          `${source.source}${source.line(key)}: ${source.pointer(key)}: unknown setting (settings mirror the long flags: url, headers, timeout, …)`,
        );
  }
  // Repeatable maps and lists merge across sources: the command line's own entries go on top.
  const merged = new Set(["header", "againstHeader", "secret"]);
  const fromCli = (key: string) => command.getOptionValueSource(key) === "cli";
  const cliOwn = new Map<string, unknown>();
  for (const key of merged) if (fromCli(key)) cliOwn.set(key, flags[key]), delete flags[key];
  // Lowest precedence first (the environment), so each source overrides the one before.
  for (const source of [...sources].reverse()) {
    for (const [key, value] of Object.entries(source.values)) {
      const option = options.get(key);
      if (!option || (fromCli(key) && !merged.has(key))) continue;
      const where = source.source === ENV ? (key === "url" ? "PHOTON_URL" : "PHOTON_HEADERS") : `${source.source}${source.line(key)}: ${source.pointer(key)}`;
      flags[key] = convert(option, value, where, merged.has(key) ? flags[key] : undefined);
    }
  }
  for (const [key, own] of cliOwn) {
    const lower = flags[key];
    flags[key] = lower === undefined ? own : Array.isArray(own) ? [...(lower as unknown[]), ...own] : { ...(lower as object), ...(own as object) };
  }
}
