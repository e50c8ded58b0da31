/** Values computed on first use: a lazy property, a lazy value, and a value built a slice at a time. */

/**
 * Defines `key` on `target` as an enumerable property computed on first read (then kept, in the
 * same key position): JSON.stringify and deep equality see a plain value.
 */
export function defineLazy<T extends object, K extends keyof T>(target: T, key: K, make: () => T[K]): void {
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get(): T[K] {
      const value = make();
      Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
      return value;
    },
  });
}

/** A value made on first use and kept until `reset`; `name` is what the store's `builtIndexes` lists. */
export class Lazy<T> {
  private value: T | undefined;
  private done = false;
  constructor(
    private readonly make: () => T,
    readonly name = "",
  ) {}
  get built(): boolean {
    return this.done;
  }
  get(): T {
    if (!this.done) {
      this.value = this.make();
      this.done = true;
    }
    return this.value as T;
  }
  /** The value when it has been made, else undefined (nothing is made). */
  peek(): T | undefined {
    return this.done ? this.value : undefined;
  }
  /** Forgets the value: the next `get` makes it again. */
  reset(): void {
    this.value = undefined;
    this.done = false;
  }
}

/** A value built a slice at a time (`steps`, one `next()` per slice) or at once (`get`), by the same single build. */
export class Stepwise<T> {
  private build: Generator<void, T, undefined> | null = null;
  private value: T | undefined;
  private done = false;
  constructor(private readonly make: () => Generator<void, T, undefined>) {}
  get(): T {
    while (!this.done) this.step();
    return this.value as T;
  }
  /** The value when its build has ended, else undefined (nothing is built). */
  peek(): T | undefined {
    return this.done ? this.value : undefined;
  }
  *steps(): Generator<void, void, undefined> {
    while (!this.done) {
      this.step();
      if (!this.done) yield;
    }
  }
  private step(): void {
    this.build ??= this.make();
    let r: IteratorResult<void, T>;
    try {
      r = this.build.next();
    } catch (err) {
      // A build that fails fails again, with the same error, on the next use.
      this.build = null;
      throw err;
    }
    if (r.done) {
      this.value = r.value;
      this.done = true;
      this.build = null;
    }
  }
}
