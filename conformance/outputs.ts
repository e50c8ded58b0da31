/**
 * The files and folders a command writes (`--output`, `record --out`, `cases derive --out`),
 * made sure of before anything runs: a place nothing can be written is a usage error (exit 2).
 * Folders are made one level at a time: Node's recursive mkdir loops for ever where a pseudo
 * file system (/proc) answers ENOENT for a child of a folder that exists.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { access, mkdir, open, rename, rmdir, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { UsageError } from "./errors.js";

/** Why a path cannot be written, in words, from the error's code. */
function why(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case "EEXIST":
    case "ENOTDIR":
      return "a parent of it is a file, not a folder";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EROFS":
      return "a read-only file system";
    case "ENOSPC":
      return "no space left on the device";
    case "ENOENT":
      return "no folder can be created there";
    default:
      return code ?? (err as Error).message;
  }
}

/**
 * Makes `dir` and its missing parents, one at a time; returns the folders it made, outermost
 * first. `what` names the path in the usage error (`--output r/x.xml`); `own`: `dir` is the
 * output itself (`--out DIR`), not the folder of an output file.
 */
async function makeFolders(dir: string, what: string, own: boolean): Promise<string[]> {
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    const found = await stat(at).catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") return null;
      throw new UsageError(`cannot write ${what}: ${why(err)}`);
    });
    if (found?.isDirectory()) break;
    if (found) throw new UsageError(`cannot write ${what}: ${own && at === resolve(dir) ? "it is a file, not a folder" : why({ code: "ENOTDIR" })}`);
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  const made: string[] = [];
  for (const folder of missing) {
    try {
      await mkdir(folder);
      made.push(folder);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST" && (await stat(folder).catch(() => null))?.isDirectory()) continue;
      await removeFolders(made);
      throw new UsageError(`cannot write ${what}: ${why(err)}`);
    }
  }
  return made;
}

async function removeFolders(made: readonly string[]): Promise<void> {
  for (const folder of [...made].reverse()) await rmdir(folder).catch(() => undefined);
}

/**
 * An output file (`--output FILE`): its missing parent folders are made (and kept, as vitest
 * does), and it is opened for appending (so a file there is left as it is; one made for the
 * test is removed). A folder, or a place nothing can be written, is a usage error.
 */
export async function prepareOutputFile(file: string, flag = "--output"): Promise<void> {
  const what = `${flag} ${file}`;
  await makeFolders(dirname(file), what, false);
  const existing = await stat(file).catch(() => null);
  if (existing?.isDirectory()) throw new UsageError(`cannot write ${what}: it is a folder`);
  try {
    await (await open(file, "a")).close();
  } catch (err) {
    throw new UsageError(`cannot write ${what}: ${why(err)}`);
  }
  if (!existing) await unlink(file).catch(() => undefined);
}

/** Makes `dir` (parents too) and sees it writable; returns the folders made. Else a usage error naming `what`, nothing left made. */
async function writableFolder(dir: string, what: string): Promise<string[]> {
  const made = await makeFolders(dir, what, true);
  try {
    await access(dir, constants.W_OK);
    return made;
  } catch (err) {
    await removeFolders(made);
    throw new UsageError(`cannot write ${what}: ${why(err)}`);
  }
}

/**
 * An output folder (`--out DIR`): checked by making it (and its missing parents) and seeing it
 * writable, then removing what was made, so a command that stops early leaves nothing behind;
 * the command makes it again when it writes.
 */
export async function checkOutputFolder(dir: string, flag = "--out"): Promise<void> {
  await removeFolders(await writableFolder(dir, `${flag} ${dir}`));
}

/** An output folder a long-running command keeps writing into (`watch --report-dir`): made and seen writable, and kept. */
export async function makeOutputFolder(dir: string, flag: string): Promise<void> {
  await writableFolder(dir, `${flag} ${dir}`);
}

/**
 * Writes `text` to `file` whole or not at all: into a new file beside it, flushed to disk, then
 * renamed over it, so a reader never sees half of it and a file already there is replaced only
 * by a complete one. A failure is a usage error naming `flag` and the file.
 */
export async function writeFileAtomic(file: string, text: string, flag: string): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    const handle = await open(temp, "wx");
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    const target = await stat(file).catch(() => null);
    throw new UsageError(`cannot write ${flag} ${file}: ${target?.isDirectory() ? "it is a folder" : why(err)}`);
  }
}
