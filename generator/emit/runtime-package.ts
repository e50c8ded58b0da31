/** The package generated code imports at run time (runtime/package.json's `name`): the only dependency a generated client has. */
export const RUNTIME_PACKAGE = "@photon-indexer-kit/runtime";
