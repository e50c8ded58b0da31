/** The profile's consistency check: a dataset that is not `generateDataset` output is refused with a ProfileError. */
import { RefErrorCode, ReferenceIndexerError } from "./errors.js";

export class ProfileError extends ReferenceIndexerError {
  override name = "ProfileError";
  constructor(message: string) {
    super(RefErrorCode.PROFILE, message);
  }
}

export function expect(ok: boolean, what: string): void {
  if (!ok) throw new ProfileError(`dataset does not match generateDataset output: ${what}`);
}
