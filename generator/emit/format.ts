/**
 * Generated files are formatted by Biome, with the formatter settings of this package's own
 * biome.json (the rules `npm test` checks the whole repository against), through Biome's
 * WebAssembly build: the output is the same on every platform and in any project the generator
 * writes into, whatever that project's own formatter settings are.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Biome } from "@biomejs/js-api/nodejs";
import { internalError } from "@photon-indexer-kit/runtime";
import { GenErrorCode } from "../errors.js";
import { packageRoot } from "../paths.js";

interface Formatter {
  format(fileName: string, text: string): string;
}

let formatter: Formatter | undefined;

/** The formatter settings of the package's biome.json (formatter and javascript.formatter only). */
function settings(): Record<string, unknown> {
  const config = JSON.parse(readFileSync(join(packageRoot, "biome.json"), "utf8")) as { formatter?: unknown; javascript?: { formatter?: unknown } };
  return { formatter: config.formatter, javascript: { formatter: config.javascript?.formatter } };
}

function create(): Formatter {
  const biome = new Biome();
  const { projectKey } = biome.openProject(packageRoot);
  biome.applyConfiguration(projectKey, settings() as never);
  return {
    format(fileName, text) {
      try {
        return biome.formatContent(projectKey, text, { filePath: fileName }).content;
      } catch (err) {
        throw internalError(GenErrorCode.INTERNAL, `photon-gen: internal error: Biome cannot format ${fileName}: ${(err as Error).message}`, err);
      }
    },
  };
}

/** `text` formatted as Biome formats a file named `fileName` under the package's settings. */
export function formatGenerated(fileName: string, text: string): string {
  formatter ??= create();
  return formatter.format(fileName, text);
}
