// The worker thread of suite-sharded.ts: Node does not pass `--import tsx/esm` on to workers, so it registers tsx itself.
import { register } from "tsx/esm/api";

register();
await import("./suite-sharded.ts");
