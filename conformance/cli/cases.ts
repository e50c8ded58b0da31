/** `photon-conformance cases derive [--out DIR]`: the spec-derived cases written as YAML case files for review. */
import { join } from "node:path";
import type { Command } from "commander";
import { ExitStatus } from "@photon-indexer-kit/runtime";
import { DERIVED_PREFIX, writeDerived } from "../derive.js";
import { checkOutputFolder } from "../outputs.js";
import { forConsole } from "../reporters/support/escape.js";
import { loadSpecBundle } from "../spec-bundle.js";
import type { Invocation } from "./context.js";
import { specOption } from "./options.js";

export function casesCommand(program: Command, cli: Invocation): void {
  specOption(
    program
      .command("cases")
      .description("work on the case corpus")
      .command("derive")
      .description("write the spec-derived cases (generated from the method table at load time) as YAML case files for review")
      .option("--out <dir>", "where to write them, as <dir>/derived/<method>/<rule>.yaml", "derived-cases"),
  ).action(async (flags: { out: string; spec?: string }) => {
    const spec = await loadSpecBundle(flags.spec);
    await checkOutputFolder(flags.out);
    const files = await writeDerived(flags.out, spec.methods);
    process.stdout.write(`${files.length} derived cases written under ${forConsole(join(flags.out, DERIVED_PREFIX))}\n`);
    cli.status = ExitStatus.OK;
  });
}
