import { paginated } from "../helpers/spec.js";

/** `paginated(name)` with `x-slot` on its context: its answers carry `context.slot`. */
export function paginatedWithSlot(name: string): ReturnType<typeof paginated> {
  const method = paginated(name);
  const result = structuredClone(method.result) as { properties: { context: Record<string, unknown> } };
  result.properties.context["x-slot"] = "slot";
  return { ...method, result: result as unknown as typeof method.result };
}
