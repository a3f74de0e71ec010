// Route filter rules: the create body requires a project (4.3), which may come from provider.projectId.

import type { RuleContext } from "./rules-context.js";

export function routeFilterRules(r: RuleContext): void {
  if (!r.has(["project"])) {
    r.report({ path: ["project"], code: "rule.project", message: "a route filter needs a project (project.projectId)", hint: "set project.projectId here or provider.projectId" });
  }
}
