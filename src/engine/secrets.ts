// Secrets in the state file are stored only as keyed hashes, so a changed secret is still detected
// without the state ever holding it. The key is NETFORM_STATE_KEY when set (recommended: then the
// hashes cannot be tested against guesses by someone holding only the state file), otherwise one
// derived from the state's lineage.

import { createHash, createHmac } from "node:crypto";
import { SENSITIVE_TEXT } from "../config/index.js";
import { isSecretLeaf, isPlainObject, leaves } from "../plan/values.js";

export type SecretHasher = (value: unknown) => string;

export function secretHasher(lineage: string, env: NodeJS.ProcessEnv = process.env): SecretHasher {
  const key = env.NETFORM_STATE_KEY || createHash("sha256").update(`netform-state-key:${lineage}`).digest();
  return (value) => `hmac-sha256:${createHmac("sha256", key).update(JSON.stringify(value)).digest("hex").slice(0, 40)}`;
}

/** Hashes of the secret leaves of a spec, by dotted path. */
export function secretHashes(spec: Record<string, unknown>, secretPaths: readonly string[], hash: SecretHasher): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, value] of leaves(spec)) if (isSecretLeaf(path, secretPaths)) out[path] = hash(value);
  return out;
}

/** A copy of an API body with every secret leaf replaced by "(sensitive)": what the state may hold. */
export function scrubbed(body: Record<string, unknown>, secretPaths: readonly string[]): Record<string, unknown> {
  const walk = (value: unknown, path: string): unknown => {
    if (path && isSecretLeaf(path, secretPaths) && !isPlainObject(value)) return value === undefined || value === null ? value : SENSITIVE_TEXT;
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]));
    return value;
  };
  return walk(body, "") as Record<string, unknown>;
}
