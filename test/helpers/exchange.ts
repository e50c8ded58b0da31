/** A recorded exchange for tests that read one: a 200 answer with `over` laid on it. */
import type { Exchange } from "../../conformance/results.js";

export const exchangeWith = (over: Partial<Exchange>): Exchange => ({
  request: { method: "POST", url: "http://x/", headers: {}, body: "" },
  status: 200,
  headers: {},
  text: "",
  body: undefined,
  parseError: null,
  error: null,
  errorCode: null,
  startedAt: 0,
  durationMs: 1,
  attempts: 1,
  ...over,
});
