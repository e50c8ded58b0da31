/**
 * The conformance case format: one YAML file per case under conformance/cases/, its id
 * being its path without extension (`token-accounts/mint-filter`). See cases/README.md.
 * Params and expectations may hold `{{name}}` placeholders filled from a fixtures profile (placeholders.ts).
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isObject, type Json } from "@photon-indexer-kit/runtime";
import { parseCaseYaml } from "./case-yaml.js";
import { CaseError, MissingFixtureError } from "./errors.js";
import { matchesArguments, patternProblem } from "./matchers.js";
import { fillPattern, fillPlaceholders, missingFixture, type Filled } from "./placeholders.js";

export interface HttpRequestSpec {
  /** HTTP verb; default POST. */
  readonly method: string;
  /** Path appended to the target URL's path (query kept); default none. */
  readonly path: string | null;
  /**
   * `http.origin: true` (health probes): `path` is absolute on the target's origin and the
   * target URL's own path and query string are not used (see target.ts `requestUrl`).
   */
  readonly origin?: boolean;
  readonly contentType: string | null;
  /** The raw body text, sent as is. */
  readonly body: string | null;
  /** A JSON body (batches, notifications), serialised losslessly; used when `body` is null. */
  readonly json: Json | undefined;
}

export interface ErrorExpectation {
  readonly code: number;
  readonly message: string | null;
  readonly messageMatches: string | null;
}

/** `expect.agrees`: the same query answered by another method (V1 vs V2); see cases/README.md. */
export interface AgreesExpectation {
  readonly method: string;
  /** The params of the other call; undefined: the case's own. */
  readonly params: Json | undefined;
  /** Their key (or their dotted path, `*` for array indexes) → our path relative to the same object. */
  readonly rename: Readonly<Record<string, string>>;
  /** Walk both cursors to the end and compare every item, not just the first pages. */
  readonly walk: boolean;
}

/** `expect.sum`: the sum of `field` over every item of `method`'s walk. */
export interface SumExpectation {
  /** null: the case's own method. */
  readonly method: string | null;
  readonly params: Json | undefined;
  readonly field: string;
  /** A matcher; `{result: path}` is the case's own result at path. */
  readonly equals: Json;
}

/** `expect.follow`: a follow-up call per element of a list of the result. */
export interface FollowExpectation {
  /** A dotted path into the page (`value` where the result has a context: `items`), else into the result. */
  readonly from: string;
  readonly max: number;
  readonly method: string;
  /** `{item: path}` anywhere in them takes the element's value at path. */
  readonly params: Json | undefined;
  /** Dotted path → matcher on the follow-up's result; `{item: path}` and `{result: path}` refer to the element and our result. */
  readonly result: Readonly<Record<string, Json>>;
}

/** At most this many follow-up calls per `follow` entry, and how many where its `max` is not given. */
export const FOLLOW_CAP = 50;
const FOLLOW_DEFAULT = 10;

/** At most this many follow-up calls per case, all its `follow` entries together (their `max` added up). */
export const FOLLOW_CASE_CAP = 100;

export interface Expectation {
  /** Expected HTTP status (default 200). */
  readonly status: number;
  readonly error: ErrorExpectation | null;
  /** Dotted path → matcher, applied to `result`. */
  readonly result: Readonly<Record<string, Json>> | null;
  /** Dotted path → matcher, applied to every item of the page. */
  readonly every: Readonly<Record<string, Json>> | null;
  readonly semantics: readonly string[];
  /** Cross-method expectations (checks/relations.ts); absent on cases built in code. */
  readonly agrees?: readonly AgreesExpectation[];
  readonly sum?: SumExpectation | null;
  readonly follow?: readonly FollowExpectation[];
  /** Page sizes to walk the cursor with and compare with the single-page result. */
  readonly paginate: readonly number[];
  /** A notification: the reply must be HTTP 200 with an empty body. */
  readonly emptyBody: boolean;
  /** A batch: one matcher per expected reply, in order (`{result: …}` or `{error: code}`). */
  readonly batch: readonly Json[] | null;
  /** Expected media type of the reply (default application/json); another type skips the JSON checks. */
  readonly contentType: string;
  /** Whether the reply is a JSON-RPC envelope (default true; false for health probes). */
  readonly envelope: boolean;
  /** A matcher for the whole reply: the parsed JSON, or the text when it is not JSON. */
  readonly body: Json | undefined;
}

/**
 * A place in a spec: `file` as the run was given it (relative to the working directory, or the
 * `--spec` URL) and `pointer`, a JSON pointer fragment into it (`#/paths/~1getIndexerSlot`).
 */
export interface SpecSource {
  readonly file: string;
  readonly pointer: string;
}

export interface ConformanceCase {
  readonly id: string;
  /** Where the loader read it (error messages name it): the case file, or `<id>.yaml (derived)`. */
  readonly file: string;
  /** A derived case's source: the spec and the pointer of its method's path (derive.ts). */
  readonly derivedFrom?: SpecSource;
  readonly description: string;
  /** The JSON-RPC method; for raw HTTP cases, the method the case is about (for filters). */
  readonly method: string;
  readonly params: Json | undefined;
  readonly http: HttpRequestSpec | null;
  readonly expect: Expectation;
  /** A failure of a non-required case is reported as a warning. */
  readonly required: boolean;
  readonly recorded: Json | null;
  readonly tags: readonly string[];
  /** Why the case cannot run here (a fixture the profile lacks), or null. */
  readonly skip: string | null;
}

export { CaseError, MissingFixtureError };

/** Where a case's result says it comes from: its case file, or a derived case's spec and pointer. */
export function resultSource(c: ConformanceCase): { file: string } | { derivedFrom: SpecSource } {
  return c.derivedFrom !== undefined ? { derivedFrom: c.derivedFrom } : { file: c.file };
}

export type Fixtures = Readonly<Record<string, Json>>;

/** YAML integers arrive as bigint; keep bigint only where a number would round. */
export function narrow(value: unknown): Json {
  if (typeof value === "bigint") return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(narrow);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, narrow(v)]));
  return value as Json;
}

/**
 * `expect.error`, its placeholders filled by `r`; `messageMatches` is a pattern, filled by `pattern`
 * (as literal text). Written as one placeholder, it is the fixture's value as it is: that value is
 * data (a discovered profile's comes from the target), and its text is never filled again.
 */
function errorExpectation(
  raw: Json | undefined,
  r: (v: Json | undefined) => Json | undefined,
  pattern: (text: string) => string,
  file: string,
): ErrorExpectation | null {
  const written = isObject(raw);
  const value = written ? raw : r(raw);
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return { code: value, message: null, messageMatches: null };
  const fill = written ? r : (v: Json | undefined) => v;
  const code = isObject(value) ? fill(value.code) : undefined;
  if (isObject(value) && typeof code === "number") {
    const message = fill(value.message);
    return {
      code,
      message: typeof message === "string" ? message : null,
      messageMatches: typeof value.messageMatches === "string" ? (written ? pattern(value.messageMatches) : value.messageMatches) : null,
    };
  }
  throw new CaseError(file, "`expect.error` must be a code or {code, message?, messageMatches?}");
}

function stringList(value: Json | undefined, what: string, file: string): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as string[];
  throw new CaseError(file, `\`${what}\` must be a list of names`);
}

const CASE_KEYS = new Set(["description", "method", "params", "http", "expect", "required", "recorded", "tags"]);
const HTTP_KEYS = new Set(["method", "path", "origin", "contentType", "body", "json"]);
const EXPECT_KEYS = new Set([
  "status",
  "error",
  "result",
  "every",
  "semantics",
  "paginate",
  "emptyBody",
  "batch",
  "contentType",
  "envelope",
  "body",
  "agrees",
  "sum",
  "follow",
]);

function keysOf(value: Json | undefined, allowed: readonly string[], where: string, file: string): Record<string, Json> {
  if (!isObject(value)) throw new CaseError(file, `\`${where}\` must be a mapping`);
  for (const k of Object.keys(value)) if (!allowed.includes(k)) throw new CaseError(file, `unknown key \`${where}.${k}\``);
  return value;
}

function name(value: Json | undefined, where: string, file: string, optional = false): string | null {
  if (optional && value === undefined) return null;
  if (typeof value !== "string" || value === "") throw new CaseError(file, `\`${where}\` must be a name or dotted path`);
  return value;
}

function listOf(value: Json | undefined, where: string, file: string): Json[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new CaseError(file, `\`${where}\` must be a list`);
  return value;
}

function pathMatchers(value: Json | undefined, where: string, file: string): Record<string, Json> {
  if (!isObject(value) || Object.keys(value).length === 0) throw new CaseError(file, `\`${where}\` must map paths to matchers`);
  return value;
}

/** Validates and renders `expect.agrees`, `expect.sum` and `expect.follow`. */
function relations(exp: Record<string, Json>, r: (v: Json | undefined) => Json | undefined, file: string) {
  const agrees = listOf(exp.agrees, "expect.agrees", file).map((entry, i): AgreesExpectation => {
    const where = `expect.agrees[${i}]`;
    const a = keysOf(entry, ["method", "params", "rename", "walk"], where, file);
    const rename = a.rename === undefined ? {} : keysOf(a.rename, Object.keys(a.rename ?? {}), `${where}.rename`, file);
    for (const [k, v] of Object.entries(rename)) name(v, `${where}.rename.${k}`, file);
    if (a.walk !== undefined && typeof a.walk !== "boolean") throw new CaseError(file, `\`${where}.walk\` must be true or false`);
    return { method: name(a.method, `${where}.method`, file)!, params: r(a.params), rename: rename as Record<string, string>, walk: a.walk === true };
  });
  let sum: SumExpectation | null = null;
  if (exp.sum !== undefined) {
    const s = keysOf(exp.sum, ["method", "params", "field", "equals"], "expect.sum", file);
    if (s.equals === undefined) throw new CaseError(file, "`expect.sum.equals` is required (a matcher, or {result: path})");
    sum = {
      method: name(s.method, "expect.sum.method", file, true),
      params: r(s.params),
      field: name(s.field, "expect.sum.field", file)!,
      equals: r(s.equals)!,
    };
  }
  const follow = listOf(exp.follow, "expect.follow", file).map((entry, i): FollowExpectation => {
    const where = `expect.follow[${i}]`;
    const f = keysOf(entry, ["from", "max", "method", "params", "result"], where, file);
    const max = f.max ?? FOLLOW_DEFAULT;
    if (typeof max !== "number" || !Number.isInteger(max) || max < 1 || max > FOLLOW_CAP)
      throw new CaseError(file, `\`${where}.max\` must be an integer from 1 to ${FOLLOW_CAP}`);
    return {
      from: name(f.from, `${where}.from`, file)!,
      max,
      method: name(f.method, `${where}.method`, file)!,
      params: r(f.params),
      result: r(pathMatchers(f.result, `${where}.result`, file)) as Record<string, Json>,
    };
  });
  const calls = follow.reduce((n, f) => n + f.max, 0);
  if (calls > FOLLOW_CASE_CAP)
    throw new CaseError(
      file,
      `\`expect.follow\`: at most ${FOLLOW_CASE_CAP} follow-up calls per case, but its entries' \`max\` (${FOLLOW_DEFAULT} where not given) add up to ${calls}`,
    );
  return { agrees, sum, follow };
}

/** Parses and renders one case file's text. */
export function parseCase(id: string, file: string, text: string, fixtures: Fixtures): ConformanceCase {
  return caseOf(id, file, parseCaseYaml(file, text), fixtures);
}

/** Reads and renders one case document, as parsed from its YAML (or built as such: the derived cases). */
export function caseOf(id: string, file: string, raw: Json | undefined, fixtures: Fixtures, filled: Filled = new Map()): ConformanceCase {
  if (!isObject(raw)) throw new CaseError(file, "a case must be a mapping");
  for (const k of Object.keys(raw)) if (!CASE_KEYS.has(k)) throw new CaseError(file, `unknown key \`${k}\``);
  if (typeof raw.method !== "string") throw new CaseError(file, "`method` is required");
  const exp = raw.expect ?? {};
  if (!isObject(exp)) throw new CaseError(file, "`expect` must be a mapping");
  for (const k of Object.keys(exp)) if (!EXPECT_KEYS.has(k)) throw new CaseError(file, `unknown key \`expect.${k}\``);
  const r = (v: Json | undefined) => fillPlaceholders(v, fixtures, file, filled);
  let http: HttpRequestSpec | null = null;
  if (raw.http !== undefined) {
    if (!isObject(raw.http)) throw new CaseError(file, "`http` must be a mapping");
    const h = raw.http;
    for (const k of Object.keys(h)) if (!HTTP_KEYS.has(k)) throw new CaseError(file, `unknown key \`http.${k}\``);
    if (h.origin !== undefined && typeof h.origin !== "boolean") throw new CaseError(file, "`http.origin` must be true or false");
    if (h.origin === true && (typeof h.path !== "string" || !h.path.startsWith("/")))
      throw new CaseError(file, "`http.origin` needs an absolute `http.path` (`/liveness`)");
    const body = h.json !== undefined ? null : typeof h.body === "string" ? (r(h.body) as string) : null;
    http = {
      method: typeof h.method === "string" ? h.method.toUpperCase() : "POST",
      path: typeof h.path === "string" ? h.path : null,
      ...(h.origin === true ? { origin: true } : {}),
      contentType: typeof h.contentType === "string" ? h.contentType : h.contentType === null ? null : "application/json",
      body,
      json: r(h.json),
    };
  }
  const paginate = exp.paginate ?? [];
  if (!Array.isArray(paginate) || !paginate.every((n) => typeof n === "number" && Number.isInteger(n) && n > 0)) {
    throw new CaseError(file, "`expect.paginate` must be a list of page sizes");
  }
  const related = relations(exp, r, file);
  const params = r(raw.params); // before the other expectations (a missing fixture there is the one a skip names)
  const expect: ConformanceCase["expect"] = {
    status: typeof exp.status === "number" ? exp.status : 200,
    error: errorExpectation(exp.error, r, (text) => fillPattern(text, fixtures, file), file),
    result: isObject(exp.result) ? (r(exp.result) as Record<string, Json>) : null,
    every: isObject(exp.every) ? (r(exp.every) as Record<string, Json>) : null,
    semantics: stringList(exp.semantics, "expect.semantics", file),
    ...related,
    paginate: paginate as number[],
    emptyBody: exp.emptyBody === true,
    batch: Array.isArray(exp.batch) ? (r(exp.batch) as Json[]) : null,
    contentType: typeof exp.contentType === "string" ? exp.contentType : "application/json",
    envelope: exp.envelope !== false && (typeof exp.contentType !== "string" || /json/i.test(exp.contentType)),
    body: r(exp.body),
  };
  for (const { at, arg } of matchesArguments(expect)) {
    const problem = patternProblem(arg);
    if (problem !== null) throw new CaseError(file, `\`expect.${at}\`: a \`matches\` pattern ${problem}`);
  }
  const messageProblem = expect.error?.messageMatches == null ? null : patternProblem(expect.error.messageMatches);
  if (messageProblem !== null) throw new CaseError(file, `\`expect.error.messageMatches\`: a pattern ${messageProblem}`);
  return {
    id,
    file,
    description: typeof raw.description === "string" ? raw.description.trim() : id,
    method: raw.method,
    params,
    http,
    expect,
    required: raw.required !== false,
    recorded: raw.recorded ?? null,
    tags: stringList(raw.tags, "tags", file),
    skip: null,
  };
}

/** Parses a case; one whose placeholders name fixtures the profile lacks comes back marked `skip`. */
export function parseOrSkip(id: string, file: string, text: string, fixtures: Fixtures, filled: Filled = new Map()): ConformanceCase {
  return caseOrSkip(id, file, parseCaseYaml(file, text), fixtures, filled);
}

/** `caseOf`, or the case marked `skip` when its placeholders name fixtures the profile lacks. */
export function caseOrSkip(id: string, file: string, doc: Json | undefined, fixtures: Fixtures, filled: Filled = new Map()): ConformanceCase {
  try {
    return caseOf(id, file, doc, fixtures, filled);
  } catch (err) {
    if (!(err instanceof MissingFixtureError)) throw err;
    const raw = doc as Record<string, unknown>; // a mapping with a method: caseOf read that far
    return {
      id,
      file,
      description: typeof raw.description === "string" ? raw.description.trim() : id,
      method: String(raw.method),
      params: undefined,
      http: null,
      expect: {
        status: 200,
        error: null,
        result: null,
        every: null,
        semantics: [],
        paginate: [],
        emptyBody: false,
        batch: null,
        contentType: "application/json",
        envelope: true,
        body: undefined,
      },
      required: raw.required !== false,
      recorded: null,
      tags: [],
      skip: missingFixture(fixtures, err.key),
    };
  }
}

/** A case file found under the cases directory; `regular`: the directory entry is a regular file (not a link or anything else). */
interface CaseFile {
  readonly path: string;
  readonly regular: boolean;
}

function walk(dir: string): CaseFile[] {
  const out: CaseFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (/\.ya?ml$/.test(entry.name)) out.push({ path, regular: entry.isFile() });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Loads every case under `dir`; any unreadable case is an error (the run exits 2). The files are
 * read synchronously, each in one call: a run reads its cases before its first request anyway.
 */
export async function loadCases(dir: string, fixtures: Fixtures, include?: (id: string) => boolean): Promise<ConformanceCase[]> {
  let files: CaseFile[];
  try {
    files = walk(dir);
  } catch (err) {
    throw new CaseError(dir, `cannot read the cases: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (files.length === 0) throw new CaseError(dir, "no case files (*.yaml) found");
  const idOf = (file: string) =>
    relative(dir, file)
      .replace(/\.ya?ml$/, "")
      .split(sep)
      .join("/");
  // A file whose id `include` refuses is never read (a `--case` selection parses only what it runs).
  const wanted = include ? files.filter((file) => include(idOf(file.path))) : files;
  const filled: Filled = new Map();
  return wanted.map((file) => parseOrSkip(idOf(file.path), relative(process.cwd(), file.path) || file.path, readCase(file), fixtures, filled));
}

/**
 * A case file's text. Anything but a regular file (a FIFO, socket or device, or a link to one) is
 * refused unread, since reading it could wait forever: opened with O_NONBLOCK and read only if a regular file.
 */
function readCase(file: CaseFile): string {
  try {
    if (!file.regular && !statSync(file.path).isFile()) throw new CaseError(file.path, "cannot read the case: not a file");
    const fd = openSync(file.path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      if (!fstatSync(fd).isFile()) throw new CaseError(file.path, "cannot read the case: not a file");
      return readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if (err instanceof CaseError) throw err;
    throw new CaseError(file.path, `cannot read the case: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** `readCase` for one path; `regular`: what its directory entry said (a stale entry is checked again on the open file). */
export function readCaseFile(path: string, regular: boolean): string {
  return readCase({ path, regular });
}
