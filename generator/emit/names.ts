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
