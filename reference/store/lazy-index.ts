/** Grouping and memoising helpers of the store's lazy indexes. */

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

/** Memoises a builder; `built` tells whether it ran; `reset` forgets the value (built again on next use). */
export class Lazy<T> {
  private value: T | undefined;
  constructor(
    readonly name: string,
    private readonly build: () => T,
  ) {}
  get built(): boolean {
    return this.value !== undefined;
  }
  get(): T {
    if (this.value === undefined) this.value = this.build();
    return this.value;
  }
  /** The value when built, else undefined (nothing is built). */
  peek(): T | undefined {
    return this.value;
  }
  reset(): void {
    this.value = undefined;
  }
}
