/**
 * The interface a run certifies against (`--spec VERSION|PATH`), threaded through session, checks and
 * summary: the bundled default (generated/), another bundled version (spec/versions/<version>.yaml), or
 * a spec file compiled at start by generator/compile.ts (loaded only then). A spec that cannot be read
 * or compiled is a usage error naming the file and pointer.
 */
import { existsSync, readdirSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { isObject, PhotonError, redactUrl, type EnvelopeValidators, type MethodValidators } from "@photon-indexer-kit/runtime";
import type { ConformanceCase } from "./case-format.js";
import { envelopeValidators, methods, methodValidators, spec } from "../generated/index.js";
import { UsageError } from "./errors.js";
import { packageRoot } from "./paths.js";
import { canonicalMethod, type MethodTable } from "./spec-facts.js";

export interface SpecBundle {
  /** The spec's identity, as the certificate names it. */
  readonly spec: { readonly title: string; readonly version: string; readonly sha256: string };
  /** Where the spec was read: an absolute path (a bundled version, a file), or the `--spec` URL as given. */
  readonly file: string;
  /** Every method by name (entries as generated/methods.ts has them: aliases, registered, paramShape). */
  readonly methods: MethodTable;
  /** Each method's params and result validator. */
  readonly validators: Readonly<Record<string, MethodValidators>>;
  readonly envelope: EnvelopeValidators;
}

/** The bundled default: the spec generated/ was generated from (DECISIONS row 52). */
export const defaultSpec: SpecBundle = {
  spec: { title: spec.title, version: spec.version, sha256: spec.sha256 },
  file: join(packageRoot, "spec", "photon-indexer.yaml"),
  methods,
  validators: methodValidators,
  envelope: envelopeValidators,
};

/** Where the other bundled spec versions are: spec/versions/<version>.yaml in the package (package.json `files` ships spec/). */
export const specVersionsDir: string = join(packageRoot, "spec", "versions");

const VERSION_FILE = /^(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)\.ya?ml$/;

/** The versions `--spec` takes by name: the default's and each spec/versions file's, in version order. */
export function bundledVersions(): string[] {
  const files = existsSync(specVersionsDir) ? readdirSync(specVersionsDir).flatMap((f) => VERSION_FILE.exec(f)?.[1] ?? []) : [];
  const numeric = (v: string) => v.split(/[.+-]/).map((p) => Number(p) || 0);
  return [...new Set([spec.version, ...files])].sort((a, b) => {
    const [x, y] = [numeric(a), numeric(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return a.localeCompare(b);
  });
}

const isUrl = (value: string) => /^https?:\/\//i.test(value);

/** How reports name the spec file: relative to the working directory as case files are (a URL as given). */
export function shownSpecFile(bundle: Pick<SpecBundle, "file">, cwd: string = process.cwd()): string {
  if (isUrl(bundle.file) || !isAbsolute(bundle.file)) return bundle.file;
  return relative(cwd, bundle.file) || bundle.file;
}

/** A `--spec` value naming a version (`0.50.0`), not a file. */
const looksLikeVersion = (value: string) => /^v?\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.-]+)?$/.test(value);

/** The file of a bundled version, or null. */
function versionFile(version: string): string | null {
  for (const ext of [".yaml", ".yml"]) {
    const file = join(specVersionsDir, `${version}${ext}`);
    if (existsSync(file)) return file;
  }
  return null;
}

/**
 * The interface `--spec` names: nothing or the default's version → the bundled default as it is;
 * another bundled version or a file → compiled now (once per run).
 */
export async function loadSpecBundle(choice: string | undefined, cwd: string = process.cwd()): Promise<SpecBundle> {
  if (choice === undefined || choice === "" || choice === spec.version) return defaultSpec;
  let source: string;
  if (looksLikeVersion(choice)) {
    const file = versionFile(choice.replace(/^v/, ""));
    if (file === null) throw new UsageError(`--spec ${choice}: no such bundled spec version (bundled: ${bundledVersions().join(", ")}; or give a spec file)`);
    source = file;
  } else source = choice;
  const { compileSpec, GenError } = await import("../generator/compile.js");
  // A spec URL's userinfo and query values (a token) are never echoed.
  const shown = /^https?:\/\//i.test(choice) ? redactUrl(choice) : choice;
  try {
    const compiled = await compileSpec(source, cwd);
    return {
      spec: { title: compiled.spec.title, version: compiled.spec.version, sha256: compiled.spec.sha256 },
      // Reports name it (derived cases' source): a URL without its userinfo and query values.
      file: isUrl(source) ? redactUrl(source) : resolve(cwd, source),
      methods: compiled.methods,
      validators: compiled.validators,
      envelope: compiled.envelope,
    };
  } catch (err) {
    // GenError.toString() names the file, the JSON pointer and the code.
    if (err instanceof GenError) throw new UsageError(`--spec ${shown}: ${err.toString()}`, { cause: err });
    throw err instanceof PhotonError ? err : new UsageError(`--spec ${shown}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * The methods a case calls: its own, those of its cross-method expectations (`agrees`, `sum`,
 * `follow`), and each call of a raw JSON body (a batch).
 */
export function methodsCalled(c: ConformanceCase): string[] {
  const out = [c.method];
  for (const a of c.expect.agrees ?? []) out.push(a.method);
  if (c.expect.sum?.method) out.push(c.expect.sum.method);
  for (const f of c.expect.follow ?? []) out.push(f.method);
  const json = c.http?.json;
  for (const call of Array.isArray(json) ? json : [json]) if (isObject(call) && typeof call.method === "string") out.push(call.method);
  return out;
}

/**
 * Whether a case applies to the chosen spec: not when a method it calls (aliases resolved) is one
 * of the bundled default spec's methods that the chosen spec lacks. A case about a name no spec
 * knows (a protocol case's unknown method) stays.
 */
export function appliesTo(c: ConformanceCase, chosen: SpecBundle): boolean {
  if (chosen === defaultSpec) return true;
  return methodsCalled(c).every((m) => canonicalMethod(m, chosen.methods) !== undefined || canonicalMethod(m, defaultSpec.methods) === undefined);
}
