/**
 * The result memo: serialised results by call (method and validated params) for servers whose
 * handlers are pure over immutable data; bounded in entries and characters, oldest dropped first.
 */
export class ResultMemo {
  private readonly texts = new Map<string, string>();
  private readonly encoded = new Map<string, Buffer>();
  private size = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  get(key: string): string | undefined {
    return this.texts.get(key);
  }

  /** The result as UTF-8 bytes, encoded once on its first reuse. */
  bytes(key: string): Buffer | undefined {
    const hit = this.encoded.get(key);
    if (hit !== undefined) return hit;
    const text = this.texts.get(key);
    if (text === undefined) return undefined;
    const bytes = Buffer.from(text, "utf8");
    this.encoded.set(key, bytes);
    return bytes;
  }

  /** Forgets every result. */
  clear(): void {
    this.texts.clear();
    this.encoded.clear();
    this.size = 0;
  }

  set(key: string, text: string): void {
    if (text.length > this.maxChars || this.texts.has(key)) return;
    this.texts.set(key, text);
    this.size += key.length + text.length;
    for (const [k, v] of this.texts) {
      if (this.texts.size <= this.maxEntries && this.size <= this.maxChars) break;
      this.texts.delete(k);
      this.encoded.delete(k);
      this.size -= k.length + v.length;
    }
  }
}
