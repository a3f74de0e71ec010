// Deterministic randomness: the same --seed and the same requests give the same identifiers,
// so recorded plans and golden files stay stable from run to run.

const HEX_DIGITS = "0123456789abcdef";

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** mulberry32: small, fast, good enough for identifiers and fault dice. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(minInclusive: number, maxInclusive: number): number {
    return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
  }

  hex(length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += HEX_DIGITS[Math.floor(this.next() * 16)];
    return out;
  }

  /** An RFC 4122 version-4 shaped UUID. */
  uuid(): string {
    const variant = "89ab"[Math.floor(this.next() * 4)];
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }

  /** The seed of the current position, so a persisted world continues the same sequence. */
  snapshot(): number {
    return this.state;
  }

  restore(state: number): void {
    this.state = state >>> 0;
  }
}
