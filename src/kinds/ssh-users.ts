// SSH users of virtual devices, managed apart from the devices as the service manages them
// (/ne/v1/sshUsers, which the public client library equinix/ne-go and the Terraform provider use): a user
// is made on one device and associated with the others, its password changes by PUT, its devices change
// by associating and dissociating them one by one, and it goes with its last device. So adding a user, a
// device to a user or a new password never touches a device. Only a new username is a new user.
//
// A pair's secondary is a device of its own for the service: a user on both devices of a pair names the
// primary (${devices.NAME.uuid}) and the secondary (${devices.NAME.redundantUuid}, the primary's record
// names its peer so).

import { z } from "zod";
import { isPlainObject, lazily, placeDiagnostic, reveal, SecretPaths, uuid, type ConfigResource } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";
import { NetformError } from "../diag/index.js";
import { isNotFound, orGone } from "./common.js";
import type { Body, KindContext, KindDefinition, KindHandler, ObjectRef, Observed, Operation, Readiness } from "./types.js";

const BASE = "/ne/v1/sshUsers";
/** The page size equinix/ne-go's recorded list answer shows the service taking (ne_sshusers_get.json). */
const PAGE_SIZE = 100;

/** The official description of the device order's sshUsername: letters, digits, dashes and underscores. */
const USERNAME = /^[A-Za-z0-9_-]{3,32}$/;
/** The Terraform provider's rule for an SSH user's password (equinix_network_ssh_user). */
const PASSWORD = { min: 8, max: 20 };

const schema = lazily(() =>
  z.strictObject({
    username: z
      .string()
      .regex(USERNAME, { error: "username must be 3 to 32 letters, digits, dashes and underscores" })
      .optional()
      .describe("the login name, unique in the organisation; default: the resource name"),
    password: z
      .string()
      .min(PASSWORD.min, { error: `password must be ${PASSWORD.min} to ${PASSWORD.max} characters` })
      .max(PASSWORD.max, { error: `password must be ${PASSWORD.min} to ${PASSWORD.max} characters` })
      .describe("sensitive: write ${secret.NAME}; changes in place"),
    deviceUuids: z
      .array(uuid())
      .min(1, { error: "deviceUuids needs at least one device" })
      .describe("the devices the user logs in to: ${devices.NAME.uuid}, and a pair's secondary ${devices.NAME.redundantUuid}; changes in place"),
  }),
);

/** Usernames are the organisation's, once: two resources of one name cannot both be made. */
function crossRules(own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const named = new Map<string, ConfigResource>();
  // The users a device order makes, which an sshUsers resource of the same name can only adopt.
  const ordered = new Map<string, string>();
  for (const r of all.values()) {
    for (const at of [r.spec, isPlainObject(r.spec.secondary) ? r.spec.secondary : {}]) {
      for (const entry of Array.isArray(at.sshUsers) ? at.sshUsers : []) {
        const name = isPlainObject(entry) ? reveal(entry.sshUsername) : undefined;
        if (typeof name === "string") ordered.set(name, r.address);
      }
    }
  }
  for (const r of own) {
    const name = reveal(r.spec.username);
    if (typeof name !== "string") continue;
    const locate = { address: r.address, positions: r.positions };
    const first = named.get(name);
    if (first) {
      diagnostics.push(placeDiagnostic(locate, { path: ["username"], code: "rule.ssh-username", message: `username ${name} is already ${first.address}'s; a username names one user`, hint: "give one of them another username, or one resource every device in deviceUuids" }));
      continue;
    }
    named.set(name, r);
    const device = ordered.get(name);
    if (device && r.import === undefined) {
      diagnostics.push(
        placeDiagnostic(locate, {
          path: ["username"],
          code: "rule.ssh-username",
          severity: "warning",
          message: `${device}'s sshUsers makes a user named ${name} too, and the service refuses a second user of one name`,
          hint: `adopt the device's user (import: <its uuid>, from GET /ne/v1/sshUsers?username=${name}), or give this one another username`,
        }),
      );
    }
  }
  return diagnostics;
}

// ── reading ────────────────────────────────────────────────────────────────────────────────

const userPath = (uuid: string) => `${BASE}/${encodeURIComponent(uuid)}`;

/**
 * The devices of a user's answer. equinix/ne-go's recorded answers spell them `deviceUuids`
 * (ne_sshuser_get_resp.json, ne_sshusers_get.json) and its client's struct `deviceUUIDs`, which the Go
 * decoder matches whatever the case: both are read.
 */
function devicesOf(body: Body): string[] {
  const list = body.deviceUuids ?? body.deviceUUIDs;
  return Array.isArray(list) ? list.filter((d): d is string => typeof d === "string") : [];
}

const sortedUnique = (list: readonly string[]): string[] => [...new Set(list)].sort();

/** The users on one page of the list, whether the service answers a page ({pagination, data}) or a bare array. */
function pageOf(answer: unknown): { users: Body[]; total?: number; paged: boolean } {
  if (Array.isArray(answer)) return { users: answer.filter(isPlainObject), paged: false };
  if (!isPlainObject(answer)) return { users: [], paged: false };
  const data = Array.isArray(answer.data) ? answer.data.filter(isPlainObject) : [];
  const total = isPlainObject(answer.pagination) && typeof answer.pagination.total === "number" ? answer.pagination.total : undefined;
  return { users: data, ...(total === undefined ? {} : { total }), paged: true };
}

/** Every user the list finds for `query`, page by page (equinix/ne-go asks for them `verbose`). */
async function* everyUser(ctx: KindContext, query: Record<string, string> = {}): AsyncGenerator<Body> {
  for (let offset = 0; ; ) {
    const { users, total, paged } = pageOf(await ctx.api.call<unknown>("GET", BASE, { query: { ...query, verbose: "true", offset, limit: PAGE_SIZE } }));
    yield* users;
    offset += users.length;
    if (!paged || users.length === 0 || (total !== undefined ? offset >= total : users.length < PAGE_SIZE)) return;
  }
}

/** A user without devices is gone: the service deletes a user with its last device. */
const present = (body: Body | undefined): Body | undefined => (body && devicesOf(body).length > 0 ? body : undefined);

async function observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined> {
  return present(await orGone(() => ctx.api.call<Body>("GET", userPath(ref.id))));
}

/** One user is read by its own GET; more through the list, which holds them all. */
async function observeMany(ctx: KindContext, refs: ObjectRef[]): Promise<Map<string, Body>> {
  const ids = new Set(refs.map((r) => r.id));
  const found = new Map<string, Body>();
  if (ids.size === 1) {
    const [id] = ids;
    const body = await observe(ctx, { id: id! });
    if (body) found.set(id!, body);
    return found;
  }
  for await (const user of everyUser(ctx)) {
    if (typeof user.uuid === "string" && ids.has(user.uuid) && present(user)) found.set(user.uuid, user);
  }
  return found;
}

// ── readiness ──────────────────────────────────────────────────────────────────────────────

/** Each metro's status of a user, as equinix/ne-go's recorded answers carry it: {METRO: {status}}. */
function metroStatuses(body: Body): Array<[metro: string, status: string]> {
  const map = isPlainObject(body.metroStatusMap) ? body.metroStatusMap : {};
  return Object.entries(map).map(([metro, s]) => [metro, isPlainObject(s) && typeof s.status === "string" ? s.status.toUpperCase() : "UNKNOWN"]);
}

/**
 * A user is ready once the service has set it up in every metro of its devices: ACTIVE there, as the
 * recorded answers show a working user. A status naming a failure fails; any other (PENDING, or one not
 * known) is waited on. An answer without the map has nothing to wait for.
 */
function readiness(body: Body, operation: Operation): Readiness {
  if (operation === "delete") return "pending";
  const statuses = metroStatuses(body);
  const failed = statuses.find(([, s]) => s.includes("FAIL"));
  if (failed) return { failed: `the service could not set the user up in ${failed[0]} (${failed[1]})` };
  return statuses.every(([, s]) => s === "ACTIVE") ? "ready" : "pending";
}

function stateOf(body: Body): string | undefined {
  const statuses = metroStatuses(body);
  if (statuses.length === 0) return undefined;
  const distinct = new Set(statuses.map(([, s]) => s));
  return distinct.size === 1 ? [...distinct][0] : statuses.map(([m, s]) => `${m} ${s}`).join(", ");
}

// ── changes ────────────────────────────────────────────────────────────────────────────────

/**
 * Associates and dissociates the user so that it is on exactly `wanted`: new devices first, so that the
 * user never loses its last device on the way (which would delete it).
 */
async function moveTo(ctx: KindContext, id: string, current: readonly string[], wanted: readonly string[]): Promise<void> {
  for (const device of wanted.filter((d) => !current.includes(d))) {
    // equinix/ne-go sends an empty JSON object: the service is known to want a content type on this call.
    await ctx.api.call("POST", `${userPath(id)}/devices/${encodeURIComponent(device)}`, { body: {} });
  }
  for (const device of current.filter((d) => !wanted.includes(d))) await dissociate(ctx, id, device);
}

/** Dissociates the user from a device; an association already gone is the outcome wanted. */
async function dissociate(ctx: KindContext, id: string, device: string): Promise<void> {
  try {
    await ctx.api.call("DELETE", `${userPath(id)}/devices/${encodeURIComponent(device)}`);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

const wantedDevices = (spec: Body): string[] => sortedUnique(Array.isArray(spec.deviceUuids) ? spec.deviceUuids.map(String) : []);

async function lookup(ctx: KindContext, spec: Body, owned?: ReadonlySet<string>): Promise<Observed | undefined> {
  if (typeof spec.username !== "string") return undefined;
  // The list's username filter (the SDK's description of it) may match loosely: the name must be exact.
  for await (const user of everyUser(ctx, { username: spec.username })) {
    if (user.username === spec.username && typeof user.uuid === "string" && !owned?.has(user.uuid) && present(user)) return { id: user.uuid, body: user };
  }
  return undefined;
}

const handler: KindHandler = {
  noun: "SSH user",

  observe,
  observeMany,

  desired: (spec) => ({ username: spec.username, deviceUuids: wantedDevices(spec) }),
  // The service keeps no order of a user's devices worth comparing.
  observed: (body) => ({ username: body.username, deviceUuids: sortedUnique(devicesOf(body)) }),
  updatable: { password: { via: "update" }, deviceUuids: { via: "update" } },

  async create(ctx, spec) {
    const [first, ...others] = wantedDevices(spec);
    if (first === undefined) throw new NetformError({ code: "internal.no_device", source: "internal", message: "SSH user create: the spec names no device" });
    const location = await ctx.api.callForLocation("POST", BASE, { body: { username: spec.username, password: String(reveal(spec.password)), deviceUuid: first } });
    // equinix/ne-go reads the new user's id from Location; without one, the list finds it by its name.
    const id = location?.split("/").pop() || (await lookup(ctx, spec))?.id;
    if (!id) throw new NetformError({ code: "api.unexpected_body", source: "internal", message: "SSH user create: the service's answer names no user, and the user list has none with this username" });
    await moveTo(ctx, id, [first], [first, ...others]);
    return { id, body: { uuid: id, username: spec.username, deviceUuids: [first, ...others] } };
  },

  async update(ctx, ref, spec, changed) {
    if (changed.includes("password")) await ctx.api.call("PUT", userPath(ref.id), { body: { password: String(reveal(spec.password)) } });
    if (!changed.includes("deviceUuids")) return;
    const now = await observe(ctx, ref);
    if (!now) throw new NetformError({ code: "resource.gone", message: `SSH user ${ref.id} is gone from the service`, hint: "refresh and plan again: the plan will create it anew" });
    await moveTo(ctx, ref.id, devicesOf(now), wantedDevices(spec));
  },

  // ne-go's DeleteSSHUser: dissociate the user from every device; the last one takes the user along.
  async delete(ctx, ref) {
    const now = await observe(ctx, ref);
    for (const device of now ? devicesOf(now) : []) await dissociate(ctx, ref.id, device);
  },

  readiness,
  stateOf,
  lookup,
  eventSubject: (ref) => userPath(ref.id),
};

export const sshUsers: KindDefinition<"sshUsers"> = {
  name: "sshUsers",
  description: "SSH users of virtual devices, by username",
  get spec() {
    return schema();
  },
  crossRules,
  displayName: "username",
  sensitive: new SecretPaths(["password"]),
  attributes: ["uuid", "username", "deviceUuids", "metroStatusMap"],
  serverSet: ["uuid", "metroStatusMap"],
  parents: {},
  timeoutMs: 15 * 60_000,
  networkEdge: true,
  // Set up on each device's metro in seconds; nothing is provisioned.
  typicalSeconds: { create: 20, update: 20, delete: 5 },
  handler,
};
