// Values that are not plain data yet. A reference to another resource's attribute is known only once that
// resource exists; a string that embeds one is a template; under `validate`, a variable, environment
// variable or secret without a value is left unresolved instead of failing. Each is a class, so that a
// consumer tells them apart with instanceof and a JSON writer never mistakes one for data.

import { Sensitive } from "./sensitive.js";
import type { Address } from "./address.js";

/** `${kind.name.attribute}`: an attribute of another resource as the API returns it. */
export class Reference {
  constructor(
    /** The referenced resource. */
    readonly address: Address,
    readonly kind: string,
    readonly name: string,
    /** The attribute, dotted for nested ones: "uuid", "bgpIpv4.equinixPeerIp". */
    readonly attribute: string,
    /** Where the reference is written in the referencing resource's spec, e.g. ["connection"]. */
    readonly path: readonly (string | number)[],
    /** True when the attribute is a secret of the referenced kind; its value is then wrapped in Sensitive. */
    readonly sensitive: boolean,
  ) {}

  /** The expression as written, for plans: `${connections.dc.uuid}`. */
  get expression(): string {
    return `\${${this.address}.${this.attribute}}`;
  }

  toString(): string {
    return this.expression;
  }

  toJSON(): { reference: string } {
    return { reference: `${this.address}.${this.attribute}` };
  }
}

/** An input left without a value (only when loading with `missing: "unknown"`, as `validate` does). */
export class Unresolved {
  constructor(
    /** "lookup": a list lookup's objects, known once the service is read (name is the lookup's address). */
    readonly source: "var" | "env" | "secret" | "lookup",
    readonly name: string,
  ) {}

  get expression(): string {
    if (this.source === "lookup") return `\${${this.name}}`;
    return `\${${this.source}.${this.name}}`;
  }

  toString(): string {
    return this.expression;
  }

  toJSON(): { unresolved: string } {
    return { unresolved: `${this.source}.${this.name}` };
  }
}

/** A string with at least one part that is not known yet; literal parts may be sensitive. */
export class Template {
  constructor(readonly parts: readonly (string | Sensitive<string> | Reference | Unresolved)[]) {}

  get sensitive(): boolean {
    return this.parts.some((p) => p instanceof Sensitive || (p instanceof Reference && p.sensitive) || (p instanceof Unresolved && p.source === "secret"));
  }

  /** The string once every reference has a value; `resolve` returns the value of one reference. */
  render(resolve: (ref: Reference) => unknown): string {
    return this.parts
      .map((p) => {
        if (typeof p === "string") return p;
        if (p instanceof Sensitive) return p.reveal();
        if (p instanceof Unresolved) throw new Error(`unresolved ${p.expression}`);
        const v = resolve(p);
        return String(v instanceof Sensitive ? v.reveal() : v);
      })
      .join("");
  }

  toString(): string {
    return this.parts.map((p) => (p instanceof Sensitive ? p.toString() : typeof p === "string" ? p.replaceAll("${", "$${") : p.expression)).join("");
  }

  toJSON(): { template: string } {
    return { template: this.toString() };
  }
}

/**
 * A value whose expression is in error (already reported): validation skips it rather than report the
 * same problem again as a missing or mistyped field. Present only when the diagnostics hold errors.
 */
export class Invalid {
  constructor(readonly expression: string) {}

  toString(): string {
    return this.expression;
  }

  toJSON(): { invalid: string } {
    return { invalid: this.expression };
  }
}

/** A value not known before apply (or in error). */
export const isUnknown = (v: unknown): v is Reference | Template | Unresolved | Invalid =>
  v instanceof Reference || v instanceof Template || v instanceof Unresolved || v instanceof Invalid;
