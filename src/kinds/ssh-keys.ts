// SSH public keys of the network-edge service (specification 4.11): keys that self-configured devices
// install for a user (a device's userPublicKey names one by keyName, ${sshKeys.NAME.keyName}). The service
// creates and lists keys and has no read of one, no update and no delete: a changed key is a new key, and a
// key removed from the configuration is forgotten, which the plan says, while the service keeps it.

import { z } from "zod";
import { lazily, SecretPaths, text } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { compact } from "./common.js";
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

/** The list answers with every key of the caller's projects, in one unpaged array (4.11): the only way to read one. */
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

  observe: async (ctx, ref) => (await findKeys(ctx, new Set([ref.id]))).get(ref.id),
  observeMany: (ctx, refs) => findKeys(ctx, new Set(refs.map((r) => r.id))),

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

  delete: () => Promise.resolve(),
  keptByService: "the service has no delete for SSH keys: netform forgets the key, and the service keeps it",

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
