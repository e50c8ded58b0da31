// Runs the generator CLI from source (used by tests and during development).
import { main } from "../generator/cli.js";

process.exitCode = await main(process.argv.slice(2));
