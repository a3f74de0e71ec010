// The configuration layer: reads netform's YAML (one file or a directory) with source positions, resolves
// variables, environment values and secrets, checks every value against the service's rules (field types,
// limits, enumerations, rules across fields and across resources), builds the reference graph, and
// generates the JSON Schema editors use. It reports every problem at once as positioned diagnostics and
// never talks to the API; it imports nothing from other netform layers except diag.
//
// Contract for the engine:
// - loadConfiguration(path, {vars, varFiles, env, missing}) -> {config, diagnostics}. Refuse to plan when
//   hasErrors(diagnostics). `missing: "unknown"` (what `validate` uses) leaves unset inputs Unresolved;
//   plan and apply keep the default "error".
// - config.provider: endpoint (NETFORM_ENDPOINT already applied), projectId, accountNumber, parallelism,
//   timeouts per kind in ms (defaults DEFAULT_TIMEOUTS_MS).
// - config.resources: Map<address, ConfigResource> with kind, name, spec (API field names; display name
//   defaulted to the resource name: route filter and connection `name`, device `virtualDeviceName`; the
//   provider's projectId/accountNumber filled in), positions (every written value, relative to the
//   resource; use positionOf), references (Reference {address, attribute, path}: path is where in the spec
//   the reference sits), dependsOn, dependencies (references + dependsOn), lifecycle {preventDestroy,
//   ignoreChanges, createBeforeDestroy}, import, sensitivePaths.
// - config.edges: every dependency edge (from depends on to), via reference or dependsOn. Cycles and
//   references to undeclared addresses are already errors.
// - Values in a spec are plain data, Sensitive (toString/toJSON/inspect give "(sensitive)"; reveal() only to
//   build a request body), Reference (known after its target is created) or Template (a string embedding
//   references; render(resolve) once they are known).
// - Once references are resolved, call validateSpec(kind, resolvedSpec, {address, positions}) to check the
//   values that were unknown at load time; it returns the same diagnostics.
// - The parent fields `connection` (routing protocols, attachments), `routeFilter` (attachments) and
//   `virtualDeviceUuid` (VPNs) hold a Reference to the parent's uuid, or a literal uuid.

export { KINDS, NAME_PATTERN, address, formatPath, isKind, parseAddress, parsePath, type Address, type FieldPath, type Kind } from "./address.js";
export { KIND_INFO, isSensitivePath, type KindInfo } from "./kinds.js";
export { DEFAULT_PARALLELISM, DEFAULT_TIMEOUTS_MS, buildConfiguration, loadConfiguration, parseDuration, type LoadOptions, type LoadResult, type Source } from "./load.js";
export { METROS_BY_REGION, METRO_CODES, type Region } from "./metros.js";
export { parseYaml, spanAt, type NodeSpan, type PositionIndex, type SourcePosition } from "./positions.js";
export { configurationJsonSchema, configurationJsonSchemaText, configurationSchema } from "./schema-json.js";
export { SENSITIVE_TEXT, Sensitive, isSensitive, reveal } from "./sensitive.js";
export type { ConfigResource, Configuration, DependencyEdge, EdgeVia, Lifecycle, ProviderConfig } from "./types.js";
export { resourceSchema, validateSpec, type ValidateOptions } from "./validate.js";
export { Invalid, Reference, Template, Unresolved, isUnknown } from "./values.js";
export { parseVarFlag, type VariableInputs } from "./variables.js";
export { positionOf } from "./position-of.js";
