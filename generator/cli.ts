/**
 * photon-gen: generate and check the typed client, server stubs and validators.
 * Exit codes (cli/exit.ts, shared with photon-conformance): 0 done, 1 stale (check) or
 * a change matching --fail-on (diff), 2 bad input (unreadable or invalid spec, usage).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Command, Option } from "commander";
import { exitFor, ExitStatus } from "../cli/exit.js";
import { createRedactor, PhotonError, secretsOf } from "@photon-indexer-kit/runtime";
import { diffSpecs, failsOn, render, type DiffFormat, type FailOn } from "./diff/index.js";
import { GenError } from "./errors.js";
import { generate } from "./generate.js";
import { RUNTIME_MODULES, runtimeFor, type RuntimeModule } from "./emit/runtime-package.js";
import { packageRoot, packageVersion } from "./paths.js";
import { compareOutput, writeOutput } from "./write.js";

const DEFAULT_SPEC = "spec/photon-indexer.yaml";
const DEFAULT_OUT = "generated";
const SPEC_HELP = `(default: ${DEFAULT_SPEC} if the working directory has it, else the spec this package ships)`;

/** No --spec: the working directory's spec/photon-indexer.yaml (this repository), else the package's own (a project that installed it). */
function specOf(opts: { spec?: string }): string {
  return opts.spec ?? (existsSync(DEFAULT_SPEC) ? DEFAULT_SPEC : join(packageRoot, DEFAULT_SPEC));
}

interface OutputOptions {
  spec?: string;
  out: string;
  runtime?: RuntimeModule;
}

const runtimeOption = () =>
  new Option("--runtime <module>", "the module generated code imports its runtime from (default: the first the output folder resolves)").choices(
    RUNTIME_MODULES,
  );

/** What `generate` and `check` build: the spec's files for the output folder, importing the runtime that folder resolves. */
function generateFor(opts: OutputOptions) {
  return generate(specOf(opts), process.cwd(), { runtime: opts.runtime ?? runtimeFor(opts.out) });
}

/** A word as a POSIX shell reads it back. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** The `photon-gen generate` command that rewrites what `check` compared: the options given, a URL as shown (no credentials). */
function regenerateCommand(opts: OutputOptions, given: (name: string) => boolean, shownSpec: string): string {
  const words = ["photon-gen", "generate"];
  if (opts.spec !== undefined) words.push("--spec", /^https?:/i.test(opts.spec) ? shownSpec : opts.spec);
  if (given("out")) words.push("--out", opts.out);
  if (opts.runtime !== undefined) words.push("--runtime", opts.runtime);
  return words.map(shellWord).join(" ");
}

/** Masks the credentials of every spec URL on the command line (`--spec http://user:PASS@…?token=…`, diff's two specs). */
function urlRedactor(argv: readonly string[]): (text: string) => string {
  return createRedactor(argv.map((a) => a.replace(/^--[\w-]+=/, "")).flatMap((a) => (/^https?:\/\//i.test(a) ? secretsOf(a) : [])));
}

function report(err: unknown, redact: (text: string) => string): number {
  const exit = exitFor(err);
  if (exit.printed) return exit.status; // commander printed it
  if (exit.expected && err instanceof GenError) process.stderr.write(redact(`photon-gen: ${err.toString()}\n`));
  else if (exit.expected && err instanceof Error)
    process.stderr.write(redact(`photon-gen: ${err instanceof PhotonError ? `${err.message} [${err.code}]` : err.message}\n`));
  else process.stderr.write(redact(`photon-gen: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`));
  return exit.status;
}

export async function main(argv: string[]): Promise<number> {
  const program = new Command("photon-gen")
    .description("Generate a typed client, server stubs and validators from a JSON-RPC OpenAPI spec")
    .version(packageVersion)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  let code: number = ExitStatus.OK;
  program
    .command("generate")
    .description("write generated/ from the spec (atomically: a failure leaves it untouched)")
    .option("--spec <file|dir|url>", `OpenAPI 3.0 spec: a file, a folder of per-method files, or an http(s) URL ${SPEC_HELP}`)
    .option("--out <dir>", "output folder", DEFAULT_OUT)
    .addOption(runtimeOption())
    .action(async (opts: OutputOptions) => {
      const started = performance.now();
      const { model, files } = await generateFor(opts);
      await writeOutput(opts.out, files);
      process.stdout.write(
        `photon-gen: wrote ${files.size} files to ${opts.out} from ${model.title} ${model.version} (${model.methods.length} methods, sha256 ${model.sha256.slice(0, 12)}…) in ${Math.round(performance.now() - started)} ms\n`,
      );
    });
  program
    .command("check")
    .description("exit 1 if the output folder differs from what the spec produces")
    .option("--spec <file|dir|url>", `OpenAPI 3.0 spec ${SPEC_HELP}`)
    .option("--out <dir>", "output folder", DEFAULT_OUT)
    .addOption(runtimeOption())
    .action(async (opts: OutputOptions, command: Command) => {
      const { model, files } = await generateFor(opts);
      const stale = await compareOutput(opts.out, files);
      const lines = [
        ...stale.changed.map((f) => `  changed: ${opts.out}/${f}`),
        ...stale.missing.map((f) => `  missing: ${opts.out}/${f}`),
        ...stale.extra.map((f) => `  not generated: ${opts.out}/${f}`),
      ];
      if (lines.length > 0) {
        process.stderr.write(
          `photon-gen: ${opts.out} is stale for ${model.source} (${model.version}); run \`${regenerateCommand(opts, (name) => command.getOptionValueSource(name) === "cli", model.source)}\`:\n${lines.join("\n")}\n`,
        );
        code = ExitStatus.FAILED;
      } else {
        process.stdout.write(`photon-gen: ${opts.out} is up to date with ${model.source} (${model.version}, sha256 ${model.sha256.slice(0, 12)}…)\n`);
      }
    });
  program
    .command("diff")
    .description("compare two specs by meaning and classify each change as breaking for clients, for servers, or compatible")
    .argument("<old>", "the spec before: a file, a folder of per-method files, or an http(s) URL")
    .argument("<new>", "the spec after")
    .addOption(new Option("--format <format>", "report format").choices(["text", "markdown", "json"]).default("text"))
    .addOption(
      new Option("--fail-on <what>", "exit 1 when a change breaks clients or servers (breaking), clients, servers, or on any change").choices([
        "breaking",
        "clients",
        "servers",
        "any",
      ]),
    )
    .option("--include-docs", "also compare descriptions and summaries", false)
    .action(async (oldSpec: string, newSpec: string, opts: { format: DiffFormat; failOn?: FailOn; includeDocs: boolean }) => {
      const report = await diffSpecs(oldSpec, newSpec, { includeDocs: opts.includeDocs });
      process.stdout.write(render(report, opts.format));
      if (failsOn(report, opts.failOn)) code = ExitStatus.FAILED;
    });
  try {
    await program.parseAsync(argv, { from: "user" });
    return code;
  } catch (err) {
    return report(err, urlRedactor(argv));
  }
}
