/**
 * Settings of `run`, `diff` and `record` besides the command line, so a key need not sit in process
 * arguments. Precedence: flags, then a config file (`--config FILE`, else `photon-conformance.config.json`,
 * `.yaml` or `.yml`; keys mirror the long flags), then `PHOTON_URL` / `PHOTON_HEADERS`. Headers merge
 * by name; every source's secrets are masked as soon as parsed. Bad files list every problem at once,
 * one `file:line: /pointer: what is wrong` a line.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command, Option } from "commander";
import { distance } from "fastest-levenshtein";
import { isSensitiveHeader, secretsOf } from "@photon-indexer-kit/runtime";
import { type ConfigPath, parseConfigText } from "./config-file.js";
import { ConfigError } from "./errors.js";

/** Config files looked for in the working directory, in this order, when `--config` is not given. */
export const CONFIG_FILES = ["photon-conformance.config.json", "photon-conformance.config.yaml", "photon-conformance.config.yml"] as const;

export { ConfigError };

/** A reporter as a config file names it. */
export interface ConfigReporter {
  readonly name: string;
  readonly output: string | null;
  /** Where the file names it, for messages (`file:7: /reporters/1`). */
  readonly where?: string;
}

/** Settings from one source, keyed by the option's attribute name (`maxRps`); `reporters` apart. */
export interface Settings {
  /** `photon-conformance.config.json`, or `the environment`. */
  readonly source: string;
  readonly values: Readonly<Record<string, unknown>>;
  readonly reporters?: readonly ConfigReporter[];
  /** Where a setting (or an entry under it) stands, for messages: `file:3: /max-rps`, or its variable (`PHOTON_URL`). */
  readonly where: (name: string, under?: ConfigPath, of?: "key" | "value") => string;
  /** Problems found while reading it, reported by `applySettings` with all the others. */
  readonly problems: readonly string[];
  /** The credentials it holds (its URLs' userinfo and credential query values, header values, secrets). */
  readonly secrets: readonly string[];
}

/** Plural spellings a config file may use for repeatable flags. */
const ALIASES: Readonly<Record<string, string>> = { headers: "header", secrets: "secret", againstHeaders: "againstHeader", methods: "method" };
/** Settings that take a list (or, for headers, a map): each entry goes through the flag's own parser. */
const REPEATABLE: ReadonlySet<string> = new Set(["header", "againstHeader", "method", "case", "secret", "skipMethod"]);
/** Headers and lists merge across sources: the higher source's entries go on top. */
const MERGED: ReadonlySet<string> = new Set(["header", "againstHeader", "secret"]);

const camel = (key: string) => key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const nameOf = (key: string) => ALIASES[camel(key)] ?? camel(key);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

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
  const where = (name: string) => (name === "url" ? "PHOTON_URL" : "PHOTON_HEADERS");
  return {
    source: ENV,
    values,
    where,
    problems: [],
    secrets: secretsOf(values.url as string | undefined, values.header as Record<string, string> | undefined),
  };
}

/** The credentials a config file holds, read from its data as written (before any of it is checked). */
function secretsIn(data: Record<string, unknown>): string[] {
  const strings = (v: unknown): string[] => (typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);
  const out: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const name = nameOf(key);
    if (name === "url" || name === "against" || name === "spec") for (const url of strings(value)) out.push(...secretsOf(url));
    else if (name === "secret") out.push(...strings(value).map((s) => s.trim()));
    else if (name === "header" || name === "againstHeader") {
      const headers: Record<string, string> = {};
      // A value written as a number (`x-api-key: 12345678`) is a credential too; a short one would mask every such digit.
      if (isRecord(value))
        for (const [k, v] of Object.entries(value)) headers[k] = typeof v === "string" ? v : typeof v === "number" && String(v).length >= 4 ? String(v) : "";
      strings(value).forEach((line, i) => {
        const at = line.indexOf(":");
        headers[at > 0 ? line.slice(0, at).trim() : `#${i}`] = at > 0 ? line.slice(at + 1) : line;
      });
      out.push(...secretsOf(undefined, headers));
    }
  }
  return out;
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
  const { data, lineOf } = parseConfigText(path, text);
  const raw = data ?? {};
  if (!isRecord(raw)) throw new ConfigError(`${path}:${lineOf([], "value") || 1}: a config file holds one object of settings`);
  const values: Record<string, unknown> = {};
  const keyOf: Record<string, string> = {};
  const problems: string[] = [];
  const where = (name: string, under: ConfigPath = [], of: "key" | "value" = "value") => {
    const path_ = [keyOf[name] ?? name, ...under];
    const line = lineOf(path_, of);
    return `${path}${line ? `:${line}` : ""}: /${path_.map((p) => String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
  };
  let reporters: ConfigReporter[] | undefined;
  for (const [key, value] of Object.entries(raw)) {
    const name = nameOf(key);
    keyOf[name] = key;
    if (name === "reporter" || name === "reporters") reporters = configReporters(value, (i) => where(name, i === null ? [] : [i]), problems);
    else values[name] = value;
  }
  return { source: path, values, ...(reporters ? { reporters } : {}), where, problems, secrets: secretsIn(raw) };
}

function configReporters(value: unknown, where: (i: number | null) => string, problems: string[]): ConfigReporter[] {
  const list = Array.isArray(value) ? value : [value];
  const out: ConfigReporter[] = [];
  list.forEach((entry, i) => {
    const at = where(Array.isArray(value) ? i : null);
    if (typeof entry === "string") return void out.push({ name: entry, output: null, where: at });
    if (isRecord(entry) && typeof entry.name === "string") {
      const { name, output, ...rest } = entry;
      if (Object.keys(rest).length > 0) problems.push(`${at}: a reporter has only \`name\` and \`output\` (not ${Object.keys(rest).join(", ")})`);
      else if (output !== undefined && output !== null && typeof output !== "string") problems.push(`${at}/output: must be a file name`);
      else out.push({ name, output: (output as string | undefined) ?? null, where: at });
      return;
    }
    problems.push(`${at}: a reporter is a name or {name, output}`);
  });
  return out;
}

/** Adds one parsed entry of a list or map setting to what the sources before gave: one copy per setting, not per entry. */
function gather(acc: unknown, one: unknown): unknown {
  if (Array.isArray(one)) return Array.isArray(acc) ? (acc.push(...one), acc) : [...one];
  if (isRecord(one)) return isRecord(acc) ? Object.assign(acc, one) : { ...one };
  return one;
}

/**
 * One setting's value in the command's own form, through the option's parser; each entry of a
 * list or map parsed alone and gathered (a parser that copies what it is given, as commander's
 * repeatable options do, would copy the list once per entry). Problems go to `problems`.
 */
function convert(option: Option, value: unknown, at: (under?: ConfigPath) => string, previous: unknown, problems: string[]): unknown {
  const name = option.attributeName();
  if (option.isBoolean()) {
    if (typeof value === "boolean") return value;
    problems.push(`${at()}: must be true or false`);
    return previous;
  }
  const parse = (text: string, prev: unknown, under?: ConfigPath): unknown => {
    try {
      return option.parseArg ? option.parseArg(text, prev) : text;
    } catch (err) {
      problems.push(`${at(under)}: ${(err as Error).message}`);
      return undefined;
    }
  };
  const repeatable = REPEATABLE.has(name);
  if (repeatable && (Array.isArray(value) || ((name === "header" || name === "againstHeader") && isRecord(value)))) {
    let acc: unknown = Array.isArray(previous) ? [...previous] : isRecord(previous) ? { ...previous } : undefined;
    const entries: [string | number, unknown][] = Array.isArray(value) ? [...value.entries()] : Object.entries(value as Record<string, unknown>);
    for (const [key, v] of entries) {
      if (typeof v !== "string") {
        problems.push(`${at([key])}: must be a string`);
        continue;
      }
      const one = parse(typeof key === "string" ? `${key}: ${v}` : v, undefined, [key]);
      if (one !== undefined) acc = gather(acc, one);
    }
    return acc;
  }
  if (typeof value !== "string" && typeof value !== "number") {
    problems.push(`${at()}: must be a ${repeatable ? "string or a list of strings" : "string or number"}`);
    return previous;
  }
  const one = parse(String(value), undefined);
  return one === undefined
    ? previous
    : repeatable
      ? gather(Array.isArray(previous) ? [...previous] : isRecord(previous) ? { ...previous } : undefined, one)
      : one;
}

/** The spelling of a known setting closest to `key` (`timout` → `timeout`, `max_rps` → `max-rps`), if one is close. */
export function closestSetting(key: string, known: ReadonlySet<string>): string | null {
  const plain = (k: string) => k.toLowerCase().replace(/[-_\s]/g, "");
  const target = plain(key);
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  const spellings = [...known].map(kebab).concat(
    Object.keys(ALIASES)
      .filter((a) => known.has(ALIASES[a]!))
      .map(kebab),
    "reporters",
  );
  for (const spelling of spellings) {
    const d = distance(target, plain(spelling));
    if (d < bestDistance) [best, bestDistance] = [spelling, d];
  }
  return best !== null && bestDistance <= Math.min(3, Math.max(1, Math.floor(target.length / 3))) ? best : null;
}

function unknownSetting(key: string, known: ReadonlySet<string>): string {
  const near = closestSetting(key, known);
  if (near) return `unknown setting (did you mean \`${near}\`?)`;
  if (isSensitiveHeader(key)) return "unknown setting (a header to send? put it under `headers`)";
  return "unknown setting (settings mirror the long flags: url, headers, timeout, …)";
}

/** Checks a setting's value beyond its flag's parser (a URL's scheme): throws an Error whose message is the problem. */
export type SettingCheck = (value: unknown) => void;

/**
 * Fills `flags` from config and environment where the command line set nothing. A key outside `known`
 * is an error, one another command takes is ignored; every problem is thrown at the end as one ConfigError.
 */
export function applySettings(
  command: Command,
  flags: Record<string, unknown>,
  sources: readonly Settings[],
  known: ReadonlySet<string>,
  extra: { readonly checks?: Readonly<Record<string, SettingCheck>>; readonly reporterNames?: readonly string[] } = {},
): void {
  const options = new Map(command.options.map((o) => [o.attributeName(), o]));
  const found = new Map(sources.map((s) => [s, [...s.problems]]));
  for (const source of sources) {
    const problems = found.get(source)!;
    for (const key of Object.keys(source.values)) if (!known.has(key)) problems.push(`${source.where(key, [], "key")}: ${unknownSetting(key, known)}`);
    for (const r of source.reporters ?? [])
      if (extra.reporterNames && !extra.reporterNames.includes(r.name))
        problems.push(`${r.where ?? source.source}: a reporter is one of ${extra.reporterNames.join(", ")} (got '${r.name}')`);
  }
  // Repeatable maps and lists merge across sources: the command line's own entries go on top.
  const fromCli = (key: string) => command.getOptionValueSource(key) === "cli";
  const cliOwn = new Map<string, unknown>();
  for (const key of MERGED) if (fromCli(key)) cliOwn.set(key, flags[key]), delete flags[key];
  // Lowest precedence first (the environment), so each source overrides the one before.
  for (const source of [...sources].reverse()) {
    const problems = found.get(source)!;
    for (const [key, value] of Object.entries(source.values)) {
      const option = options.get(key);
      if (!option || (fromCli(key) && !MERGED.has(key))) continue;
      const at = (under?: ConfigPath) => source.where(key, under);
      const before = problems.length;
      const converted = convert(option, value, at, MERGED.has(key) ? flags[key] : undefined, problems);
      const check = extra.checks?.[key];
      if (check && problems.length === before)
        try {
          check(converted);
        } catch (err) {
          problems.push(`${at()}: ${(err as Error).message}`);
        }
      if (converted !== undefined) flags[key] = converted;
    }
  }
  // Each source's problems in the order of their lines.
  const lineOf = (problem: string) => Number(/^.*?:(\d+): /.exec(problem)?.[1] ?? 0);
  const problems = sources.flatMap((s) => found.get(s)!.sort((a, b) => lineOf(a) - lineOf(b)));
  if (problems.length > 0) throw new ConfigError(problems);
  for (const [key, own] of cliOwn) {
    const lower = flags[key];
    flags[key] = lower === undefined ? own : Array.isArray(own) ? [...(lower as unknown[]), ...own] : { ...(lower as object), ...(own as object) };
  }
}
