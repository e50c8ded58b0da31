/** The error codes the indexer metrics read of an exchange. */
import { describe, expect, it } from "vitest";
import { ClientErrorCode } from "../../../runtime/index.js";
import { ConfErrorCode } from "../../../conformance/errors.js";
import { errorCodes, givenUp } from "../../../conformance/watch/exchanges.js";
import { exchangeWith } from "../../helpers/exchange.js";

const exchange = exchangeWith;

describe("errorCodes", () => {
  it("is empty for a good answer", () => {
    expect(errorCodes(exchange({ body: { jsonrpc: "2.0", id: 1, result: 5 } }))).toEqual([]);
  });
  it("reads a JSON-RPC error's code, a batch's each, and a code that is not an integer as invalid", () => {
    expect(errorCodes(exchange({ body: { error: { code: -32602, message: "x" } } }))).toEqual(["-32602"]);
    expect(errorCodes(exchange({ body: { error: { code: 18446744073709551615n } } }))).toEqual(["18446744073709551615"]);
    expect(errorCodes(exchange({ body: [{ result: 1 }, { error: { code: -32601 } }, { error: { code: "x" } }] }))).toEqual(["-32601", "invalid"]);
  });
  it("names a non-2xx answer without a JSON-RPC error by its status, and a transport failure by its code", () => {
    expect(errorCodes(exchange({ status: 503, body: undefined, parseError: "empty body" }))).toEqual(["http_503"]);
    expect(errorCodes(exchange({ status: 0, error: "timed out", errorCode: ClientErrorCode.TIMEOUT }))).toEqual([ClientErrorCode.TIMEOUT]);
  });
  it("counts nothing the suite gave up itself", () => {
    for (const code of [ClientErrorCode.ABORTED, ConfErrorCode.INTERRUPTED, ConfErrorCode.DEADLINE]) {
      const given = exchange({ status: 0, error: "stopped", errorCode: code });
      expect(givenUp(given)).toBe(true);
      expect(errorCodes(given)).toEqual([]);
    }
  });
});
