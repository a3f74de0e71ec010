import { createHash, createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { describe, expect, it } from "vitest";
import { buildConfiguration, SecretPaths } from "../../../src/config/index.js";
import { reconciledHashes, redactor, scrubbed, secretHasher, secretValues, stateKeyPath } from "../../../src/engine/secrets.js";

describe("secret values", () => {
  it("are found in a configuration's specs and masked in any text", () => {
    const { config } = buildConfiguration(
      [
        {
          file: "netform.yaml",
          text: `netform: 1
provider: { endpoint: embedded, projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01 }
routeFilters:
  f:
    type: BGP_IPv4_PREFIX_FILTER
    description: \${secret.NOTE}
`,
        },
      ],
      { kinds: KIND_CATALOG, env: { NOTE: "s3cr3t-words" } },
    );
    expect(secretValues(config)).toEqual(["s3cr3t-words"]);
    const redact = redactor(secretValues(config));
    expect(redact("the service refused description 's3cr3t-words' (too long)")).toBe("the service refused description '(sensitive)' (too long)");
    expect(redact("nothing secret here")).toBe("nothing secret here");
  });

  it("are replaced in stored bodies by path, lists included", () => {
    const body = { bgpAuthKey: "k", sshUsers: [{ sshUsername: "a", sshPassword: "p" }], name: "n" };
    expect(scrubbed(body, new SecretPaths(["bgpAuthKey", "sshUsers[].sshPassword"]))).toEqual({ bgpAuthKey: "(sensitive)", sshUsers: "(sensitive)", name: "n" });
  });

  it("are replaced deep inside objects, beside fields left as they are, and an absent one stays absent", () => {
    const body = { auth: { key: "k", mode: "MD5", none: null }, side: { port: { uuid: "u" } }, tags: ["a"] };
    const secrets = new SecretPaths(["auth.key", "auth.none", "side.port.secret"]);
    expect(scrubbed(body, secrets)).toEqual({ auth: { key: "(sensitive)", mode: "MD5", none: null }, side: { port: { uuid: "u" } }, tags: ["a"] });
    const shown = secrets.mask(body, { transform: (v) => (typeof v === "string" ? v.toUpperCase() : v) });
    expect(shown).toEqual({ auth: { key: "(sensitive)", mode: "MD5", none: "(sensitive)" }, side: { port: { uuid: "U" } }, tags: ["a"] });
    expect(body.auth.key).toBe("k");
  });
});

const LINEAGE = "0b5e7c1a-9f1d-4c2e-8a6b-3d4f5e6a7b8c";
const statePathIn = (dir: string) => join(dir, "netform.state.json");
/** What netform 0.1 recorded without NETFORM_STATE_KEY: a key anyone holding the state could derive. */
const lineageHash = (value: unknown) =>
  `hmac-sha256:${createHmac("sha256", createHash("sha256").update(`netform-state-key:${LINEAGE}`).digest()).update(JSON.stringify(value)).digest("hex").slice(0, 40)}`;

describe("the key of the secret hashes", () => {
  it("without NETFORM_STATE_KEY is random, generated at the first hash into a 0600 file beside the state, and announced once", () => {
    const dir = mkdtempSync(join(tmpdir(), "netform-key-"));
    const created: string[] = [];
    const first = secretHasher({ statePath: statePathIn(dir), lineage: LINEAGE, env: {}, onKeyCreated: (p) => created.push(p) });
    expect(created).toEqual([]);
    const h = first("psk-1");
    expect(h).toMatch(/^hmac-sha256:[0-9a-f]{40}$/);
    expect(h).not.toBe(lineageHash("psk-1"));
    expect(created).toEqual([stateKeyPath(statePathIn(dir))]);
    expect(statSync(stateKeyPath(statePathIn(dir))).mode & 0o777).toBe(0o600);
    expect(readFileSync(stateKeyPath(statePathIn(dir)), "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);

    // The next run reads the same key, says nothing, and hashes alike.
    const again = secretHasher({ statePath: statePathIn(dir), lineage: LINEAGE, env: {}, onKeyCreated: (p) => created.push(p) });
    expect(again("psk-1")).toBe(h);
    expect(created).toHaveLength(1);
    // Another state gets another key.
    const other = mkdtempSync(join(tmpdir(), "netform-key-"));
    expect(secretHasher({ statePath: statePathIn(other), lineage: LINEAGE, env: {} })("psk-1")).not.toBe(h);
  });

  it("is NETFORM_STATE_KEY when set, with no key file", () => {
    const dir = mkdtempSync(join(tmpdir(), "netform-key-"));
    const hash = secretHasher({ statePath: statePathIn(dir), lineage: LINEAGE, env: { NETFORM_STATE_KEY: "from-the-vault" } });
    expect(hash("psk-1")).toBe(secretHasher({ statePath: join(dir, "elsewhere.json"), lineage: "another", env: { NETFORM_STATE_KEY: "from-the-vault" } })("psk-1"));
    expect(() => statSync(stateKeyPath(statePathIn(dir)))).toThrow();
    // Hashes of older states made with this key are the current ones: nothing to migrate.
    expect(hash.isLegacy(lineageHash("psk-1"), "psk-1")).toBe(false);
  });

  it("accepts the lineage-derived hashes of older states, as legacy, and nothing else", () => {
    const dir = mkdtempSync(join(tmpdir(), "netform-key-"));
    const hash = secretHasher({ statePath: statePathIn(dir), lineage: LINEAGE, env: {} });
    expect(hash.matches(lineageHash("psk-1"), "psk-1")).toBe(true);
    expect(hash.isLegacy(lineageHash("psk-1"), "psk-1")).toBe(true);
    expect(hash.matches(lineageHash("psk-1"), "psk-2")).toBe(false);
    expect(hash.matches(hash("psk-1"), "psk-1")).toBe(true);
    expect(hash.isLegacy(hash("psk-1"), "psk-1")).toBe(false);
    expect(hash.matches(undefined, "psk-1")).toBe(false);
  });

  it("accepts the hashes of the key being rotated out (NETFORM_STATE_KEY_PREVIOUS), as legacy", () => {
    const dir = mkdtempSync(join(tmpdir(), "netform-key-"));
    const old = secretHasher({ statePath: statePathIn(dir), lineage: LINEAGE, env: { NETFORM_STATE_KEY: "old-key" } });
    const rotating = secretHasher({ statePath: statePathIn(dir), lineage: LINEAGE, env: { NETFORM_STATE_KEY: "new-key", NETFORM_STATE_KEY_PREVIOUS: "old-key" } });
    expect(rotating.matches(old("psk-1"), "psk-1")).toBe(true);
    expect(rotating.isLegacy(old("psk-1"), "psk-1")).toBe(true);
    expect(reconciledHashes({ peerSharedKey: old("psk-1") }, { peerSharedKey: "psk-1" }, new SecretPaths(["peerSharedKey"]), rotating)).toEqual({ peerSharedKey: rotating("psk-1") });
    const rotated = secretHasher({ statePath: statePathIn(dir), lineage: LINEAGE, env: { NETFORM_STATE_KEY: "new-key" } });
    expect(rotated.matches(old("psk-1"), "psk-1")).toBe(false);
  });

  it("refuses an empty key file with what to do, rather than hashing with an empty key", () => {
    const dir = mkdtempSync(join(tmpdir(), "netform-key-"));
    writeFileSync(stateKeyPath(statePathIn(dir)), "\n", { mode: 0o600 });
    const hash = secretHasher({ statePath: statePathIn(dir), lineage: LINEAGE, env: {} });
    expect(() => hash("psk-1")).toThrow(/is empty/);
  });
});

describe("reconciledHashes", () => {
  const secrets = new SecretPaths(["peerSharedKey", "password"]);
  const spec = { siteName: "branch", peerSharedKey: "psk-1", password: "pw1" };
  const hasher = () => secretHasher({ statePath: statePathIn(mkdtempSync(join(tmpdir(), "netform-key-"))), lineage: LINEAGE, env: {} });

  it("records the declared value as a baseline for a secret field without a recorded hash (a state from before it was secret)", () => {
    const hash = hasher();
    expect(reconciledHashes({ peerSharedKey: hash("psk-1") }, spec, secrets, hash)).toEqual({ peerSharedKey: hash("psk-1"), password: hash("pw1") });
  });

  it("re-hashes with the current key what the lineage-derived key hashed, and keeps a hash that matches neither", () => {
    const hash = hasher();
    expect(reconciledHashes({ peerSharedKey: lineageHash("psk-1"), password: "hmac-sha256:0000" }, spec, secrets, hash)).toEqual({ peerSharedKey: hash("psk-1"), password: "hmac-sha256:0000" });
  });

  it("changes nothing when every hash is current, and leaves values not known yet alone", () => {
    const hash = hasher();
    expect(reconciledHashes({ peerSharedKey: hash("psk-1"), password: hash("pw1") }, spec, secrets, hash)).toBeUndefined();
    expect(reconciledHashes({}, { peerSharedKey: "\u0000(known after apply)" }, secrets, hash)).toBeUndefined();
  });
});
