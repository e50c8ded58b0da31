/** Identifier helpers shared by the emitters. */

export function pascal(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""));
  return cleaned.charAt(0).toUpperCase() + cleaned.slice(1);
}

/** `getCompressedAccountsByOwner` → `iterateCompressedAccountsByOwner`. */
export function iteratorName(method: string): string {
  const base = /^get[A-Z]/.test(method) ? method.slice(3) : pascal(method);
  return `iterate${base}`;
}

export function quoteKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

export function docLines(...lines: (string | null | undefined)[]): string[] {
  const text = lines.filter((l): l is string => !!l && l.trim() !== "").join("\n\n");
  return text ? [text.replace(/\*\//g, "*\\/")] : [];
}

/**
 * A value as a TypeScript literal that reads as hand-written: identifier keys unquoted,
 * short lists of primitives on one line, nested objects indented.
 */
export function literal(value: unknown, indent = ""): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const parts = value.map((v) => literal(v, inner));
    const flat = `[${parts.join(", ")}]`;
    if (value.every((v) => v === null || typeof v !== "object") && flat.length <= 100) return flat;
    return `[\n${parts.map((p) => `${inner}${p},`).join("\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, v]) => `${inner}${quoteKey(k)}: ${literal(v, inner)},`).join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}
