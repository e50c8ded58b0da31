import { fileURLToPath } from "node:url";
import { join } from "node:path";

export const root = fileURLToPath(new URL("../..", import.meta.url));
/** Photon's own OpenAPI specs 0.44.0 and 0.50.0, vendored (see its README.md): tests read nothing outside the repository. */
export const upstream = join(root, "test", "fixtures", "upstream-specs");
export const ourSpec = join(root, "spec", "photon-indexer.yaml");
export const extendedSpec = join(root, "test", "fixtures", "specs", "ledger-extended.yaml");
/** Scratch space inside the package, so generated code resolves `photon-indexer-kit/*`. */
export const scratch = join(root, ".scratch");
