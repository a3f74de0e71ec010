// Connection shapes the service accepts (the official description decides where the specification is
// silent), and the near misses it refuses: the configuration must say the same as the simulator's rules.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildConfiguration } from "../../../src/config/index.js";
import { connections } from "../../../src/kinds/connections/index.js";
import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { formatDiagnosticsText } from "../../../src/views/diagnostics.js";

const repo = join(import.meta.dirname, "../../..");
const PORT = "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee";
const QINQ_PORT = "c791f8cb-0000-4000-8000-000000000003";
const DEVICE = "0d0d0d0d-0000-4000-8000-000000000001";
const PROFILE = "22d4ff47-7c4e-4b2a-9e0f-2c9d1f0e8a11";

const SP = `{ type: SP, profile: { uuid: ${PROFILE} }, location: { metroCode: DC } }`;

/**
 * The error diagnostics, as `validate` prints them, of one connection `c` whose a-side access point (and
 * any other fields) are given as YAML.
 */
function problems(aSide: string, extra = "", { type = "EVPL_VC", zSide = SP } = {}): string[] {
  const text = `netform: 1
provider: { endpoint: embedded, projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01 }
connections:
  c:
    type: ${type}
    bandwidth: 100
    aSide: { accessPoint: ${aSide} }
    zSide: { accessPoint: ${zSide} }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
${extra}`;
  const { diagnostics } = buildConfiguration([{ file: join(repo, "netform.yaml"), text }], { kinds: KIND_CATALOG, env: { AWS_SECRET: "s3cr3t" }, baseDir: repo });
  return formatDiagnosticsText(diagnostics.filter((d) => d.severity === "error"));
}

describe("connection shapes: link protocols on ports", () => {
  it("takes QINQ with only the outer tag on a port", () => {
    expect(problems(`{ type: COLO, port: { uuid: ${QINQ_PORT} }, linkProtocol: { type: QINQ, vlanSTag: 1001 } }`)).toEqual([]);
  });

  it("still needs the outer tag, and the inner tag (or its range) at a virtual device", () => {
    expect(problems(`{ type: COLO, port: { uuid: ${QINQ_PORT} }, linkProtocol: { type: QINQ, vlanCTag: 20 } }`)).toEqual(["netform.yaml:7:95  connections.c.aSide.accessPoint.linkProtocol.vlanSTag  QINQ needs vlanSTag (the outer tag)"]);
    expect(problems(`{ type: VD, virtualDevice: { uuid: ${DEVICE} }, linkProtocol: { type: QINQ, vlanSTag: 10 } }`)).toEqual([
      "netform.yaml:7:102  connections.c.aSide.accessPoint.linkProtocol.vlanCTag  QINQ needs vlanCTag, or vlanCTagMin and vlanCTagMax",
    ]);
  });
});

describe("connection shapes: access point fields", () => {
  it("takes a location on a COLO access point", () => {
    expect(problems(`{ type: COLO, port: { uuid: ${PORT} }, location: { metroCode: DC }, linkProtocol: { type: DOT1Q, vlanTag: 100 } }`)).toEqual([]);
  });

  it("refuses a location where the access point type has none", () => {
    expect(problems(`{ type: CLOUD_ROUTER, router: { uuid: ${DEVICE} }, location: { metroCode: DC } }`, "", { type: "IP_VC" })).toEqual([
      "netform.yaml:7:105  connections.c.aSide.accessPoint.location  location applies only to access points of type COLO or SP, not CLOUD_ROUTER",
    ]);
  });

  it("takes a virtual device without an interface, or with only the interface's id or type", () => {
    expect(problems(`{ type: VD, virtualDevice: { uuid: ${DEVICE} } }`)).toEqual([]);
    expect(problems(`{ type: VD, virtualDevice: { uuid: ${DEVICE} }, interface: { id: 7 } }`)).toEqual([]);
    expect(problems(`{ type: VD, virtualDevice: { uuid: ${DEVICE} }, interface: { type: CLOUD } }`)).toEqual([]);
  });
});

describe("connection shapes: redundancy", () => {
  const dot1q = `{ type: COLO, port: { uuid: ${PORT} }, linkProtocol: { type: DOT1Q, vlanTag: 100 } }`;

  it("takes a PRIMARY without a group, and a SECONDARY naming the primary's group by reference", () => {
    const secondary = `  s:
    type: EVPL_VC
    bandwidth: 100
    redundancy: { priority: SECONDARY, group: "\${connections.c.redundancy.group}" }
    aSide: { accessPoint: { type: COLO, port: { uuid: ${PORT} }, linkProtocol: { type: DOT1Q, vlanTag: 101 } } }
    zSide: { accessPoint: { type: SP, profile: { uuid: ${PROFILE} }, location: { metroCode: DC } } }
    notifications: [{ type: ALL, emails: [noc@example.com] }]
`;
    expect(problems(dot1q, `    redundancy: { priority: PRIMARY }\n${secondary}`)).toEqual([]);
  });

  it("refuses a SECONDARY without a group", () => {
    expect(problems(dot1q, "    redundancy: { priority: SECONDARY }\n")).toEqual([
      "netform.yaml:10:5  connections.c.redundancy.group  a SECONDARY connection joins its primary's redundancy group, and needs its name",
      "    hint: set redundancy.group to the primary's, e.g. ${connections.<primary>.redundancy.group}",
    ]);
  });
});

describe("connection shapes: connection types and their endpoints", () => {
  const bare = `{ type: COLO, port: { uuid: ${PORT} } }`;
  const network = `{ type: NETWORK, network: { uuid: ${DEVICE} } }`;
  const router = `{ type: CLOUD_ROUTER, router: { uuid: ${DEVICE} } }`;

  it("takes port-based types without a link protocol", () => {
    expect(problems(bare, "", { type: "EPL_VC", zSide: bare })).toEqual([]);
    expect(problems(bare, "", { type: "EPLAN_VC", zSide: network })).toEqual([]);
    expect(problems(`{ type: COLO, port: { uuid: ${QINQ_PORT} }, linkProtocol: { type: QINQ, vlanSTag: 1234 } }`, "", { type: "ACCESS_EPL_VC", zSide: bare })).toEqual([]);
    expect(problems(`{ type: COLO, port: { uuid: ${PORT} }, linkProtocol: { type: UNTAGGED } }`)).toEqual([]);
  });

  it("still needs a port's link protocol for a type that is not port-based", () => {
    expect(problems(bare)).toEqual(["netform.yaml:7:14  connections.c.aSide.accessPoint.linkProtocol  an access point of type COLO needs linkProtocol"]);
  });

  it("takes the endpoints the official description gives IPWAN_VC, IP_VC and EVPLAN_VC, and refuses others", () => {
    expect(problems(router, "", { type: "IPWAN_VC", zSide: network })).toEqual([]);
    expect(problems(router, "", { type: "IP_VC" })).toEqual([]);
    expect(problems(`{ type: COLO, port: { uuid: ${PORT} }, linkProtocol: { type: DOT1Q, vlanTag: 100 } }`, "", { type: "EVPLAN_VC", zSide: network })).toEqual([]);
    expect(problems(router, "", { type: "IPWAN_VC" })).toEqual(["netform.yaml:8:35  connections.c.zSide.accessPoint.type  IPWAN_VC needs a NETWORK access point as its zSide, not SP"]);
    expect(problems(`{ type: COLO, port: { uuid: ${PORT} }, linkProtocol: { type: DOT1Q, vlanTag: 100 } }`, "", { type: "IP_VC" })).toEqual([
      "netform.yaml:7:35  connections.c.aSide.accessPoint.type  IP_VC needs a CLOUD_ROUTER access point as its aSide, not COLO",
    ]);
  });
});

describe("connection shapes: additionalInfo", () => {
  const dot1q = `{ type: COLO, port: { uuid: ${PORT} }, linkProtocol: { type: DOT1Q, vlanTag: 100 } }`;

  it("takes the provider's keys, from secrets, as a sensitive field", () => {
    const text = "    additionalInfo: [{ key: accessKey, value: AKIA-EXAMPLE }, { key: secretKey, value: \"${secret.AWS_SECRET}\" }]\n";
    expect(problems(dot1q, text)).toEqual([]);
    expect(connections.sensitive?.covers("additionalInfo.1.value")).toBe(true);
  });

  it("refuses an entry without a value", () => {
    expect(problems(dot1q, "    additionalInfo: [{ key: accessKey }]\n")).toHaveLength(1);
  });
});
