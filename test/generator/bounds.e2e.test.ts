/** The generator's long or process-bound limits: 10,000 methods compiled, a FIFO refused (made by mkfifo). */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../generator/cli.js";
import { captured } from "../helpers/capture.js";
import { useScratch } from "../helpers/scratch.js";
import { emitValidators } from "../../generator/emit/validators.js";
import { methodsModel } from "./methods-model.js";

const dir = useScratch("bounds-fifo");
const folder = join(dir, "folder");
const generate = (spec: string) => captured(main, ["generate", "--spec", spec, "--out", join(dir, "out")]);

describe("--spec DIR", () => {
  it("refuses a FIFO without waiting on it, in a folder or as the spec", async () => {
    mkdirSync(folder, { recursive: true });
    const fifo = join(folder, "pipe.yaml");
    execFileSync("mkfifo", [fifo]);
    const inFolder = await generate(folder);
    expect(inFolder.code).toBe(2);
    expect(inFolder.out).toMatch(/pipe\.yaml: not a regular file \(a FIFO, socket or device is refused\)/);
    const alone = await generate(fifo);
    expect(alone.code).toBe(2);
    expect(alone.out).toContain("not a regular file");
    rmSync(fifo);
  });
});

describe("many methods", () => {
  it("compiles the validators of 10,000 methods (ajv's standalone writer overflowed the stack)", () => {
    const { code, layout } = emitValidators(methodsModel(10_000));
    expect(layout.methods).toHaveLength(10_000);
    expect(code).toContain("export const getMethod9999Params: StandaloneValidate = ");
    expect(code).toContain("export const getMethod9999Result: StandaloneValidate = ");
  }, 60_000);
});
