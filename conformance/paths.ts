/** Locates the package's own files (cases, fixtures) from source or from dist/. */
export { packageRoot } from "../generator/paths.js";
