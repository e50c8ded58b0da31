/** `rows` grouped by `keyOf` (rows whose key is null are left out), each group in record order. */
export function group<T>(rows: Iterable<T>, keyOf: (row: T) => string | null): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    const list = out.get(key);
    if (list === undefined) out.set(key, [row]);
    else list.push(row);
  }
  return out;
}
