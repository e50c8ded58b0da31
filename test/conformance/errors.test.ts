/** The coded-error base, the four catalogues and the one exit-status map (conformance/exit.ts). */
import { CommanderError, InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import {
  CaseError,
  ConfErrorCode,
  ConfigError,
  ConformanceError,
  exitStatusOf,
  MissingFixtureError,
  UnreachableError,
  UsageError,
} from "../../conformance/errors.js";
import { exitFor, ExitStatus } from "../../cli/exit.js";
import { GenError, GenErrorCode } from "../../generator/errors.js";
import { DatasetFormatError, RefErrorCode, ReferenceIndexerError, RefRpcCode } from "../../reference/errors.js";
import { RATE_LIMIT_CODE } from "../../reference/serve.js";
import { ClientErrorCode, InternalError, internalError, isCoded, PhotonClientError, PhotonError, RpcCode, RpcError } from "../../runtime/errors.js";

const catalogues = { runtime: ClientErrorCode, generator: GenErrorCode, conformance: ConfErrorCode, reference: RefErrorCode } as const;
const prefixes = { runtime: "PHOTON_ERR_", generator: "PHOTON_GEN_ERR_", conformance: "PHOTON_CONF_ERR_", reference: "PHOTON_REF_ERR_" } as const;

describe("catalogues", () => {
  it("each area's codes carry its prefix, and no code is in two catalogues", () => {
    const all: string[] = [];
    for (const [area, catalogue] of Object.entries(catalogues)) {
      for (const [key, code] of Object.entries(catalogue)) {
        expect(code).toBe(`${prefixes[area as keyof typeof prefixes]}${key}`);
        all.push(code);
      }
    }
    expect(new Set(all).size).toBe(all.length);
  });

  it("every area has an INTERNAL code for internalError", () => {
    for (const catalogue of Object.values(catalogues)) expect(catalogue.INTERNAL).toMatch(/_INTERNAL$/);
    const err = internalError(ConfErrorCode.INTERNAL, "a broken invariant");
    expect(err).toBeInstanceOf(InternalError);
    expect(err).toBeInstanceOf(PhotonError);
    expect(err.toValue()).toEqual({ code: "PHOTON_CONF_ERR_INTERNAL", message: "a broken invariant" });
  });

  it("each area's classes are PhotonErrors with their code", () => {
    const cases: [PhotonError, string][] = [
      [new PhotonClientError(ClientErrorCode.TIMEOUT, "t"), ClientErrorCode.TIMEOUT],
      [new GenError(GenErrorCode.YAML, "y", { file: "spec.yaml" }), GenErrorCode.YAML],
      [new UsageError("u"), ConfErrorCode.USAGE],
      [new ConfigError("c"), ConfErrorCode.CONFIG],
      [new CaseError("a.yaml", "bad"), ConfErrorCode.CASE],
      [new MissingFixtureError("a.yaml", "knownHash"), ConfErrorCode.MISSING_FIXTURE],
      [new UnreachableError("r"), ConfErrorCode.UNREACHABLE],
      [new ReferenceIndexerError(RefErrorCode.OPTIONS, "o"), RefErrorCode.OPTIONS],
      [new DatasetFormatError("d.jsonl", 3, "bad line"), RefErrorCode.DATASET],
    ];
    for (const [err, code] of cases) {
      expect(err).toBeInstanceOf(PhotonError);
      expect(err.code).toBe(code);
      expect(isCoded(err)).toBe(true);
    }
    expect(new MissingFixtureError("a.yaml", "knownHash")).toBeInstanceOf(CaseError);
    expect(new UsageError("u")).toBeInstanceOf(ConformanceError);
  });

  it("messages and names stay as they were", () => {
    expect(new CaseError("a.yaml", "`method` is required").message).toBe("a.yaml: `method` is required");
    expect(new MissingFixtureError("a.yaml", "knownHash").message).toBe("a.yaml: the fixtures profile has no `knownHash`");
    expect(new DatasetFormatError("d.jsonl", 3, "bad line").message).toBe("d.jsonl:3: bad line");
    expect(new GenError(GenErrorCode.YAML, "invalid YAML", { file: "s.yaml", pointer: "/a" }).toString()).toBe("s.yaml#/a: invalid YAML [PHOTON_GEN_ERR_YAML]");
    expect(new UsageError("u").name).toBe("UsageError");
    expect(new PhotonClientError(ClientErrorCode.TIMEOUT, "t").name).toBe("PhotonClientError");
  });

  it("RpcError stays a JSON-RPC value: its code the wire's integer, not a PhotonError", () => {
    const err = RpcError.invalidParams("Invalid params: x");
    expect(err.code).toBe(RpcCode.INVALID_PARAMS);
    expect(err.toJSON()).toEqual({ code: -32602, message: "Invalid params: x" });
    expect(err).not.toBeInstanceOf(PhotonError);
    expect(isCoded(err)).toBe(true);
    expect(isCoded(new Error("plain"))).toBe(false);
  });

  it("the reference indexer's rate-limit code comes from its catalogue", () => {
    expect(RATE_LIMIT_CODE).toBe(RefRpcCode.RATE_LIMITED);
    expect(RefRpcCode.RATE_LIMITED).toBe(-32429);
  });
});

describe("exit statuses (conformance/exit.ts)", () => {
  it("has the README's statuses", () => {
    expect(ExitStatus).toEqual({ OK: 0, FAILED: 1, USAGE: 2, INTERRUPTED: 130 });
  });

  it("maps codes: a stop to 130, a deadline to 1, everything else that could not be carried out to 2", () => {
    expect(exitStatusOf(ConfErrorCode.INTERRUPTED)).toBe(130);
    expect(exitStatusOf(ConfErrorCode.DEADLINE)).toBe(1);
    for (const code of [ConfErrorCode.USAGE, ConfErrorCode.CONFIG, ConfErrorCode.CASE, ConfErrorCode.UNREACHABLE, ConfErrorCode.INPUT])
      expect(exitStatusOf(code)).toBe(2);
    // The other areas' errors carry the default status (2) on the error itself.
    for (const err of [
      new GenError(GenErrorCode.YAML, "y"),
      new GenError(GenErrorCode.REF_CYCLE, "c"),
      new PhotonError(RefErrorCode.DATASET, "d"),
      new PhotonError(ClientErrorCode.NETWORK, "n"),
    ]) {
      expect(err.exitStatus).toBe(2);
    }
    expect(new ConformanceError(ConfErrorCode.DEADLINE, "d").exitStatus).toBe(1);
  });

  it("tells expected errors from unexpected ones, and what commander already printed", () => {
    expect(exitFor(new UsageError("u"))).toEqual({ status: 2, expected: true, printed: false });
    expect(exitFor(new GenError(GenErrorCode.YAML, "y"))).toEqual({ status: 2, expected: true, printed: false });
    expect(exitFor(new ConformanceError(ConfErrorCode.INTERRUPTED, "interrupted (SIGINT)"))).toEqual({ status: 130, expected: true, printed: false });
    expect(exitFor(internalError(GenErrorCode.INTERNAL, "bug"))).toEqual({ status: 2, expected: false, printed: false });
    expect(exitFor(new Error("plain"))).toEqual({ status: 2, expected: false, printed: false });
    expect(exitFor("a string")).toEqual({ status: 2, expected: false, printed: false });
    expect(exitFor(new InvalidArgumentError("--output must follow a --reporter"))).toEqual({ status: 2, expected: true, printed: false });
    expect(exitFor(new CommanderError(0, "commander.helpDisplayed", ""))).toEqual({ status: 0, expected: true, printed: true });
    expect(exitFor(new CommanderError(1, "commander.unknownOption", ""))).toEqual({ status: 2, expected: true, printed: true });
  });
});
