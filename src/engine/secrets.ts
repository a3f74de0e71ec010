// Secrets in the state file are stored only as keyed hashes, so a changed secret is still detected
// without the state ever holding it. The key is NETFORM_STATE_KEY when set (recommended: then the
// hashes cannot be tested against guesses by someone holding only the state file), otherwise one
// derived from the state's lineage.

import { createHash, createHmac } from "node:crypto";
import { isPlainObject, SENSITIVE_TEXT, Sensitive, Template, type Configuration, type SecretPaths } from "../config/index.js";

export type SecretHasher = (value: unknown) => string;

export function secretHasher(lineage: string, env: NodeJS.ProcessEnv = process.env): SecretHasher {
  const key = env.NETFORM_STATE_KEY || createHash("sha256").update(`netform-state-key:${lineage}`).digest();
  return (value) => `hmac-sha256:${createHmac("sha256", key).update(JSON.stringify(value)).digest("hex").slice(0, 40)}`;
}

/** A copy of an API body with every secret leaf replaced by "(sensitive)": what the state may hold. */
export const scrubbed = (body: Record<string, unknown>, secrets: SecretPaths): Record<string, unknown> => secrets.mask(body, { keepAbsent: true });

/** Every secret value a configuration holds (in its specs and its sensitive variables). */
export function secretValues(config: Configuration): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (v instanceof Sensitive) {
      const raw = v.reveal();
      if (typeof raw === "string" && raw.length >= 4) found.add(raw);
      else if (typeof raw === "number") found.add(String(raw));
      return;
    }
    if (v instanceof Template) return v.parts.forEach(walk);
    if (Array.isArray(v)) return v.forEach(walk);
    if (isPlainObject(v)) Object.values(v).forEach(walk);
  };
  for (const resource of config.resources.values()) walk(resource.spec);
  for (const { value } of config.variables.values()) walk(value);
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * Replaces any secret value found in a text (a service error that echoes what it was sent) with
 * "(sensitive)", so messages can be shown and logged.
 */
export function redactor(secrets: readonly string[]): (text: string) => string {
  if (secrets.length === 0) return (text) => text;
  return (text) => secrets.reduce((out, secret) => out.split(secret).join(SENSITIVE_TEXT), text);
}
