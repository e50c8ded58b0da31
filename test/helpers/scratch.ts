import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { scratch } from "./paths.js";

/** `scratch/<name>` for a test file: emptied before its tests (beforeAll), removed after them (afterAll). */
export function useScratch(name: string): string {
  const dir = join(scratch, name);
  beforeAll(() => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
