// The configuration layer: reads netform's YAML (one file or a directory) with source positions, resolves
// variables, environment values and secrets, checks every value against the service's rules (field types,
// limits, enumerations, rules across fields and across resources), builds the reference graph, and
// generates the JSON Schema editors use. It reports every problem at once as positioned diagnostics and
// never talks to the API; it imports nothing from other netform layers but diag and the generic graph.
//
// Contract for the engine:
// - loadConfiguration(path, {kinds, vars, varFiles, env, missing, workspace}) -> {config, diagnostics}. `kinds` is the
//   registry of kinds (KindCatalog: each kind's spec, rules, defaults, secrets, attributes, parents); config
//   names no kind itself. Refuse to plan when hasErrors(diagnostics). `missing: "unknown"` (what `validate` uses) leaves unset inputs Unresolved;
//   plan and apply keep the default "error".
// - config.provider: endpoint (NETFORM_ENDPOINT already applied), projectId, accountNumber, parallelism,
//   timeouts per kind in ms (defaults: each kind's timeoutMs).
// - config.resources: Map<address, ConfigResource> with kind, name, spec (API field names; the kind's
//   display name defaulted to the resource name and its other defaults applied), positions (every written
//   value, relative to the resource; validateSpec and placeDiagnostic read them), references (Reference {address, attribute, path}: path is where in the spec
//   the reference sits), dependsOn, dependencies (references + dependsOn), lifecycle {preventDestroy,
//   ignoreChanges, createBeforeDestroy}, import, secrets (SecretPaths).
// - A resource with forEach is one ConfigResource per key, addressed kind.name["key"] (address.ts owns the
//   form), with `key` set and `name` the block's; expandBlockAddresses reads a block's address as all of them.
// - config.lookups: Map<address, ConfigLookup> of the `lookups:` section (given LoadOptions.lookups, the lookup
//   kinds' catalog): kind and where, checked. References to lookups are Reference values (kind "lookups")
//   without dependency edges; the engine resolves them before planning.
// - config.edges: every dependency edge (from depends on to), via reference, dependsOn or a kind's ordering
//   rule; configGraph(config) is their graph. Cycles and references to undeclared addresses are already
//   errors.
// - Values in a spec are plain data, Sensitive (toString/toJSON/inspect give "(sensitive)"; reveal() only to
//   build a request body), Reference (known after its target is created) or Template (a string embedding
//   references; render(resolve) once they are known).
// - Once references are resolved, call validateSpec(kindSchema, resolvedSpec, {address, positions}) to check
//   the values that were unknown at load time; it returns the same diagnostics.
// - A kind's parent fields (KindSchema.parents) hold a Reference to the parent's uuid, or a literal uuid.

export { compareAddresses, expandBlockAddresses, formatPath, parseAddress, type Address, type FieldPath, type ParsedAddress } from "./address.js";
export type { KindCatalog, KindSchema, OrderingEdge } from "./catalog.js";
export { configGraph, resourceAt, secretsAt } from "./dependencies.js";
export { writeBackendBlock } from "./backend-block.js";
export { backendFromText, buildConfiguration, loadConfiguration, parseDuration, type LoadOptions, type LoadResult } from "./load.js";
export { FOR_EACH_LOOKUP_UNKNOWN } from "./for-each.js";
export { isLookupAddress, LOOKUPS_SECTION, type ConfigLookup, type LookupCatalog, type LookupSchema } from "./lookups.js";
export { OUTPUT_NAME, OUTPUTS_SECTION, type ConfigOutput } from "./outputs.js";
export { MOVED_SECTION, REMOVED_SECTION, type MovedBlock, type RemovedBlock } from "./moves.js";
export { parsePrefix, type Prefix } from "./network.js";
export type { RuleContext } from "./rules-context.js";
export * from "./schema-common.js";
export { DEFAULT_WORKSPACE, WORKSPACE_NAME } from "./schema-meta.js";
export { configurationJsonSchemaText } from "./schema-json.js";
export { SecretPaths } from "./secret-paths.js";
export { SENSITIVE_TEXT, Sensitive, isSensitive, reveal } from "./sensitive.js";
export type { BackendConfig, ConfigResource, HttpBackendConfig, Configuration, MaintenanceNotice, ProviderConfig } from "./types.js";
export { placeDiagnostic, validateSpec } from "./validate.js";
export { Invalid, Reference, Template, Unresolved } from "./values.js";
export { parseVarFlag, type VariableInputs } from "./variables.js";
export { absentPath, hasOwnKeys, isPlainObject, mapValues, pathSegments, readPath, type AbsentPath } from "./json.js";
export { identityOf } from "./references.js";
export { formatConfiguration, isConfigurationText, type FormatResult } from "./format.js";
export { evaluateCondition, parseCondition, UNKNOWN, type Condition, type ConditionKind, type Evaluation, type Expression } from "./conditions.js";
