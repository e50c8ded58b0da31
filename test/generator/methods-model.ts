import type { SpecModel } from "../../generator/model.js";

/** A model of `methods` methods getMethod0…, each with one string param and the given result schema. */
export function methodsModel(methods: number, components: SpecModel["components"] = {}, result: unknown = { type: "string" }): SpecModel {
  return {
    title: "T",
    version: "1",
    sha256: "0",
    source: "spec.yaml",
    files: [],
    sourceComponents: {},
    componentSources: {},
    components,
    methods: Array.from({ length: methods }, (_, i) => ({
      name: `getMethod${i}`,
      params: { normalized: { type: "object", properties: { a: { type: "string" } } } },
      result: { normalized: result },
    })) as unknown as SpecModel["methods"],
  };
}
