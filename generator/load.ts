/**
 * Reads spec documents: a YAML or JSON file, a directory of per-method files (the 0.44.0
 * upstream layout), or an http(s) URL. Checks that each is an OpenAPI 3.0 document whose
 * `$ref`s all resolve inside it, so later stages can assume a well-formed graph.
 */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { isMap, isScalar, isSeq, parseDocument } from "yaml";
import { ClientErrorCode, isObject, PhotonError, postJson, type Json, type JsonObject } from "@photon-indexer-kit/runtime";
import { GenError, GenErrorCode, pointerOf, unescapePointer } from "./errors.js";

export interface SpecDocument {
  /** The path or redacted URL the document came from, as shown in messages. */
  readonly file: string;
  readonly text: string;
  readonly doc: JsonObject;
  readonly sha256: string;
}

export interface LoadedSpec {
  readonly source: string;
  readonly documents: readonly SpecDocument[];
  /** sha256 of the single document, or of the sorted per-file hashes for a directory. */
  readonly sha256: string;
}

/** The most a spec may weigh: one file, a folder's files together, or a URL's body. */
export const MAX_SPEC_BYTES = 50 * 1024 * 1024;
/** The most files a spec folder may hold. */
export const MAX_SPEC_FILES = 10_000;
const TOO_LARGE = "spec is larger than 50 MiB";

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "<invalid url>";
  }
}

/**
 * The whole fetch of a spec URL (connect, headers and body together) ends by this deadline,
 * so a server dripping a byte a second cannot hold a command forever: PHOTON_SPEC_TIMEOUT
 * (milliseconds, or a number with ms, s or m), else 60 s.
 */
export const SPEC_FETCH_TIMEOUT_MS = 60_000;

function fetchDeadline(file: string, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PHOTON_SPEC_TIMEOUT?.trim();
  if (!raw) return SPEC_FETCH_TIMEOUT_MS;
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(raw);
  const ms = m ? Math.round(Number(m[1]) * { ms: 1, s: 1000, m: 60_000 }[(m[2] ?? "ms") as "ms"]) : Number.NaN;
  if (!(ms >= 1)) throw new GenError(GenErrorCode.READ, "PHOTON_SPEC_TIMEOUT is a duration: milliseconds, or a number with ms, s or m (e.g. 90s)", { file });
  return ms;
}

/** GETs a spec URL with the runtime's transport: one overall deadline, the size cap, no retries, messages without credentials. */
async function readUrl(url: string): Promise<{ file: string; text: string }> {
  const file = displayUrl(url);
  const timeoutMs = fetchDeadline(file);
  try {
    const res = await postJson(url, "", {
      method: "GET",
      contentType: null,
      headers: { accept: "application/yaml, application/json;q=0.9, */*;q=0.5" },
      timeoutMs,
      maxBodyBytes: MAX_SPEC_BYTES,
      retry: false,
    });
    if (res.status !== 200) throw new GenError(GenErrorCode.READ, `HTTP ${res.status} fetching the spec`, { file });
    return { file, text: res.body };
  } catch (err) {
    if (err instanceof GenError) throw err;
    if (err instanceof PhotonError && err.code === ClientErrorCode.BODY_TOO_LARGE) throw new GenError(GenErrorCode.READ, TOO_LARGE, { file });
    throw new GenError(GenErrorCode.READ, `cannot fetch the spec: ${(err as Error).message}`, { file });
  }
}

/** Parses YAML (a superset of JSON) into plain data; errors name the file and line. */
export function parseSpecText(file: string, text: string): JsonObject {
  // yaml's own duplicate-key check compares every pair of keys (quadratic: 20,000 keys take
  // seconds); duplicateKey below does the same in one pass.
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: false });
  if (document.errors.length > 0) {
    const e = document.errors[0]!;
    const line = e.linePos?.[0];
    const where = line ? ` at line ${line.line}, column ${line.col}` : "";
    const reason = e.message.split("\n")[0]!.replace(/\s+at line \d+, column \d+:?$/, "");
    throw new GenError(GenErrorCode.YAML, `invalid YAML${where}: ${reason}`, { file });
  }
  const duplicate = duplicateKey(document.contents, text);
  if (duplicate) {
    throw new GenError(
      GenErrorCode.YAML,
      `invalid YAML at line ${duplicate.line}, column ${duplicate.column}: Map keys must be unique (${JSON.stringify(duplicate.key)} repeats)`,
      { file },
    );
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    throw new GenError(GenErrorCode.YAML, `invalid YAML: ${(err as Error).message}`, { file });
  }
  if (!isObject(data)) throw new GenError(GenErrorCode.NOT_OPENAPI, "the document is not a mapping", { file, pointer: "" });
  const version = data.openapi;
  if (typeof version !== "string" || !/^3\.0\.\d+$/.test(version)) {
    throw new GenError(GenErrorCode.NOT_OPENAPI, `expected \`openapi: 3.0.x\`, found ${JSON.stringify(version ?? null)}`, {
      file,
      pointer: "/openapi",
    });
  }
  if (!isObject(data.info) || typeof data.info.title !== "string" || typeof data.info.version !== "string") {
    throw new GenError(GenErrorCode.NOT_OPENAPI, "`info.title` and `info.version` must be strings", { file, pointer: "/info" });
  }
  if (!isObject(data.paths)) throw new GenError(GenErrorCode.NOT_OPENAPI, "`paths` must be a mapping", { file, pointer: "/paths" });
  return data;
}

/** The first key repeated within one mapping, with its line, in one pass over the document. */
function duplicateKey(root: unknown, text: string): { key: string; line: number; column: number } | null {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : JSON.stringify(pair.key);
        if (seen.has(key)) {
          const offset = isScalar(pair.key) && pair.key.range ? pair.key.range[0] : 0;
          const before = text.slice(0, offset);
          return { key, line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
        }
        seen.add(key);
        stack.push(pair.value);
      }
    } else if (isSeq(node)) stack.push(...node.items);
  }
  return null;
}

/** Resolves a local JSON pointer (`#/a/b`) inside a document, or returns undefined. */
export function resolvePointer(doc: Json, ref: string): Json | undefined {
  if (!ref.startsWith("#")) return undefined;
  const path = ref.slice(1);
  if (path === "") return doc;
  if (!path.startsWith("/")) return undefined;
  let node: Json | undefined = doc;
  for (const raw of path.slice(1).split("/")) {
    const key = unescapePointer(decodeURIComponent(raw));
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * Every `$ref` must be local and resolve; a chain of refs must reach a non-ref node. A ref once
 * found to end well is remembered, so each is followed once however many chains pass through it
 * (a chain of n refs costs n steps, not n²/2).
 */
export function checkRefs(file: string, doc: JsonObject): void {
  const ends = new Set<string>();
  const walk = (node: Json, path: (string | number)[]): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => walk(child, [...path, i]));
      return;
    }
    if (!isObject(node)) return;
    const ref = node.$ref;
    if (ref !== undefined) {
      const pointer = pointerOf([...path, "$ref"]);
      if (typeof ref !== "string") throw new GenError(GenErrorCode.SCHEMA, "`$ref` must be a string", { file, pointer });
      if (!ref.startsWith("#")) {
        throw new GenError(GenErrorCode.REF_EXTERNAL, `external $ref ${JSON.stringify(ref)} is not supported; bundle the spec first`, { file, pointer });
      }
      const seen = new Set<string>();
      let current: string = ref;
      while (!ends.has(current)) {
        if (seen.has(current)) throw new GenError(GenErrorCode.REF_CYCLE, `$ref ${JSON.stringify(ref)} is a cycle of references`, { file, pointer });
        seen.add(current);
        const target = resolvePointer(doc, current);
        if (target === undefined) throw new GenError(GenErrorCode.REF_UNKNOWN, `$ref ${JSON.stringify(current)} does not resolve`, { file, pointer });
        const next = isObject(target) ? target.$ref : undefined;
        if (typeof next === "string" && next.startsWith("#")) current = next;
        else break;
      }
      for (const followed of seen) ends.add(followed);
    }
    for (const [key, child] of Object.entries(node)) if (key !== "$ref") walk(child, [...path, key]);
  };
  walk(doc, []);
}

function readError(err: unknown, file: string): GenError {
  if (err instanceof GenError) return err;
  return new GenError(GenErrorCode.READ, `cannot read the spec: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { file });
}

/**
 * Reads one regular file of at most `limit` bytes. Opened non-blocking and checked on the open
 * handle, so a FIFO, socket or device is refused without waiting on it; read by size, so a file
 * that grows meanwhile cannot pass the cap.
 */
async function readRegular(path: string, shown: string, limit: number): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw readError(err, shown);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new GenError(GenErrorCode.READ, "not a regular file (a FIFO, socket or device is refused)", { file: shown });
    if (info.size > limit) throw new GenError(GenErrorCode.READ, TOO_LARGE, { file: shown });
    const buffer = Buffer.alloc(info.size + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > info.size) throw new GenError(GenErrorCode.READ, "the file grew while it was read", { file: shown });
    }
    return buffer.toString("utf8", 0, length);
  } catch (err) {
    throw readError(err, shown);
  } finally {
    await handle.close();
  }
}

/**
 * A folder's `.yaml`, `.yml` and `.json` files, sorted by name: regular files only, symlinks
 * only when they resolve inside the folder, at most MAX_SPEC_FILES files and MAX_SPEC_BYTES
 * together.
 */
async function readFolder(path: string): Promise<{ file: string; text: string }[]> {
  let root: string;
  let names: string[];
  try {
    root = await realpath(path);
    names = (await readdir(path)).filter((n) => /\.(ya?ml|json)$/i.test(n)).sort();
  } catch (err) {
    throw readError(err, path);
  }
  if (names.length === 0) throw new GenError(GenErrorCode.READ, "the directory holds no .yaml, .yml or .json files", { file: path });
  if (names.length > MAX_SPEC_FILES)
    throw new GenError(GenErrorCode.LIMIT, `the directory holds ${names.length} spec files; at most ${MAX_SPEC_FILES} are read`, { file: path });
  const out: { file: string; text: string }[] = [];
  let remaining = MAX_SPEC_BYTES;
  for (const name of names) {
    const file = join(path, name);
    let target = file;
    try {
      if ((await lstat(file)).isSymbolicLink()) {
        target = await realpath(file);
        const inside = relative(root, target);
        if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) {
          throw new GenError(GenErrorCode.READ, "a symbolic link out of the spec folder is not followed", { file });
        }
      }
    } catch (err) {
      throw readError(err, file);
    }
    const text = await readRegular(target, file, remaining);
    remaining -= Buffer.byteLength(text);
    out.push({ file, text });
  }
  return out;
}

async function readLocal(path: string): Promise<{ file: string; text: string }[]> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (err) {
    throw readError(err, path);
  }
  if (info.isDirectory()) return readFolder(path);
  return [{ file: path, text: await readRegular(path, path, MAX_SPEC_BYTES) }];
}

/** Loads one spec: a file, a directory of per-method files, or an http(s) URL. */
export async function loadSpec(source: string, cwd = process.cwd()): Promise<LoadedSpec> {
  const raw = /^https?:\/\//i.test(source) ? [await readUrl(source)] : await readLocal(source);
  const documents = raw.map(({ file, text }) => {
    const shown = /^https?:/.test(file) ? file : relative(cwd, file) || file;
    const doc = parseSpecText(shown, text);
    checkRefs(shown, doc);
    return { file: shown, text, doc, sha256: sha256(text) };
  });
  const digest = documents.length === 1 ? documents[0]!.sha256 : sha256(documents.map((d) => d.sha256).join("\n"));
  return { source: /^https?:/i.test(source) ? displayUrl(source) : relative(cwd, source) || source, documents, sha256: digest };
}
