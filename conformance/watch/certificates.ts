/**
 * `watch --report-dir DIR`: the certificate of the last completed run, and of the last failing one,
 * each as markdown, HTML and JSON (`last.md`, `last-failing.html`, …), every file replaced whole
 * (outputs.ts `writeFileAtomic`), through the command's one redactor.
 */
import { join } from "node:path";
import type { Redactor } from "@photon-indexer-kit/runtime";
import { makeOutputFolder, writeFileAtomic } from "../outputs.js";
import { renderReport, type ReporterName } from "../reporters/index.js";
import type { RunSummary } from "../results.js";

const FORMATS: readonly (readonly [ReporterName, string])[] = [
  ["markdown", "md"],
  ["html", "html"],
  ["json", "json"],
];

const FLAG = "--report-dir";

export class CertificateDir {
  private constructor(private readonly dir: string) {}

  /** The folder, made if missing; one that cannot be written is a usage error. */
  static async open(dir: string): Promise<CertificateDir> {
    await makeOutputFolder(dir, FLAG);
    return new CertificateDir(dir);
  }

  /** Writes the run's certificate as `last.*`, and as `last-failing.*` too when it `failed`. */
  async write(summary: RunSummary, redact: Redactor, failed: boolean): Promise<void> {
    await makeOutputFolder(this.dir, FLAG); // removed while watch ran: made again
    for (const [reporter, extension] of FORMATS) {
      const text = redact(renderReport(reporter, summary, null, redact));
      await writeFileAtomic(join(this.dir, `last.${extension}`), text, FLAG);
      if (failed) await writeFileAtomic(join(this.dir, `last-failing.${extension}`), text, FLAG);
    }
  }
}
