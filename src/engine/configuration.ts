// The configuration as the engine reads it: the loader given the registry of kinds, the JSON Schema of
// that format, and the dependency graph of a loaded configuration for `netform graph`.

import { configGraph, configurationJsonSchemaText, formatConfiguration, isConfigurationText, loadConfiguration, parseAddress, type Configuration, type FormatResult, type ParsedAddress, type LoadOptions, type LoadResult } from "../config/index.js";
import type { Graph } from "../graph/index.js";
import { KIND_CATALOG, KIND_DEFINITIONS, KINDS } from "../kinds/index.js";
import { LOOKUP_CATALOG } from "../lookups/index.js";

/** Reads a configuration file or directory with every kind netform manages. */
export const readConfiguration = (path: string, options: Omit<LoadOptions, "kinds" | "lookups"> = {}): LoadResult => loadConfiguration(path, { ...options, kinds: KIND_CATALOG, lookups: LOOKUP_CATALOG });

/** The JSON Schema of the configuration format, as editors read it. */
export const configurationSchemaText = (): string => configurationJsonSchemaText(KIND_CATALOG, LOOKUP_CATALOG);

/** The configuration's dependency graph, each address's kind, and the kinds in the order netform lists them. */
export function dependencyGraph(config: Configuration): { graph: Graph; kinds: ReadonlyMap<string, string>; kindOrder: readonly string[] } {
  return { graph: configGraph(config), kinds: new Map([...config.resources.values()].map((r) => [r.address, r.kind])), kindOrder: KINDS };
}

/** The kind and name of a resource address (`connections.dc-link`), or undefined when it names no kind. */
export const parseResourceAddress = (text: string): ParsedAddress | undefined => parseAddress(text, KIND_DEFINITIONS);

export { parseDuration, parseVarFlag } from "../config/index.js";

/** The canonical text of a configuration file (netform fmt), or why it cannot be read. */
export const formatConfigurationText = (file: string, text: string): FormatResult => formatConfiguration(file, text, KIND_CATALOG);

/** Whether a YAML file found in a directory is a configuration file, for fmt to format. */
export const isConfigurationFile = (text: string): boolean => isConfigurationText(text, KIND_CATALOG);
