// The kind contract (DESIGN.md): everything about one kind of object in one definition. Its schema part
// (spec, rules, defaults, secrets, attributes, parents, timeout, ordering) is what the configuration layer
// declares it needs; its handler is how the engine creates, observes, compares, changes and deletes it, and
// reads its state tables. Handlers are idempotent and never wait: the engine owns polling, ordering and
// the state file.

import type { ApiClient } from "../api/index.js";
import type { ConfigResource, Configuration, KindSchema, ProviderConfig, SecretPaths } from "../config/index.js";
import type { Diagnostic } from "../diag/index.js";

/** A JSON object as the API sends or receives it. */
export type Body = Record<string, unknown>;

export interface KindContext {
  api: ApiClient;
  provider: ProviderConfig;
}

/** Where an object lives: its id, and its parent's id for kinds nested under another (a connection). */
export interface ObjectRef {
  id: string;
  parent?: string;
}

/** An object the API returned: where it lives and its body as returned. */
export interface Observed extends ObjectRef {
  body: Body;
}

export type Operation = "create" | "update" | "delete";

/** What the state tables say about an operation in progress. */
export type Readiness = "ready" | "pending" | { failed: string };

/** How a field changes in place. Any changed field without one forces a replace. */
export type UpdateMethod =
  /** A JSON-patch `replace` at this path (connections, route filters, routing protocol enabled flags). */
  | { via: "patch"; path: string }
  /** The whole object is sent again (routing protocols, VPNs). */
  | { via: "put" }
  /** The kind's own update call (device name, notifications, term). */
  | { via: "update" }
  /** A dedicated call (a device's additional bandwidth). */
  | { via: "action"; name: string };

export interface KindHandler {
  /** For messages: "connection", "routing protocol". */
  noun: string;
  /** The field of the spec holding the parent's uuid, for nested kinds ("connection"). */
  parentField?: string;

  /** Reads one object; undefined when it is gone (404, or the kind's final deleted state). */
  observe(ctx: KindContext, ref: ObjectRef): Promise<Body | undefined>;
  /**
   * Reads many objects through the API's list or search endpoints, fewer requests than one GET each.
   * Returns the bodies found, keyed by `refKey(ref)` (the id, within its parent for nested kinds: a
   * route filter can be attached to several connections); a ref missing from the map is gone.
   */
  observeMany?(ctx: KindContext, refs: ObjectRef[]): Promise<Map<string, Body>>;

  /**
   * The comparable form of a spec (resolved: plain values, secrets revealed) and of an observed body:
   * the same field names, the API's defaults filled in, number/string quirks and unordered lists
   * normalised, server-set fields left out. The engine compares the two field by field. A `null` leaf in
   * the desired form means "must be absent": it equals a missing field, and differs from any value, so
   * an optional field removed from the configuration shows as a change.
   */
  desired(spec: Body): Body;
  observed(body: Body): Body;
  /** Dotted field paths that change in place, and how; a prefix covers everything under it. */
  updatable: Readonly<Record<string, UpdateMethod>>;
  /**
   * Fields of the comparable form that real answers are known to leave out ("linkDevices[].asn", "[]" for
   * every item of a list): compared only where the answer carries them, since absent there means the
   * service's default or what was sent. Every field that cannot change in place is compared so already: a
   * field missing from an answer never forces a replacement.
   */
  mayOmit?: readonly string[];
  /**
   * Write-only fields (KindSchema.writeOnly) that another kind changes on a running object, by field path:
   * what the plan's warning about a changed one tells users to do instead of replacing the object.
   */
  writeOnlyHints?: Readonly<Record<string, string>>;
  /**
   * The kind's secret fields the service returns in its answers, at the same path as in the spec: these
   * are compared with the service's value, so a change made outside netform is found. Every other secret
   * field is compared only with the hash recorded when netform last sent it (and plans say so).
   */
  returnedSecrets?: SecretPaths;

  /** Sends the create; returns once the API accepted it, with the new object's ref and body. */
  create(ctx: KindContext, spec: Body): Promise<Observed>;
  /**
   * Where the API creates many objects in one request (a route filter's rules): the engine sends the
   * creates of this kind that start together and share a key through it. Each address is still recorded
   * as pending before the request, so an interrupted bulk create is resolved address by address by
   * `lookup`; a refused bulk is sent again one create at a time, so each address gets its own outcome.
   */
  bulkCreate?: BulkCreate;
  /**
   * The service's own check of a change, where its operation takes `dryRun=true` (the official description):
   * sends the create (or update) exactly as `create` (`update`) would, and the service validates it and changes
   * nothing. Resolves when the service accepts it; throws its refusal (an ApiError) otherwise.
   */
  dryRun?: {
    create?(ctx: KindContext, spec: Body): Promise<void>;
    update?(ctx: KindContext, ref: ObjectRef, spec: Body, changed: string[]): Promise<void>;
  };
  /** Sends the changes to `changed` (dotted paths of the desired form) for an existing object. */
  update(ctx: KindContext, ref: ObjectRef, spec: Body, changed: string[]): Promise<void>;
  /** Sends the delete; an object already gone counts as deleted. */
  delete(ctx: KindContext, ref: ObjectRef): Promise<void>;
  /**
   * The service has no delete for this kind (uploaded files, BGP peerings): deleting or replacing an object
   * only forgets it, and the service keeps it. What the plan says of it, in words ("the service has no
   * delete for uploaded files: netform forgets the upload, and the service keeps it").
   */
  keptByService?: string;
  /**
   * The service offers no way to find an object again (no list nor search): when a create's answer is lost
   * (a dropped connection, a kill at that moment) the next run makes it again. What the plan says of each
   * create, in words, so that a reviewer knows before approving.
   */
  madeAgainIfAnswerLost?: string;
  /**
   * The service deletes this object with its parent (a route filter's rules go with the filter). When
   * both are deleted in one run, the engine deletes the parent, then waits for this object to be gone
   * without a request of its own.
   */
  deletedWithParent?: boolean;

  /** From the state tables: is the operation done, still running, or failed (with the service's reason)? */
  readiness(body: Body, operation: Operation): Readiness;
  /** The lifecycle state to show while waiting ("PROVISIONING"). */
  stateOf(body: Body): string | undefined;
  /**
   * Finds the object a create may have made when its outcome is unknown (a crash, a timeout), by the
   * identifying fields of the spec (name, parent); undefined when there is none. `owned` holds the objects
   * other addresses of the state already hold, by `refKey`: never one of those, which would be two addresses
   * for one object. The engine then checks that what was found could be the object its create made.
   */
  lookup(ctx: KindContext, spec: Body, owned?: ReadonlySet<string>): Promise<Observed | undefined>;
  /** The resource path the service's cloud events name as their subject for this object: how drift finds who changed it. */
  eventSubject(ref: ObjectRef): string | undefined;
}

/** Creates that may share one request, and the request. */
export interface BulkCreate {
  /** Creates with the same key may share a request (the parent they are created in). */
  key(spec: Body): string;
  /** Creates every spec in one request; returns one object per spec, in their order. */
  create(ctx: KindContext, specs: Body[]): Promise<Observed[]>;
}

/**
 * A question for one of the service's price calls: a price search (section 4.12) by its properties, or the
 * device price call (section 4.10) by its query. Equal questions are asked once per run.
 */
export type PriceQuery =
  | {
      api: "fabric";
      /** Each searched property (a JSON pointer) with its one value. */
      filter: Record<string, string | number | boolean>;
      /** The property (one of filter's, operator IN) that lets questions differing only in it share one search. */
      batchBy?: string;
    }
  | { api: "device"; query: Record<string, string | number> };

/** How the service prices one object: its question and how to show it, or why it cannot be priced. */
export type PricedProduct = { query: PriceQuery; product: string; metro?: string } | { unknown: string };

/** What a priced kind knows of its product (issue 19), from the comparable form of an object (a plan's before or after). */
export interface KindPricing {
  /**
   * The ports whose metro the product depends on (a connection from a port names the port, not its metro):
   * the pricing reads them all in one search before asking for products.
   */
  portsNamed?(form: Body): string[];
  product(form: Body, portMetro: (uuid: string) => string | undefined): PricedProduct;
}

/** Seconds the service typically takes to finish each operation on an object of a kind. */
export type TypicalSeconds = Readonly<Record<Operation, number>>;

export interface TimedVariants {
  of(body: Body): string | undefined;
  seconds: Readonly<Record<string, TypicalSeconds>>;
}

/** What an object is in the network's drawing (`netform graph --topology`, the review comment): a node, or a line between nodes. */
export type TopologyRole = "port" | "device" | "cloud router" | "network" | "service token" | "connection" | "device link";

/** One kind: what the configuration reads and checks, and how the engine manages its objects. */
export interface KindDefinition<Name extends string = string> extends KindSchema {
  name: Name;
  handler: KindHandler;
  /** Where its objects are in the network's drawing; a kind without one (a route filter) is not drawn. */
  topology?: TopologyRole;
  /**
   * A kind of the network-edge API (/ne/v1): a plan that changes one reads the service's downtime
   * notification first, and apply refuses during a downtime unless told to ignore it.
   */
  networkEdge?: true;
  /**
   * How long the real service typically takes to finish each operation, for the longest common variant
   * of the kind (a BGP routing protocol rather than a DIRECT one): the poller's first look and the plan's
   * duration estimate start from it until a state has learned its own times.
   */
  typicalSeconds: TypicalSeconds;
  /**
   * Variants of the kind whose times differ much (a DIRECT routing protocol takes 20 s, a BGP one 45 s):
   * which one a spec or an observed body is, and its typical times. Each variant's times are learned apart.
   */
  timedVariants?: TimedVariants;
  /**
   * The service's rules that only the service can check, for the objects of this kind a plan creates or
   * replaces (a BGP instance on a connection netform does not manage needs that connection's DIRECT instance;
   * a device's core must be one its type offers): a few reads at plan time, reported as located diagnostics
   * before anything is applied. `resolved` gives a resource's spec with what is known of its references (what
   * this plan creates is unknown).
   */
  preflight?(ctx: KindContext, creates: readonly ConfigResource[], config: Configuration, resolved: (resource: ConfigResource) => Body): Promise<Diagnostic[]>;
  /** For kinds the service bills each month: how an object is priced. */
  pricing?: KindPricing;
}
