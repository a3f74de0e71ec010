// What the plan says an output will be when it reads an item of a list that the plan updates: the planned
// item where it is known, unknown where it is not, and what the service has where the plan leaves the list.

import { describe, expect, it } from "vitest";
import { buildConfiguration } from "../../../src/config/index.js";
import { planOutputs } from "../../../src/engine/outputs.js";
import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { summarize, type FieldChange, type Plan, type ResourceChange } from "../../../src/plan/types.js";
import type { StateFile } from "../../../src/state/index.js";

const PROJECT = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
const ROUTER_ID = "0f5c2c8e-7a6b-4d3e-9b1a-2c3d4e5f6a70";
const notifications = (email: string) => [{ type: "ALL", emails: [email] }];

const { config } = buildConfiguration(
  [
    {
      file: "netform.yaml",
      text: `netform: 1
provider: { endpoint: embedded, projectId: ${PROJECT} }
cloudRouters:
  r:
    name: router-r
    location: { metroCode: DC }
    package: { code: STANDARD }
    notifications: [{ type: ALL, emails: [new@example.com] }]
outputs:
  first-email: { value: "\${cloudRouters.r.notifications[0].emails[0]}" }
`,
    },
  ],
  { kinds: KIND_CATALOG, env: {} },
);

const state: StateFile = {
  version: 1,
  lineage: "3f0c7c9e-lineage",
  serial: 3,
  generator: "netform",
  resources: { "cloudRouters.r": { kind: "cloudRouters", id: ROUTER_ID, attributes: { uuid: ROUTER_ID, name: "router-r", notifications: notifications("old@example.com") }, sensitiveHashes: {}, dependencies: [] } },
  outputs: {},
};

function planWith(change: Pick<ResourceChange, "action" | "changes" | "unknown" | "after">): Plan {
  const changes: ResourceChange[] = [{ address: "cloudRouters.r", kind: "cloudRouters", reasonCode: change.action === "update" ? "update" : "unchanged", id: ROUTER_ID, dependencies: [], sensitive: [], ...change }];
  return { formatVersion: 1, mode: "normal", lineage: state.lineage, serial: state.serial, configHash: "sha256:test", changes, summary: summarize(changes), requestCount: 0 };
}

const hash = { matches: () => false };
const changed: FieldChange[] = [{ path: "notifications", before: notifications("old@example.com"), after: notifications("new@example.com") }];

describe("an output that reads a list item", () => {
  it.each([
    ["the planned item, where the plan updates the list", planWith({ action: "update", changes: changed, unknown: [], after: { notifications: notifications("new@example.com") } }), { after: "new@example.com", afterUnknown: false }],
    ["unknown, where the updated list is not known before apply", planWith({ action: "update", changes: changed, unknown: ["notifications"], after: { notifications: "(known after apply)" } }), { afterUnknown: true }],
    ["what the service has, where the plan leaves the list", planWith({ action: "no-op", changes: [], unknown: [] }), { after: "old@example.com", afterUnknown: false }],
  ] as const)("is %s", (_, plan, expected) => {
    const [output] = planOutputs(plan, config, state, new Map(), hash) ?? [];
    expect(output).toMatchObject({ name: "first-email", action: "create", ...expected });
    if (expected.afterUnknown) expect(output).not.toHaveProperty("after");
  });
});
