// Writes dist/reference/trees/poseidon-memo.bin (reference/trees/poseidon-memo.ts): every Poseidon
// call made building the default dataset's trees (generateDataset()'s defaults, which
// startReferenceIndexer() uses when given no dataset) and every zero value, hashed by the library
// and recorded as it goes. Run by scripts/build.mjs once dist/ is compiled; any failure fails the build.
import { Forest, generateDataset } from "../dist/reference/index.js";
import { DEFAULT_MEMO_FILE } from "../dist/reference/trees/poseidon-memo.js";
import { MAX_HEIGHT, recordPoseidon, zeroHash } from "../dist/reference/trees/poseidon.js";

const started = performance.now();
const recording = recordPoseidon();
const data = generateDataset();
zeroHash(MAX_HEIGHT); // every level's zero value on the way
await new Forest(data).warm({ sliceMs: 60_000 });
const recorded = recording.stop();
recorded.write(DEFAULT_MEMO_FILE);
console.log(`build: ${recorded.size} Poseidon outputs of the default dataset's trees written (${Math.round(performance.now() - started)} ms)`);
