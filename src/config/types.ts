// The loaded configuration handed to the engine: the provider block with its defaults applied, and the
// resources by address with everything the engine needs to plan, order and report on them.

import type { Address } from "./address.js";
import type { Condition } from "./conditions.js";
import type { PositionIndex, SourcePosition } from "./positions.js";
import type { KindCatalog } from "./catalog.js";
import type { ConfigLookup } from "./lookups.js";
import type { MovedBlock, RemovedBlock } from "./moves.js";
import type { ConfigOutput } from "./outputs.js";
import type { SecretPaths } from "./secret-paths.js";
import type { Reference } from "./values.js";
import type { VariableDeclaration, VariableValue } from "./variables.js";

export interface ProviderConfig {
  /** "embedded" or a base URL; NETFORM_ENDPOINT (from the env given to the loader) overrides the file. Undefined when neither sets it. */
  endpoint?: string;
  projectId?: string;
  accountNumber?: string;
  /** Concurrent API operations during apply. */
  parallelism: number;
  /** Per kind, in milliseconds: the file's values over each kind's default. */
  timeouts: Record<string, number>;
  /** The longest wait a Retry-After header is honoured for, in milliseconds; undefined: the client's default. */
  maxRetryAfterMs?: number;
  /** provider.maintenanceNotices, each with where it is written, for a notice the service does not have. */
  maintenanceNotices?: MaintenanceNotice[];
}

export interface MaintenanceNotice {
  id: string;
  file?: string;
  line?: number;
  column?: number;
}

/** Where the state and its lock are kept: the backend block, its values interpolated. */
export type BackendConfig =
  | { type: "local"; path?: string }
  | { type: "postgres"; url: string; schema: string; name: string; createTables?: boolean }
  | ({ type: "http" } & HttpBackendConfig);

/**
 * The http backend's settings as the configuration gives them; what it leaves out the environment may
 * give (NETFORM_HTTP_*, read by the backend). Files are as written, relative to the configuration.
 */
export interface HttpBackendConfig {
  address?: string;
  updateMethod?: string;
  lockAddress?: string;
  lockMethod?: string;
  unlockAddress?: string;
  unlockMethod?: string;
  username?: string;
  retryMax?: number;
  retryWaitMinMs?: number;
  retryWaitMaxMs?: number;
  clientCertificateFile?: string;
  clientPrivateKeyFile?: string;
  caCertificateFile?: string;
}

export interface Lifecycle {
  preventDestroy: boolean;
  /** Field paths as written, e.g. "bgpIpv4.outboundMED". */
  ignoreChanges: string[];
  createBeforeDestroy: boolean;
}

/** What makes an edge: a reference, a dependsOn entry, or an ordering rule of the service. */
export type EdgeVia = "reference" | "dependsOn" | "ordering";

/** `from` depends on `to`: `to` is created first and deleted last. */
export interface DependencyEdge {
  from: Address;
  to: Address;
  via: EdgeVia;
  /** Where in `from` the edge is written: the referencing field, or dependsOn[i]; "" for an ordering rule. */
  path: string;
}

export interface ConfigResource {
  kind: string;
  /** The name of its block: for an instance of a forEach block, the block's, without the key. */
  name: string;
  /** The forEach key of an instance; undefined for a resource without forEach. */
  key?: string;
  address: Address;
  /**
   * The API body with the service's field names, display name and project/account defaults applied.
   * Values are plain data, Sensitive (secrets: reveal() only to build a request), Reference, or Template.
   */
  spec: Record<string, unknown>;
  /** The file the resource is written in and where its key is. */
  file: string;
  position: SourcePosition;
  /** Where every written value is, by formatPath relative to the resource ("" is its key). */
  positions: PositionIndex;
  /** The references in the spec, each with the path where it is written. */
  references: Reference[];
  /** Declared dependsOn addresses. */
  dependsOn: Address[];
  /** Every address this resource depends on (references and dependsOn), sorted, unique. */
  dependencies: Address[];
  lifecycle: Lifecycle;
  /** uuid of an existing object to adopt instead of creating one. */
  import?: string;
  /** Where sensitive values are: the kind's secret fields, and the values written from secrets or sensitive variables. */
  secrets: SecretPaths;
  /** The kind's fields the service reads only when the object is made (KindSchema.writeOnly). */
  writeOnly: readonly string[];
  /** Paths filled in by defaults rather than written. */
  defaulted: Set<string>;
  /** Checked at plan, or before its step when not known by then; a failure stops the run. */
  preconditions?: Condition[];
  /** Checked on the object as the service returns it: after its step, and at plan for an object left as it is. */
  postconditions?: Condition[];
}

export interface Configuration {
  /** The kinds it was read with. */
  kinds: KindCatalog;
  /** The files read, as shown in diagnostics. */
  files: string[];
  /** The directory of the configuration (for the state file's default location). */
  directory: string;
  provider: ProviderConfig;
  /** The backend block; absent: the local state file. */
  backend?: BackendConfig;
  variables: Map<string, { declaration: VariableDeclaration; value: VariableValue | undefined }>;
  resources: Map<Address, ConfigResource>;
  /** The `lookups:` section: what exists and is only read, resolved at plan time. */
  lookups: Map<Address, ConfigLookup>;
  /** The blocks whose forEach iterates a list lookup (`forEach: ${lookups.dc-ports}`), with the lookup's address. */
  forEachLookups: ReadonlyMap<Address, string>;
  edges: DependencyEdge[];
  /** The `moved:` blocks, each followed to the end of its chain. */
  moves: MovedBlock[];
  /** The `removed:` blocks. */
  removals: RemovedBlock[];
  /** The `outputs:` section, by name. */
  outputs: Map<string, ConfigOutput>;
}
