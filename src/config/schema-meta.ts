// Meta keys that sit beside the API fields of every resource (dependsOn, lifecycle, import), and the
// top-level blocks that are not resources (provider, variables).

import { z } from "zod";
import { lazily, uuid } from "./schema-common.js";

export const META_KEYS = ["dependsOn", "lifecycle", "import", "preconditions", "postconditions"] as const;
export type MetaKey = (typeof META_KEYS)[number];

/** More than a configuration has objects to wait for; a bound, so that a hostile list costs nothing. */
export const MAX_DEPENDS_ON = 1000;

/** An address of one of these kinds, as dependsOn writes it. */
const addressPattern = (kinds: readonly string[]): RegExp => new RegExp(`^(${kinds.join("|")})\\.[a-z0-9][a-z0-9_-]*(\\["([^"\\\\]|\\\\.)*"\\])?$`);

const lifecycleSchema = () =>
  z
    .strictObject({
      preventDestroy: z.boolean().optional().describe("refuse any plan that would delete this object"),
      ignoreChanges: z.array(z.string().min(1)).optional().describe("field paths whose differences are not planned, e.g. bgpIpv4.outboundMED"),
      createBeforeDestroy: z.boolean().optional().describe("when replacing, create the new object before deleting the old one"),
    })
    .describe("how changes to this object are planned");

/** The meta keys' schemas, for a configuration of these kinds. */
export const metaShape = (kinds: readonly string[]) => ({
  dependsOn: z
    .array(z.string().regex(addressPattern(kinds), { error: 'must be an address kind.name or kind.name["key"], e.g. connections.dc-to-cloud' }))
    .max(MAX_DEPENDS_ON, { error: `dependsOn lists at most ${MAX_DEPENDS_ON} addresses` })
    .optional()
    .describe("addresses this object waits for, beside those its references imply"),
  lifecycle: lifecycleSchema().optional(),
  import: uuid().optional().describe("adopt the existing object with this uuid instead of creating one"),
  forEach: z
    .union([z.array(z.string()), z.record(z.string(), z.unknown())])
    .optional()
    .describe('one instance per key, addressed kind.name["key"]: a list of strings (each is key and value) or a mapping of key to value; ${each.key} and ${each.value} in the body'),
  preconditions: conditionsSchema("checked at plan (or before the object's step, when what it reads is known only then); a failure stops the plan").optional(),
  postconditions: conditionsSchema("checked on the object as the service returns it, after its step and at each plan; a failure fails the apply").optional(),
});

const conditionsSchema = (when: string) =>
  z
    .array(
      z.strictObject({
        condition: z.string().min(1).describe("an expression over ${self.FIELD}, ${KIND.NAME.FIELD} and ${var.NAME}: == != < <= > >= in && || ! ( ) length() contains(), e.g. ${self.bandwidth} >= 100"),
        message: z.string().min(1).describe("what is wrong when the condition does not hold, shown with the error"),
      }),
    )
    .describe(when);

const duration = lazily(() =>
  z
    .string()
    .regex(/^(?=\d)(\d+h)?(\d+m)?(\d+s)?$/, { error: "must be a duration such as 90m, 1h30m or 45s" })
    .describe("a duration: hours, minutes, seconds, e.g. 1h30m"),
);

/** The provider block, for a configuration of these kinds (timeouts are per kind). */
export const providerSchema = (kinds: readonly string[]) =>
  z
  .strictObject({
    endpoint: z
      .string()
      .refine((s) => s === "embedded" || /^https?:\/\/[^\s/]+/.test(s), { error: 'must be "embedded" or the service\'s base URL, e.g. https://api.example.net' })
      .optional()
      .describe('"embedded" (the built-in simulator) or the service\'s base URL; NETFORM_ENDPOINT overrides it'),
    projectId: z.string().min(1).optional().describe("default project for kinds that take one"),
    accountNumber: z.union([z.int().min(0), z.string().regex(/^\d+$/)], { error: "accountNumber must be a number" }).optional().describe("default account for devices"),
    parallelism: z.int().min(1, { error: "parallelism must be 1 to 100" }).max(100, { error: "parallelism must be 1 to 100" }).optional().describe("API calls that change something in flight at once, with as many reads beside them (default 10)"),
    timeouts: z
      .strictObject(Object.fromEntries(kinds.map((k) => [k, duration().optional()])) as Record<string, z.ZodOptional<ReturnType<typeof duration>>>)
      .optional()
      .describe("how long to wait for each kind's objects to become ready"),
    maxRetryAfter: duration().optional().describe("the longest wait a Retry-After header is honoured for (default 60s); NETFORM_MAX_RETRY_AFTER_S overrides it"),
    maintenanceNotices: z
      .array(z.string().min(1, { error: "a maintenance notice id is not empty" }))
      .optional()
      .describe("ids of IBX or network maintenance notifications to check every plan against: one in progress in a metro or IBX the plan touches is a risk, which apply refuses unless --ignore-downtime"),
  })
  .describe("where and how netform talks to the service");

const stateName = () =>
  z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { error: "must be letters, digits, '.', '_' and '-', e.g. prod" })
    .describe("the state's name: one row per name; the default workspace's state, another workspace's is NAME/WORKSPACE");

const httpUrl = (what: string) =>
  z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, { error: `${what} must be an http:// or https:// URL` });

const httpMethod = (what: string) =>
  z
    .string()
    .regex(/^[A-Z]+$/, { error: `${what} must be an HTTP method in capitals, e.g. POST` });

/** Where the state and its lock live: one of the backends, or (without this block) the file beside the configuration. */
export const backendSchema = lazily(() =>
  z
    .strictObject({
      local: z
        .strictObject({ path: z.string().min(1).optional().describe("the state file, relative to the configuration (default netform.state.json); the default workspace's, another workspace's is netform.state.d/WORKSPACE/ beside it") })
        .optional()
        .describe("the state file beside the configuration (the default)"),
      postgres: z
        .strictObject({
          url: z.string().regex(/^postgres(ql)?:\/\//, { error: "url must be a postgres:// connection URL, e.g. ${env.NETFORM_PG_URL}" }).describe("the connection URL, e.g. ${env.NETFORM_PG_URL}"),
          schema: z
            .string()
            .regex(/^[a-z_][a-z0-9_]*$/, { error: "schema must be a lowercase SQL identifier, e.g. netform" })
            .optional()
            .describe("the database schema holding netform's tables (default netform)"),
          name: stateName(),
          createTables: z
            .boolean()
            .optional()
            .describe("false: never create the schema or tables, for a user with only data rights on tables a DBA made (netform state ddl prints the SQL); default true, or NETFORM_PG_CREATE_TABLES"),
        })
        .optional()
        .describe("a PostgreSQL database: the state in a table, every version kept, the lock held on the run's own session"),
      http: z
        .strictObject({
          address: httpUrl("address").optional().describe("the state's URL: GET reads it, updateMethod writes it (default: NETFORM_HTTP_ADDRESS); {workspace} in it is replaced by the workspace's name (without it, only the default workspace)"),
          updateMethod: httpMethod("updateMethod").optional().describe("the method that writes the state (default POST; NETFORM_HTTP_UPDATE_METHOD)"),
          lockAddress: httpUrl("lockAddress").optional().describe("where the lock is taken (default: address; NETFORM_HTTP_LOCK_ADDRESS); GitLab: the address followed by /lock"),
          lockMethod: httpMethod("lockMethod").optional().describe("the method that takes the lock (default LOCK; NETFORM_HTTP_LOCK_METHOD); GitLab and Gitea: POST"),
          unlockAddress: httpUrl("unlockAddress").optional().describe("where the lock is given back (default: address; NETFORM_HTTP_UNLOCK_ADDRESS); GitLab: the address followed by /lock"),
          unlockMethod: httpMethod("unlockMethod").optional().describe("the method that gives the lock back (default UNLOCK; NETFORM_HTTP_UNLOCK_METHOD); GitLab and Gitea: DELETE"),
          username: z.string().min(1).optional().describe("the basic auth user (default: NETFORM_HTTP_USERNAME); the password is read from NETFORM_HTTP_PASSWORD only"),
          retryMax: z.int().min(0).max(20).optional().describe("how many times a request that failed for the server's sake (5xx, a closed connection) is repeated (default 2; NETFORM_HTTP_RETRY_MAX)"),
          retryWaitMin: duration().optional().describe("the first pause before a repeat, doubled for each next one (default 1s; NETFORM_HTTP_RETRY_WAIT_MIN, in seconds)"),
          retryWaitMax: duration().optional().describe("the longest pause before a repeat (default 30s; NETFORM_HTTP_RETRY_WAIT_MAX, in seconds)"),
          clientCertificateFile: z.string().min(1).optional().describe("a PEM client certificate for TLS, relative to the configuration (NETFORM_HTTP_CLIENT_CERTIFICATE_FILE)"),
          clientPrivateKeyFile: z.string().min(1).optional().describe("the PEM private key of clientCertificateFile (NETFORM_HTTP_CLIENT_PRIVATE_KEY_FILE)"),
          caCertificateFile: z.string().min(1).optional().describe("PEM certificates of the authorities the server's certificate is checked against, instead of the system's (NETFORM_HTTP_CA_CERTIFICATE_FILE)"),
        })
        .optional()
        .describe("a server speaking Terraform's HTTP state protocol (GitLab, Gitea, others): every setting also from NETFORM_HTTP_* variables; the password from NETFORM_HTTP_PASSWORD"),
    })
    .refine((b) => Object.values(b).filter((v) => v !== undefined).length === 1, { error: "backend takes exactly one of local, postgres, http" })
    .describe("where the state and its lock are kept (default: the file beside the configuration)"),
);

export const VARIABLE_TYPES = ["string", "number", "boolean", "list", "map"] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The workspace every configuration has: its state is where the state was before workspaces (Terraform's name for it). */
export const DEFAULT_WORKSPACE = "default";

/**
 * A workspace's name, which becomes a folder name and a URL path segment: lowercase, as some disks do not
 * tell "Prod" from "prod", and without characters a path or a URL would give a meaning of their own.
 */
export const WORKSPACE_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export const variableSchema = lazily(() =>
  z
    .strictObject({
      type: z.enum(VARIABLE_TYPES).optional().describe("the value's type; default: the default's type, else string"),
      default: z.unknown().optional().describe("the value when none is given with --var, --var-file or NETFORM_VAR_<NAME>"),
      description: z.string().optional(),
      sensitive: z.boolean().optional().describe("never print the value"),
    })
    .describe("an input variable, used as ${var.NAME}"),
);
