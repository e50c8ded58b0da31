/** Helpers for the diff tests: fixture paths, tiny in-memory specs, and a compact view of a report. */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { stringify } from "yaml";
import type { Change, DiffReport } from "../../../generator/diff/index.js";
import { parseSpecText, type LoadedSpec } from "../../../generator/load.js";
import { buildModel, type SpecModel } from "../../../generator/model.js";
import { root } from "../../helpers/paths.js";

export const bumps = (version: 1 | 2 | 3): string => join(root, "test", "fixtures", "specs", "bumps", `v${version}.yaml`);

/** `method path kind class`, one string per change: easy to compare as a whole list. */
export function lines(report: DiffReport): string[] {
  return report.changes.map((c) => `${c.method} ${c.path || "(method)"} ${c.kind} ${c.class}`);
}

export function find(report: DiffReport, method: string, path: string, kind: Change["kind"]): Change {
  const found = report.changes.filter((c) => c.method === method && c.path === path && c.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind} at ${method} ${path}, found ${found.length}:\n${lines(report).join("\n")}`);
  return found[0]!;
}

type Schema = Record<string, unknown>;

/** A one-method spec (`probe`) around the given params and result schemas and components. */
export function tinyModel(parts: { params?: Schema; result: Schema; components?: Record<string, Schema> }, version = "1.0.0"): SpecModel {
  const doc = {
    openapi: "3.0.3",
    info: { title: "tiny", version },
    paths: {
      "/probe": {
        post: {
          operationId: "probe",
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["jsonrpc", "id", "method", ...(parts.params ? ["params"] : [])],
                  properties: {
                    jsonrpc: { type: "string" },
                    id: { type: "string" },
                    method: { type: "string", enum: ["probe"] },
                    ...(parts.params ? { params: parts.params } : {}),
                  },
                },
              },
            },
          },
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": { schema: { type: "object", properties: { jsonrpc: { type: "string" }, id: { type: "string" }, result: parts.result } } },
              },
            },
          },
        },
      },
    },
    components: { schemas: parts.components ?? {} },
  };
  const text = stringify(doc);
  const file = `tiny-${version}.yaml`;
  const sha256 = createHash("sha256").update(text).digest("hex");
  const spec: LoadedSpec = { source: file, sha256, documents: [{ file, text, doc: parseSpecText(file, text), sha256 }] };
  return buildModel(spec);
}
