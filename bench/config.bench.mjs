// Benchmark: parse and validate a generated configuration of 5,000 resources (all six kinds, with
// references between them), from the built code. Run through `npm run bench` after `npm run build`.
// Besides seconds, it reports ratios that mean the same on any machine: the load's time over the time the
// yaml package's plain parse takes for the same text, and the time per resource.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parse as parseYaml } from "yaml";
import { readConfiguration } from "../dist/engine/index.js";

const GROUPS = 500; // each group: 2 route filters, 2 connections, 2 attachments, 2 routing protocols, 1 device, 1 VPN

function generate(dir) {
  const files = { connections: [], routeFilters: [], routeFilterAttachments: [], routingProtocols: [], devices: [], vpns: [] };
  for (let g = 0; g < GROUPS; g++) {
    for (const i of [0, 1]) {
      const n = `g${g}-${i}`;
      files.routeFilters.push(`  rf-${n}:\n    type: BGP_IPv4_PREFIX_FILTER\n    description: filter ${n}\n`);
      files.connections.push(
        `  c-${n}:\n    type: EVPL_VC\n    bandwidth: \${var.bandwidth}\n    aSide:\n      accessPoint:\n        type: COLO\n        port: { uuid: c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee }\n        linkProtocol: { type: DOT1Q, vlanTag: ${2 + ((g * 2 + i) % 4000)} }\n    zSide:\n      accessPoint:\n        type: SP\n        profile: { type: L2_PROFILE, uuid: 22d4ff47-7c4e-4b2a-9e0f-2c9d1f0e8a11 }\n        location: { metroCode: SV }\n    notifications: [{ type: ALL, emails: [noc@example.com] }]\n`,
      );
      files.routeFilterAttachments.push(`  a-${n}:\n    connection: \${connections.c-${n}.uuid}\n    routeFilter: \${routeFilters.rf-${n}.uuid}\n    direction: INBOUND\n`);
    }
    files.routingProtocols.push(`  direct-g${g}:\n    connection: \${connections.c-g${g}-0.uuid}\n    type: DIRECT\n    directIpv4: { equinixIfaceIp: 10.${g % 250}.${g % 200}.1/30 }\n`);
    files.routingProtocols.push(
      `  bgp-g${g}:\n    connection: \${connections.c-g${g}-0.uuid}\n    type: BGP\n    customerAsn: 65010\n    bgpIpv4: { customerPeerIp: 10.${g % 250}.${g % 200}.2, enabled: true, outboundMED: 100 }\n    bgpAuthKey: \${secret.BGP_KEY}\n    dependsOn: [routingProtocols.direct-g${g}]\n`,
    );
    files.devices.push(
      `  d-g${g}:\n    deviceTypeCode: C8000V\n    metroCode: DC\n    packageCode: network-essentials\n    version: 17.11.01a\n    licenseMode: SUB\n    deviceManagementType: PROVIDER-CONFIGURED\n    core: 2\n    termlength: 12\n    notifications: [netops@example.com]\n`,
    );
    files.vpns.push(
      `  v-g${g}:\n    virtualDeviceUuid: \${devices.d-g${g}.uuid}\n    siteName: site-${g}\n    configName: tunnel-${g}\n    peerIp: 203.0.113.10\n    peerSharedKey: \${secret.PSK}\n    remoteAsn: 65100\n    remoteIpAddress: 169.254.10.2\n    localAsn: 65000\n    tunnelIp: 169.254.10.1/30\n`,
    );
  }
  writeFileSync(join(dir, "main.yaml"), "netform: 1\nprovider:\n  endpoint: embedded\n  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01\n  accountNumber: 270848\nvariables:\n  bandwidth: { type: number, default: 100 }\n");
  let count = 0;
  for (const [kind, items] of Object.entries(files)) {
    writeFileSync(join(dir, `${kind}.yaml`), `${kind}:\n${items.join("")}`);
    count += items.length;
  }
  return count;
}

/** A configuration whose one route filter was renamed `moves` times: a chain of moved blocks to follow. */
function movedChain(dir, moves) {
  const blocks = Array.from({ length: moves }, (_, i) => `  - { from: routeFilters.f${i}, to: routeFilters.f${i + 1} }\n`).join("");
  writeFileSync(join(dir, "main.yaml"), `netform: 1\nprovider:\n  endpoint: embedded\n  projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01\nrouteFilters:\n  f${moves}:\n    type: BGP_IPv4_PREFIX_FILTER\nmoved:\n${blocks}`);
}

/** Median seconds to load a moved chain of each length; the ratio of per-move times says whether it is linear. */
function movedChainTimes(lengths) {
  const dir = mkdtempSync(join(tmpdir(), "netform-bench-moved-"));
  try {
    return lengths.map((moves) => {
      movedChain(dir, moves);
      const times = [];
      for (let run = 0; run < 3; run++) {
        const start = performance.now();
        const { config, diagnostics } = readConfiguration(dir, { env: {} });
        times.push((performance.now() - start) / 1000);
        if (diagnostics.some((d) => d.severity === "error") || config.moves.length !== moves) throw new Error(`moved chain of ${moves} is invalid`);
      }
      return median(times);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const RUNS = 7;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function bench() {
  const dir = mkdtempSync(join(tmpdir(), "netform-bench-config-"));
  try {
    const count = generate(dir);
    const texts = readdirSync(dir).map((n) => readFileSync(join(dir, n), "utf8"));
    const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
    const env = { BGP_KEY: "bench-key", PSK: "bench-psk" };
    const load = () => {
      const start = performance.now();
      const { config, diagnostics } = readConfiguration(dir, { env });
      const seconds = (performance.now() - start) / 1000;
      const errors = diagnostics.filter((d) => d.severity === "error");
      if (errors.length > 0 || config.resources.size !== count) throw new Error(`benchmark configuration is invalid: ${errors[0]?.message ?? `${config.resources.size} of ${count} resources`}`);
      return seconds;
    };
    // The yardstick: the yaml package's plain parse of the same texts (no positions, no validation).
    const parseOnly = () => {
      const start = performance.now();
      for (const t of texts) parseYaml(t);
      return (performance.now() - start) / 1000;
    };
    // Warm-up (not counted), then alternate the two so that both see the same machine load.
    load();
    parseOnly();
    const times = [];
    const parseTimes = [];
    for (let run = 0; run < RUNS; run++) {
      times.push(load());
      parseTimes.push(parseOnly());
    }
    const total = median(times);
    const parse = median(parseTimes);
    const n = count.toLocaleString("en");
    // The first length is a warm-up (the compiler's first pass), not counted.
    const [, shortChain, longChain] = movedChainTimes([1000, 1000, 3000]);
    return [
      { name: `config: parse+validate ${n} resources (median of ${RUNS})`, value: Number(total.toFixed(3)), unit: "s", goal: "< 1 s" },
      { name: `config: parse+validate ${n} resources (slowest of ${RUNS})`, value: Number(Math.max(...times).toFixed(3)), unit: "s" },
      { name: `config: yaml.parse of the same ${(bytes / 1e6).toFixed(2)} MB (median of ${RUNS})`, value: Number(parse.toFixed(3)), unit: "s" },
      { name: "config: overhead over parsing (load / yaml.parse)", value: total / parse, unit: "x", goal: "< 1.5 x" },
      { name: "config: per resource (median load / resources)", value: (total / count) * 1e6, unit: "us" },
      { name: "config: 3,000 moved blocks in a chain", value: Number(longChain.toFixed(3)), unit: "s" },
      { name: "config: per move, 3,000 over 1,000 in a chain", value: longChain / 3000 / (shortChain / 1000), unit: "x", goal: "~1 x (linear)" },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
