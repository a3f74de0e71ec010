// Sensitive values (secrets, keys, passwords) travel through netform wrapped, so that printing, logging or
// serialising one by accident shows `(sensitive)` instead of the secret. Only an explicit reveal() gives the
// raw value, which makes every place that needs it (the API request body) easy to find and review.

import { inspect } from "node:util";

export const SENSITIVE_TEXT = "(sensitive)";

export class Sensitive<T = unknown> {
  readonly #value: T;

  constructor(value: T) {
    this.#value = value;
  }

  reveal(): T {
    return this.#value;
  }

  toString(): string {
    return SENSITIVE_TEXT;
  }

  toJSON(): string {
    return SENSITIVE_TEXT;
  }

  [inspect.custom](): string {
    return SENSITIVE_TEXT;
  }

  [Symbol.toPrimitive](): string {
    return SENSITIVE_TEXT;
  }
}

export const isSensitive = (v: unknown): v is Sensitive => v instanceof Sensitive;

/** The raw value of a possibly sensitive value. */
export const reveal = <T>(v: T | Sensitive<T>): T => (v instanceof Sensitive ? v.reveal() : v);
