// Encryption at rest: what is stored with a key is sealed and names its key; it opens only with that key,
// and neither the content nor its version can be altered unnoticed.

import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seal, sealedVersion, sealedWith, stateKeys, unseal } from "../../../src/state/index.js";

const version = { lineage: "5d6c0a3e-lineage", serial: 7 };
const content = JSON.stringify({ version: 1, ...version, resources: { "routeFilters.edge": { attributes: { name: "secret-looking-name" } } } });
const newKey = () => randomBytes(32).toString("base64");

describe("state encryption", () => {
  it("leaves content as it is without a key", () => {
    expect(seal(content, version, stateKeys({}))).toBe(content);
    expect(unseal(content, stateKeys({}), "the state")).toBe(content);
  });

  it("seals with the key, keeps the version readable, and opens only with that key", () => {
    const key = newKey();
    const sealed = seal(content, version, stateKeys({ NETFORM_STATE_ENCRYPTION_KEY: key }));
    expect(sealed).not.toContain("secret-looking-name");
    expect(sealedVersion(sealed)).toEqual(version);
    expect(sealedWith(sealed)).toMatch(/^[0-9a-f]{16}$/);
    expect(unseal(sealed, stateKeys({ NETFORM_STATE_ENCRYPTION_KEY: key }), "the state")).toBe(content);
    expect(() => unseal(sealed, stateKeys({}), "the state X")).toThrow(/the state X is encrypted \(key [0-9a-f]{16}\), and no key is given/);
    expect(() => unseal(sealed, stateKeys({ NETFORM_STATE_ENCRYPTION_KEY: newKey() }), "the state X")).toThrow(/encrypted with key [0-9a-f]{16}, and the key given is/);
  });

  it("opens with the old key during a rotation, and seals with the new one", () => {
    const [old, current] = [newKey(), newKey()];
    const sealed = seal(content, version, stateKeys({ NETFORM_STATE_ENCRYPTION_KEY: old }));
    const rotating = stateKeys({ NETFORM_STATE_ENCRYPTION_KEY: current, NETFORM_STATE_ENCRYPTION_OLD_KEY: old });
    expect(unseal(sealed, rotating, "the state")).toBe(content);
    expect(sealedWith(seal(content, version, rotating))).toBe(stateKeys({ NETFORM_STATE_ENCRYPTION_KEY: current }).sealing!.id);
  });

  it("refuses an altered ciphertext, and a version relabelled to pass for another", () => {
    const keys = stateKeys({ NETFORM_STATE_ENCRYPTION_KEY: newKey() });
    const envelope = JSON.parse(seal(content, version, keys)) as { serial: number; ciphertext: string };
    expect(() => unseal(JSON.stringify({ ...envelope, serial: 8 }), keys, "the state")).toThrow(/does not authenticate .* altered or damaged/);
    const bytes = Buffer.from(envelope.ciphertext, "base64");
    bytes[0] = bytes[0]! ^ 1;
    expect(() => unseal(JSON.stringify({ ...envelope, ciphertext: bytes.toString("base64") }), keys, "the state")).toThrow(/altered or damaged/);
  });

  it("takes a key as base64, hex or a file, and explains one that is not 32 bytes", () => {
    const bytes = randomBytes(32);
    const id = stateKeys({ NETFORM_STATE_ENCRYPTION_KEY: bytes.toString("base64") }).sealing!.id;
    expect(stateKeys({ NETFORM_STATE_ENCRYPTION_KEY: bytes.toString("hex") }).sealing!.id).toBe(id);
    const file = join(mkdtempSync(join(tmpdir(), "netform-key-")), "state.key");
    writeFileSync(file, `${bytes.toString("base64")}\n`);
    expect(stateKeys({ NETFORM_STATE_ENCRYPTION_KEY_FILE: file }).sealing!.id).toBe(id);
    expect(() => stateKeys({ NETFORM_STATE_ENCRYPTION_KEY: "correct horse battery staple" })).toThrow(/NETFORM_STATE_ENCRYPTION_KEY is not an AES-256 key/);
    expect(() => stateKeys({ NETFORM_STATE_ENCRYPTION_KEY_FILE: join(file, "missing") })).toThrow(/cannot read the key file/);
  });
});
