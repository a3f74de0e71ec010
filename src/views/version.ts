// `netform version`: what a bug report or a pipeline's log needs to know about the build that ran.

import type { Output } from "./output.js";

export interface VersionInfo {
  version: string;
  /** Node's platform and architecture, as in `linux_x64`. */
  platform: string;
  /** The Node.js release running netform. */
  node: string;
}

export function renderVersion(output: Output, info: VersionInfo, format: "text" | "json"): void {
  if (format === "json") output.out(JSON.stringify(info, null, 2));
  else output.out(`netform v${info.version}\non ${info.platform}, Node.js v${info.node}`);
}
