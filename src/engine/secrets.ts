// Secrets in the state file are stored only as keyed hashes, so a changed secret is still detected
// without the state ever holding it. The key is NETFORM_STATE_KEY when set (recommended), otherwise a
// random key netform generates on first use and keeps in a file beside the state (mode 0600): never one
// derived from anything the state holds, so the hashes cannot be tested against guesses by someone
// holding only the state file. States written before that key file existed were hashed with a key
// derived from their lineage: those hashes are still accepted, and re-hashed with the new key when the
// state is next written; so are those of the key being rotated out (NETFORM_STATE_KEY_PREVIOUS).

import { createHash, createHmac, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { NetformError } from "../diag/index.js";
import { isPlainObject, SENSITIVE_TEXT, Sensitive, Template, type Configuration, type SecretPaths } from "../config/index.js";
import { isUnknownValue, leaves } from "../plan/values.js";

/** The recorded hash of a secret netform has not sent yet (an imported object's): it matches no value. */
export const NEVER_APPLIED = "never-applied";

export interface SecretHasher {
  /** The keyed hash of a secret value, as the state and plan files record it. */
  (value: unknown): string;
  /** Whether a recorded hash is that of `value`: with the current key, or with the lineage-derived key of older states. */
  matches(recorded: string | undefined, value: unknown): boolean;
  /** A recorded hash made with an earlier key (NETFORM_STATE_KEY_PREVIOUS, or the lineage-derived one): to be re-hashed with the current key. */
  isLegacy(recorded: string, value: unknown): boolean;
  /** Reads or creates the key now, when the configuration will need it: a run that writes the state says so before it shows its plan. */
  prepare(config: Configuration): void;
}

/** Where netform keeps the key it generated for a state, when NETFORM_STATE_KEY is not set. */
export const stateKeyPath = (statePath: string): string => `${statePath}.key`;

const hmac = (key: string | Buffer, value: unknown) => `hmac-sha256:${createHmac("sha256", key).update(JSON.stringify(value)).digest("hex").slice(0, 40)}`;

/** The key of states written before netform kept a key of its own: anyone holding the state can derive it. */
const lineageKey = (lineage: string) => createHash("sha256").update(`netform-state-key:${lineage}`).digest();

export interface HasherOptions {
  /** The local state file, beside which a generated key is kept; absent for a shared backend. */
  statePath?: string;
  lineage: string;
  env?: NodeJS.ProcessEnv;
  /** Told once, when netform generates a key because none was given. */
  onKeyCreated?: (keyPath: string) => void;
}

/**
 * The hasher of a state. Without NETFORM_STATE_KEY the key file is read, or created, at the first hash:
 * a state that holds no secret never gets one.
 */
export function secretHasher(options: HasherOptions): SecretHasher {
  const given = options.env?.NETFORM_STATE_KEY;
  let key: string | undefined = given || undefined;
  // Keys whose hashes still match until the next write replaces them: the key being rotated out, and
  // the lineage-derived key of older states (never one set with NETFORM_STATE_KEY: those were hashed with it).
  const previous = [options.env?.NETFORM_STATE_KEY_PREVIOUS || undefined, given ? undefined : lineageKey(options.lineage)].filter((k) => k !== undefined);
  const current = (): string => (key ??= generatedKey(options));
  const hash = ((value: unknown) => hmac(current(), value)) as SecretHasher;
  hash.isLegacy = (recorded, value) => previous.some((k) => recorded === hmac(k, value)) && recorded !== hash(value);
  hash.matches = (recorded, value) => recorded !== undefined && (recorded === hash(value) || hash.isLegacy(recorded, value));
  hash.prepare = (config) => {
    if (needsHashes(config) !== undefined) current();
  };
  return hash;
}

const sharedStateWithoutKey = (location?: string, needs?: string) =>
  new NetformError({
    code: "state.key",
    message: `the configuration holds secrets (or values the service reads only at creation)${needs ? `, e.g. ${needs},` : ""} and its state is in a shared backend${location ? ` (${location})` : ""}, but NETFORM_STATE_KEY is not set`,
    hint: "set NETFORM_STATE_KEY to one random value (e.g. openssl rand -hex 32) for every runner that uses this state: the state keeps only keyed hashes of such values, and runners must hash alike. Nothing was sent to the service",
  });

function generatedKey(options: HasherOptions): string {
  if (options.statePath === undefined) throw sharedStateWithoutKey();
  return keyFromFile(stateKeyPath(options.statePath), options.onKeyCreated);
}

/**
 * What in the configuration makes a run record keyed hashes, if anything: a secret or a write-only field a
 * resource sets, a sensitive output, or a sensitive variable (in the configuration's hash).
 */
function needsHashes(config: Configuration): string | undefined {
  for (const [name, { value }] of config.variables) if (value instanceof Sensitive) return `the sensitive variable ${name}`;
  for (const [name, output] of config.outputs) if (output.sensitive) return `the sensitive output ${name}`;
  for (const resource of config.resources.values()) {
    for (const path of leaves(resource.spec).keys()) {
      if (resource.secrets.holdsSecret(path)) return `the secret in ${resource.address}.${path}`;
      if (resource.writeOnly.some((w) => path === w || path.startsWith(`${w}.`))) return `the write-only ${resource.address}.${path}`;
    }
  }
  return undefined;
}

/**
 * Refuses, before the lock is taken or the service is called, a run on a shared backend that would need
 * NETFORM_STATE_KEY without it: found only at the first hash, it stopped an apply after objects were made.
 */
export function checkStateKey(config: Configuration, shared: { location: string } | undefined, env: NodeJS.ProcessEnv): void {
  if (!shared || env.NETFORM_STATE_KEY) return;
  const needs = needsHashes(config);
  if (needs) throw sharedStateWithoutKey(shared.location, needs);
}

function keyFromFile(path: string, onKeyCreated: ((keyPath: string) => void) | undefined): string {
  const existing = readKey(path);
  if (existing !== undefined) return existing;
  const generated = randomBytes(32).toString("hex");
  try {
    // "wx": of two runs that race to create it, the second reads the first's key.
    writeFileSync(path, `${generated}\n`, { mode: 0o600, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return readKey(path) ?? generated;
    throw new NetformError({
      code: "state.key",
      message: `cannot create the key of the state's secret hashes at ${path}: ${(e as Error).message}`,
      hint: "set NETFORM_STATE_KEY, or make the state's directory writable",
      cause: e,
    });
  }
  onKeyCreated?.(path);
  return generated;
}

function readKey(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new NetformError({ code: "state.key", message: `cannot read the key of the state's secret hashes at ${path}: ${(e as Error).message}`, hint: "make it readable, or set NETFORM_STATE_KEY", cause: e });
  }
  const key = text.trim();
  if (key === "") {
    throw new NetformError({
      code: "state.key",
      message: `the key file ${path} is empty`,
      hint: "restore it from where the state is kept, or set NETFORM_STATE_KEY; see \"Secrets and the state key\" in the README",
    });
  }
  return key;
}

/**
 * The secret hashes a settled record should hold for a spec (resolved: secrets revealed), when they
 * differ from those it holds; undefined when nothing is to change. Two cases, both without any call
 * to the service:
 * - a secret field without a recorded hash (a state written by an older netform, before the field was
 *   treated as secret) is a baseline: the declared value's hash is recorded, and nothing is planned,
 *   never a change that would replace the object;
 * - a hash made with the lineage-derived key of an older state is re-hashed with the current key.
 * A recorded hash that matches neither is kept: the planner sees a changed secret.
 */
export function reconciledHashes(recorded: Readonly<Record<string, string>>, spec: Record<string, unknown>, secrets: SecretPaths, hash: SecretHasher): Record<string, string> | undefined {
  const out = { ...recorded };
  let changed = false;
  for (const [path, value] of leaves(spec)) {
    if (!secrets.holdsSecret(path) || isUnknownValue(value)) continue;
    const had = recorded[path];
    if (had === undefined || hash.isLegacy(had, value)) {
      out[path] = hash(value);
      changed = true;
    }
  }
  return changed ? out : undefined;
}

/**
 * An API body with every secret leaf replaced by "(sensitive)": what the state may hold. A body with no
 * secret to mask is not copied: every record it goes into is copied by the store as it records it.
 */
export const scrubbed = (body: Record<string, unknown>, secrets: SecretPaths): Record<string, unknown> => (secrets.empty ? body : secrets.mask(body, { keepAbsent: true }));

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
