// Runs the conformance CLI from source (used by tests and during development).
import { main } from "../conformance/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
