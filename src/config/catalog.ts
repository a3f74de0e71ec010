// What the configuration layer needs to know about a kind, declared here and supplied from above: the
// kinds' modules implement it and the engine hands their registry to the loader, so config reads, checks
// and orders any kind without naming one.

import type { z } from "zod";
import type { Diagnostic } from "../diag/index.js";
import type { RuleContext } from "./rules-context.js";
import type { SecretPaths } from "./secret-paths.js";
import type { ConfigResource, ProviderConfig } from "./types.js";

/** Sets a field when the configuration left it out, remembering that it was defaulted. */
export interface Defaults {
  /** The resource's name (`connections.NAME`). */
  readonly name: string;
  readonly provider: ProviderConfig;
  /** The spec as written, after interpolation; defaults may read it. */
  readonly spec: Readonly<Record<string, unknown>>;
  set(path: string, value: unknown): void;
  /** The configuration file the resource is declared in: local paths it names are relative to it. */
  readonly file: string;
  /** Reports a problem with a written field (dotted path), at its position. */
  report(path: string, message: string, hint?: string): void;
}

/** `from` must wait for `to`: an ordering rule of the service that no reference states. */
export interface OrderingEdge {
  from: string;
  to: string;
}

export interface KindSchema {
  /** The YAML section and the address prefix: "connections". */
  name: string;
  /** For the JSON Schema and messages: "virtual connections between two endpoints, by name". */
  description: string;
  /** The YAML body; field names are the API's own. */
  spec: z.ZodObject;
  /** The field that defaults to the resource name. */
  displayName?: string;
  /** Field paths that are always secret, whatever the value is written as ("[]" for every item). */
  sensitive: SecretPaths;
  /** Top-level attributes of the object as the API returns them: what references may read. */
  attributes: readonly string[];
  /** Fields the service sets; declaring one is an error with its own message. */
  serverSet: readonly string[];
  /** Fields that take the uuid of a parent, and the parent's kind. */
  parents: Readonly<Record<string, string>>;
  /** How long the engine waits for an object of this kind to become ready, unless the provider says otherwise. */
  timeoutMs: number;
  /** Defaults applied after interpolation and before validation. */
  defaults?(d: Defaults): void;
  /** The service's rules across the fields of one object, checked before any API call. */
  rules?(r: RuleContext): void;
  /** The service's rules across objects of this kind and those they name, checked before any API call. */
  crossRules?(own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): Diagnostic[];
  /**
   * Spec fields (dotted paths, a prefix covers what is under it) the service takes when the object is made and
   * never returns, and that no call changes: the plan can only compare them with what was last sent (by keyed
   * hash), and warns when they change. Every other declared field is compared with the service, by value or
   * (secrets) by keyed hash.
   */
  writeOnly?: readonly string[];
  /** Ordering the service requires beyond references (BGP after DIRECT on one connection; a policy's rules before its attachment), with every resource declared. */
  ordering?(own: readonly ConfigResource[], all: ReadonlyMap<string, ConfigResource>): OrderingEdge[];
}

/** Every kind the loader accepts, by name. */
export type KindCatalog = ReadonlyMap<string, KindSchema>;
