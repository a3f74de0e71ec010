// Encryption at rest of the state and of saved plans, on every backend: with a key (NETFORM_STATE_ENCRYPTION_KEY,
// or a file named by NETFORM_STATE_ENCRYPTION_KEY_FILE) what is stored is an envelope sealed with AES-256-GCM.
// The envelope names its key by an id (a hash of the key, never the key), so that a wrong key is told
// apart from a damaged state, and keys can rotate: `state rekey` reads with the previous key
// (NETFORM_STATE_ENCRYPTION_OLD_KEY or ..._OLD_KEY_FILE) and writes with the new one. Lineage and serial stay
// readable beside the ciphertext, and are bound to it as authenticated data, so a backend can order
// versions without the key and nobody can relabel one.

import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { NetformError } from "../diag/index.js";

export interface EncryptionKey {
  id: string;
  bytes: Buffer;
}

/** The key new content is sealed with, and every key that may open stored content. */
export interface StateKeys {
  sealing?: EncryptionKey;
  opening: EncryptionKey[];
}

interface Envelope {
  netformEncrypted: 1;
  algorithm: "AES-256-GCM";
  keyId: string;
  lineage: string;
  serial: number;
  iv: string;
  tag: string;
  ciphertext: string;
}

const KEY_HINT = "a key is 32 random bytes, written as base64 or hex; make one with: openssl rand -base64 32";

function parseKey(text: string, source: string): EncryptionKey {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (bytes.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(trimmed) && bytes.toString("base64").replace(/=+$/, "") !== trimmed.replace(/=+$/, ""))) {
    throw new NetformError({ code: "state.key", message: `${source} is not an AES-256 key`, hint: KEY_HINT });
  }
  return { id: createHash("sha256").update("netform state key\0").update(bytes).digest("hex").slice(0, 16), bytes };
}

function keyFrom(env: NodeJS.ProcessEnv, variable: string): EncryptionKey | undefined {
  const inline = env[variable];
  if (inline) return parseKey(inline, variable);
  const file = env[`${variable}_FILE`];
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new NetformError({ code: "state.key", message: `cannot read the key file ${file} (${variable}_FILE): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, hint: KEY_HINT });
  }
  return parseKey(text, `the key file ${file} (${variable}_FILE)`);
}

/** The keys the environment gives: the current one seals and opens, the old one (for rekey) only opens. */
export function stateKeys(env: NodeJS.ProcessEnv): StateKeys {
  const current = keyFrom(env, "NETFORM_STATE_ENCRYPTION_KEY");
  const old = keyFrom(env, "NETFORM_STATE_ENCRYPTION_OLD_KEY");
  return { ...(current ? { sealing: current } : {}), opening: [current, old].filter((k): k is EncryptionKey => k !== undefined) };
}

const authenticated = (lineage: string, serial: number) => Buffer.from(`netform ${lineage} ${serial}`);

/** The content as stored: sealed when there is a key, else as it is. */
export function seal(content: string, version: { lineage: string; serial: number }, keys: StateKeys): string {
  const key = keys.sealing;
  if (!key) return content;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.bytes, iv);
  cipher.setAAD(authenticated(version.lineage, version.serial));
  const ciphertext = Buffer.concat([cipher.update(content, "utf8"), cipher.final()]);
  const envelope: Envelope = {
    netformEncrypted: 1,
    algorithm: "AES-256-GCM",
    keyId: key.id,
    lineage: version.lineage,
    serial: version.serial,
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    ciphertext: ciphertext.toString("base64"),
  };
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

function envelopeOf(stored: string): Envelope | undefined {
  if (!stored.includes('"netformEncrypted"')) return undefined;
  try {
    const json = JSON.parse(stored) as Partial<Envelope>;
    return json.netformEncrypted === 1 ? (json as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether stored content is sealed, and with which key. */
export const sealedWith = (stored: string): string | undefined => envelopeOf(stored)?.keyId;

/** The stored content opened: plain content is returned as it is; sealed content needs its key. */
export function unseal(stored: string, keys: StateKeys, what: string): string {
  const envelope = envelopeOf(stored);
  if (!envelope) return stored;
  const key = keys.opening.find((k) => k.id === envelope.keyId);
  if (!key) {
    const given = keys.opening.map((k) => k.id).join(", ");
    throw new NetformError({
      code: "state.key",
      message: given
        ? `${what} is encrypted with key ${envelope.keyId}, and the key given is ${given}`
        : `${what} is encrypted (key ${envelope.keyId}), and no key is given`,
      hint: given
        ? "set NETFORM_STATE_ENCRYPTION_KEY to the key it was written with (to change keys: put the old one in NETFORM_STATE_ENCRYPTION_OLD_KEY and run netform state rekey)"
        : "set NETFORM_STATE_ENCRYPTION_KEY (or NETFORM_STATE_ENCRYPTION_KEY_FILE) to the key it was written with",
    });
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.bytes, Buffer.from(envelope.iv, "base64"));
    decipher.setAAD(authenticated(envelope.lineage, envelope.serial));
    decipher.setAuthTag(Buffer.from(envelope.tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(envelope.ciphertext, "base64")), decipher.final()]).toString("utf8");
  } catch {
    throw new NetformError({
      code: "state.tampered",
      message: `${what} does not authenticate with key ${envelope.keyId}: it was altered or damaged after it was written`,
      hint: "restore an earlier version (netform state history, then netform state pull --serial N)",
    });
  }
}

/** The lineage and serial of stored content, sealed or not, read without a key. */
export function sealedVersion(stored: string): { lineage: string; serial: number } | undefined {
  try {
    const json = JSON.parse(stored) as { lineage?: unknown; serial?: unknown };
    return typeof json.lineage === "string" && typeof json.serial === "number" ? { lineage: json.lineage, serial: json.serial } : undefined;
  } catch {
    return undefined;
  }
}
