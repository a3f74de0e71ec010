// SSH public keys for self-configured devices (sections 2.12, 4.11). A key belongs to a project; one
// created under a project the caller cannot access is accepted but, like everything of that project,
// invisible to the caller afterwards. Resellers scope keys to a customer with accountUcmId. The
// specification lists and creates keys; the service also reads and deletes one by its id, which the
// public client library equinix/ne-go and the Terraform provider use (GetSSHPublicKey, DeleteSSHPublicKey).

import type { Context } from "hono";
import { ACCOUNTS, PROJECTS } from "../core/auth.js";
import { fail } from "../core/errors.js";
import { canSee, type Area, type Principal, type SimApp, type SimEnv } from "../core/context.js";
import { readObject, rejectUnknownQuery } from "../core/http.js";
import { oneOf, optionalString, requireString } from "./services-shared.js";
import { seededUuid } from "../core/seed.js";
import type { JsonObject, SimObject, World } from "../core/world.js";

const KIND = "publicKeys";
const KEY_TYPES = ["RSA", "DSA"] as const;
type KeyType = (typeof KEY_TYPES)[number];

/** The algorithm name an OpenSSH public key of each type starts with (and encodes in its blob). */
function algorithmOf(type: KeyType): string {
  switch (type) {
    case "RSA":
      return "ssh-rsa";
    case "DSA":
      return "ssh-dss";
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

/** The seeded key of the demo organisation, so that self-configured devices can name one at once. */
const SEEDED_KEY = {
  uuid: seededUuid("877a3aa2", 1),
  keyName: "demo-key",
  keyType: "RSA",
  keyValue:
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC5kHcagDZ7utPan4DHWUvoJxwz/DISRFwZdpMhslhZRI+6dGOC8mJn42SlSUAUtkt8Qyl4HipPK7Xh6oGj70Iba1a9pDcURYTYcqWFBEhcdDsMnH1CICmvVdsILehFtiS3X0J1JhwmWQI/7ll3QOk8fLgWCz3idlYJqtMs8Gz/6Q== demo@example.com",
};

/**
 * Whether `value` looks like an OpenSSH public key of `type`: the algorithm name, a base64 blob that
 * itself starts with the same algorithm name (length-prefixed), and an optional comment.
 */
function isSshPublicKey(value: string, type: KeyType): boolean {
  const algorithm = algorithmOf(type);
  const match = /^(\S+) ([A-Za-z0-9+/]+={0,2})(?: .*)?$/.exec(value.trim());
  if (!match || match[1] !== algorithm) return false;
  const blob = Buffer.from(match[2]!, "base64");
  if (blob.length < 4 + algorithm.length + 8) return false;
  const nameLength = blob.readUInt32BE(0);
  return nameLength === algorithm.length && blob.subarray(4, 4 + nameLength).toString("latin1") === algorithm;
}

/** A reseller's customer account: one of the caller's accounts. */
function checkAccountUcmId(principal: Principal, ucmId: string | undefined): void {
  if (ucmId === undefined) return;
  const known = Object.values(ACCOUNTS).some((a) => a.ucmId === ucmId && principal.accountNumbers.includes(a.accountNumber));
  if (!known) fail("referenceNotFound", "accountUcmId", `account ${ucmId} was not found among the caller's accounts`, ucmId);
}

function listKeys(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, ["accountUcmId", "keyType"]);
  const principal = c.get("principal");
  const ucmId = c.req.query("accountUcmId");
  checkAccountUcmId(principal, ucmId);
  const rawType = c.req.query("keyType");
  const keyType = rawType === undefined ? undefined : oneOf(rawType, KEY_TYPES, "keyType");
  const keys = world
    .list(KIND)
    .filter((o) => canSee(principal, o))
    .map((o) => world.view(o))
    .filter((k) => (keyType === undefined || k.keyType === keyType) && (ucmId === undefined || k.accountUcmId === ucmId))
    .map(publicFields);
  return c.json(keys);
}

/** A key as the list answers it (section 2.12's fields). */
const publicFields = ({ uuid, keyName, keyValue, keyType }: JsonObject): JsonObject => ({ uuid, keyName, keyValue, keyType }) as JsonObject;

/**
 * The caller's key of this id; otherwise a 404 with the code the Terraform provider reads as "no such key"
 * on a delete (EQ-4010206), so that a key already gone is not an error to it.
 */
function visibleKey(c: Context<SimEnv>, world: World): SimObject {
  const uuid = c.req.param("uuid")!;
  const key = world.get(uuid, KIND);
  if (!key || !canSee(c.get("principal"), key)) return fail("publicKeyNotFound", "uuid", `SSH public key ${uuid} was not found`, uuid);
  return key;
}

function getKey(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, []);
  return c.json(publicFields(world.view(visibleKey(c, world))));
}

function deleteKey(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, []);
  world.remove(visibleKey(c, world));
  return c.body(null, 204);
}

/** The project the key goes to: any project of the organisation (visible to the caller or not). */
function keyProject(world: World, principal: Principal, requested: string | undefined): string {
  if (requested === undefined) return principal.projectIds[0]!;
  if (!world.get(requested, "projects")) return fail("referenceNotFound", "projectId", `project ${requested} was not found`, requested);
  return requested;
}

async function createKey(c: Context<SimEnv>, world: World): Promise<Response> {
  const principal = c.get("principal");
  const body = await readObject(c);
  const keyName = requireString(body, "keyName");
  const keyValue = requireString(body, "keyValue");
  const keyType = oneOf(optionalString(body, "keyType") ?? "RSA", KEY_TYPES, "keyType");
  if (!isSshPublicKey(keyValue, keyType)) {
    fail("invalidProperty", "keyValue", `keyValue must be an OpenSSH ${keyType} public key ("${algorithmOf(keyType)} AAAA... comment")`);
  }
  const accountUcmId = optionalString(body, "accountUcmId");
  checkAccountUcmId(principal, accountUcmId);
  const projectId = keyProject(world, principal, optionalString(body, "projectId"));
  const uuid = world.uuid();
  world.create(
    KIND,
    { uuid, keyName, keyValue: keyValue.trim(), keyType, ...(accountUcmId === undefined ? {} : { accountUcmId }), projectId },
    { uuid, projectId },
  );
  c.header("Location", `/ne/v1/publicKeys/${uuid}`);
  return c.body(null, 201);
}

export const publicKeysArea: Area = {
  name: "ne-public-keys",
  define(world) {
    world.defineKind(KIND, { eventType: "equinix.network_edge.public_key", subject: (o) => `/ne/v1/publicKeys/${o.uuid}` });
  },
  seed(world) {
    const projectId = PROJECTS.production.projectId;
    world.create(KIND, { ...SEEDED_KEY, projectId }, { uuid: SEEDED_KEY.uuid, projectId });
  },
  routes(app: SimApp, world) {
    app.get("/ne/v1/publicKeys", (c) => listKeys(c, world));
    app.post("/ne/v1/publicKeys", (c) => createKey(c, world));
    app.get("/ne/v1/publicKeys/:uuid", (c) => getKey(c, world));
    app.delete("/ne/v1/publicKeys/:uuid", (c) => deleteKey(c, world));
  },
};
