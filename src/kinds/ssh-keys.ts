// SSH public keys of the network-edge service (specification 4.11): keys that self-configured devices
// install for a user (a device's userPublicKey names one by keyName, ${sshKeys.NAME.keyName}). The
// specification creates and lists keys; the service also reads and deletes one by its id, as the public
// client library equinix/ne-go and the Terraform provider do (GetSSHPublicKey, DeleteSSHPublicKey). It has
// no update: a changed key is a new key, and the old one is deleted.

import { z } from "zod";
import { lazily, SecretPaths, text } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { ApiError } from "../api/index.js";
import { compact, isNotFound } from "./common.js";
import type { Body, KindContext, KindDefinition, KindHandler, Observed } from "./types.js";

const BASE = "/ne/v1/publicKeys";
const KEY_TYPES = ["RSA", "DSA"] as const;

const schema = lazily(() =>
  z.strictObject({
    keyName: text(1, 50, "keyName").optional().describe("default: the resource name; devices name the key by it"),
    keyValue: z
      .string()
      .regex(/^(ssh-rsa|ssh-dss) [A-Za-z0-9+/]+={0,2}( .*)?$/, { error: 'keyValue must be an OpenSSH public key, "ssh-rsa AAAA... comment" (RSA) or "ssh-dss AAAA... comment" (DSA)' })
      .describe("the OpenSSH public key, e.g. the content of id_rsa.pub"),
    keyType: z.enum(KEY_TYPES).optional().describe("default RSA"),
    projectId: z.string().min(1).optional().describe("default: provider.projectId"),
  }),
);

const keyPath = (uuid: string) => `${BASE}/${encodeURIComponent(uuid)}`;

/**
 * Whether the service says the key is not there: a 404, or the code the Terraform provider reads as "no
 * such key" on a delete (equinix/ne-go's ErrorCodeSSHPublicKeyInvalid, EQ-4010206), whatever its status.
 */
const noSuchKey = (e: unknown): boolean => isNotFound(e) || (e instanceof ApiError && e.problems.some((p) => p.code === "EQ-4010206"));

/** The list answers with every key of the caller's projects, in one unpaged array (4.11). */
async function* everyKey(ctx: KindContext): AsyncGenerator<Body> {
  const keys = await ctx.api.call<unknown>("GET", BASE);
  if (Array.isArray(keys)) yield* keys.filter((k): k is Body => k !== null && typeof k === "object");
}

async function findKeys(ctx: KindContext, ids: ReadonlySet<string>): Promise<Map<string, Body>> {
  const found = new Map<string, Body>();
  for await (const key of everyKey(ctx)) if (typeof key.uuid === "string" && ids.has(key.uuid)) found.set(key.uuid, key);
  return found;
}

const comparable = (source: Body): Body => compact({ keyName: source.keyName, keyValue: typeof source.keyValue === "string" ? source.keyValue.trim() : source.keyValue, keyType: source.keyType ?? "RSA" }) as Body;

async function lookup(ctx: KindContext, spec: Body, owned?: ReadonlySet<string>): Promise<Observed | undefined> {
  const wanted = comparable(spec);
  for await (const key of everyKey(ctx)) {
    const same = key.keyName === wanted.keyName && comparable(key).keyValue === wanted.keyValue;
    if (same && typeof key.uuid === "string" && !owned?.has(key.uuid)) return { id: key.uuid, body: key };
  }
  return undefined;
}

const handler: KindHandler = {
  noun: "SSH key",

  async observe(ctx, ref) {
    try {
      return await ctx.api.call<Body>("GET", keyPath(ref.id));
    } catch (e) {
      if (noSuchKey(e)) return undefined;
      throw e;
    }
  },
  // Many keys in the one list request; a single key by its own read, which answers it alone.
  observeMany: async (ctx, refs) => {
    const ids = [...new Set(refs.map((r) => r.id))];
    if (ids.length !== 1) return findKeys(ctx, new Set(ids));
    const key = await handler.observe(ctx, { id: ids[0]! });
    return new Map(key ? [[ids[0]!, key]] : []);
  },

  desired: comparable,
  observed: comparable,

  // No update call: every change is a new key.
  updatable: {},

  async create(ctx, spec) {
    const body = compact({ keyName: spec.keyName, keyValue: spec.keyValue, keyType: spec.keyType ?? "RSA", projectId: spec.projectId }) as Body;
    const location = await ctx.api.callForLocation("POST", BASE, { body });
    const id = location?.split("/").pop();
    // The answer is a 201 whose Location names the key; without one, the list finds it by name and value.
    const made = id ? { id, body: { uuid: id, ...body } } : await lookup(ctx, spec);
    if (!made) throw new NetformError({ code: "api.unexpected_body", source: "internal", message: "SSH key create: the service's answer names no key, and the key list has none with this name and value" });
    return made;
  },

  update() {
    return Promise.reject(new NetformError({ code: "internal.not_updatable", source: "internal", message: "SSH keys cannot change in place" }));
  },

  async delete(ctx, ref) {
    try {
      await ctx.api.call("DELETE", keyPath(ref.id));
    } catch (e) {
      if (!noSuchKey(e)) throw e;
    }
  },

  readiness: () => "ready",
  stateOf: () => undefined,

  lookup,

  eventSubject: (ref) => `${BASE}/${ref.id}`,
};

export const sshKeys: KindDefinition<"sshKeys"> = {
  name: "sshKeys",
  description: "SSH public keys for self-configured devices, by name",
  get spec() {
    return schema();
  },
  displayName: "keyName",
  defaults: (d) => {
    d.set("keyType", "RSA");
    if (d.provider.projectId) d.set("projectId", d.provider.projectId);
  },
  sensitive: new SecretPaths([]),
  // The key list does not say which project a key was made in.
  writeOnly: ["projectId"],
  attributes: ["uuid", "keyName", "keyValue", "keyType"],
  serverSet: ["uuid"],
  parents: {},
  timeoutMs: 5 * 60_000,
  networkEdge: true,
  // A key is stored, not provisioned.
  typicalSeconds: { create: 2, update: 2, delete: 2 },
  handler,
};
