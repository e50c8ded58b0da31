/** Asserting a refusal of the generator: the promise rejects with a GenError naming the file, the JSON pointer, the message and the code. */
import { expect } from "vitest";
import { GenError } from "../../generator/errors.js";

export async function expectGenError(
  attempt: Promise<unknown>,
  expected: { readonly file: string; readonly pointer: string; readonly message: string; readonly code: string },
): Promise<void> {
  const err = await attempt.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GenError);
  const gen = err as GenError;
  expect(expected.file.endsWith(gen.file!)).toBe(true);
  expect(gen.pointer).toBe(expected.pointer);
  expect(gen.message).toContain(expected.message);
  expect(gen.code).toBe(expected.code);
}
