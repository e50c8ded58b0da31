/**
 * The generated README documents `minContextSlot` and walk slots, with an example built from the
 * spec's first paginated method whose answers carry a slot (`x-slot`), and no example when none does.
 */
import { describe, expect, it } from "vitest";
import { emitAll } from "../../generator/emit/index.js";
import { modelOf, paginated, specOf } from "../helpers/spec.js";
import { paginatedWithSlot } from "./slot-spec.js";

const readmeOf = async (methods: ReturnType<typeof paginated>[]) =>
  (await emitAll(await modelOf(specOf(methods)), { generatorVersion: "0.0.0" })).get("README.md")!;

describe("the README's section on waiting for the indexer", () => {
  it("names the option, the error and the walk's slots, with an example over a paginated method with a slot", async () => {
    const readme = await readmeOf([paginated("listA"), paginatedWithSlot("listB")]);
    expect(readme).toContain("## Waiting for the indexer, and walks that straddle slots");
    expect(readme).toContain("PHOTON_ERR_INDEXER_BEHIND");
    expect(readme).toContain("`await photon.listB({ owner }, { minContextSlot: slot, timeoutMs: 20_000 })`");
    expect(readme).toContain(
      "`const walk = photon.iterateListB({ owner }); for await (const item of walk) use(item);`, then `walk.mixedSlots` and `walk.slots`",
    );
  });

  it("leaves the example out when no paginated method's answers carry a slot", async () => {
    const readme = await readmeOf([paginated("listA")]);
    expect(readme).toContain("`mixedSlots`");
    expect(readme).not.toContain("For example");
  });
});
