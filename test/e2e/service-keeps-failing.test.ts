// A service that keeps failing, after netform's retries: a located, clear error naming the request and
// what to do, never "Internal error", for a refresh (plan, drift) and for a destroy.

import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";
import { workspace } from "./cli.js";
import { CONFIG_HEADER, out, PORTS, runner } from "./service.js";

const t = useSimulator({ speed: 1000 });

const CONFIG = `${CONFIG_HEADER}serviceTokens:
  partner:
    description: partner token
    expirationDateTime: "2027-06-01T00:00:00Z"
    connection:
      type: EVPL_VC
      supportedBandwidths: [50, 100]
      zSide:
        accessPointSelectors:
          - type: COLO
            port: { uuid: ${PORTS.dcSecondary} }
            linkProtocol: { type: DOT1Q, vlanTag: 2901 }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
routeFilters:
  customer-in:
    type: BGP_IPv4_PREFIX_FILTER
`;

const failing = (statuses: number[]) => t.call("POST", "/__sim/faults", { body: { errorRate: 1, errorStatuses: statuses, errorPath: "/fabric/v4/**", seed: 7 } });

describe("a service that keeps failing after the retries", () => {
  for (const command of [["plan"], ["drift"], ["destroy", "--auto-approve"], ["apply", "--auto-approve"]]) {
    it(`${command[0]}: says which request failed and what to do, without an internal error`, { timeout: 120_000 }, async () => {
      const ws = workspace(CONFIG);
      const run = runner(t, ws);
      const applied = await run("apply", "--auto-approve");
      expect(applied.code, out(applied)).toBe(0);
      if (command[0] === "apply") ws.write(CONFIG.replace("partner token", "partner token 2"));
      await failing([502]);
      try {
        const result = await run(...command);
        expect(result.code, out(result)).toBe(1);
        expect(result.stderr).not.toMatch(/Internal error|defect in netform| {4}at /);
        expect(result.stderr).toMatch(/502/);
        expect(result.stderr).toMatch(/Error: (POST|GET|PATCH|DELETE) \/fabric\/v4\/\S+ failed: the service answered EQ-3000502: Bad gateway \(HTTP 502\)/);
        expect(result.stderr).toContain("the service is failing, not the configuration: run the command again later");
      } finally {
        await t.call("POST", "/__sim/faults", { body: {} });
      }
      const after = await run(...(command[0] === "apply" || command[0] === "destroy" ? command : ["plan"]));
      expect(after.code, out(after)).toBe(0);
    });
  }
});
