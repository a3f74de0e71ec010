// Benchmark: the simulator's own cost per request, with a large world. Requests go through the simulator's
// app in process (no sockets), so the figures are the simulator's handling, not the HTTP client's.
//
// Rates are per second of this process's CPU time, not of wall time: the figures then mean the same on
// a machine that other work shares.
//
// The world holds 10,000 objects of a mix of kinds (route filters, connections on the seeded ports, and
// routing protocols on those connections), put in place through the world directly from bodies the API
// created, because creating them one by one is what (3) measures.
// (1) GETs per second of a connection by uuid.
// (2) Searches per second: connections by name, and connections by state with sorting, one page each;
//     sorted by last update (the default) or by name, the search reads connections in an order it keeps
//     (the one sorted by name is shown without a goal).
// (3) Connection creates per second (VLAN, bandwidth and redundancy checks) with 10,000 objects over
//     creates per second with 1,000: flat when the checks use indexes instead of scans.
// (4) Bytes the embedded world writes to disk per mutating request, with 10,000 objects: a change log, not
//     the whole world.

import { mkdtempSync, rmSync, statSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createSimulator } from "../dist/simulator/index.js";

const OBJECTS = 10_000;
const SMALL = 1_000;
const PROJECT = "5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01";
const PORTS_PER_METRO = ["PRIMARY", "SECONDARY"];
const METROS = ["DC", "SV", "NY", "LD", "AM", "FR", "SG", "TY"];
const seededUuid = (prefix, n) => `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
/** The seeded DOT1Q ports: two per metro (see the simulator's seed). */
const PORTS = METROS.flatMap((_, m) => PORTS_PER_METRO.map((_, p) => (m === 0 && p === 0 ? "c791f8cb-5cc8-cc80-8ce0-306a5c00a4ee" : seededUuid("c791f8cb", m * 3 + p + 1))));
/** Measured for at least this long, so that a figure is not one timer tick. */
const MEASURE_MS = 1500;

async function client(sim) {
  const res = await sim.app.request("/oauth2/v1/token", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret" }),
  });
  const { access_token: token } = await res.json();
  return async (method, path, body) => {
    const answer = await sim.app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${text.slice(0, 500)}`);
    return JSON.parse(text);
  };
}

/** A port-to-port connection between the two ports of metro `m`, on the same tag on both. */
const connectionRequest = (i, m, vlanTag) => ({
  type: "EVPL_VC",
  name: `bench-connection-${i}`,
  order: { purchaseOrderNumber: "PO-1" },
  redundancy: { priority: "PRIMARY" },
  bandwidth: 1,
  aSide: { accessPoint: { type: "COLO", port: { uuid: PORTS[2 * m] }, linkProtocol: { type: "DOT1Q", vlanTag } } },
  zSide: { accessPoint: { type: "COLO", port: { uuid: PORTS[2 * m + 1] }, linkProtocol: { type: "DOT1Q", vlanTag } } },
  notifications: [{ type: "ALL", emails: ["noc@example.com"] }],
  project: { projectId: PROJECT },
});

/** Fills the world with `total` objects (a third each of filters, connections, routing protocols), copied from ones the API made. */
async function populate(sim, call, total) {
  const filter = await call("POST", "/fabric/v4/routeFilters", { type: "BGP_IPv4_PREFIX_FILTER", name: "bench-template", project: { projectId: PROJECT } });
  const connection = await call("POST", "/fabric/v4/connections", connectionRequest(0, 0, 2));
  const world = sim.world;
  const templates = {
    routeFilters: world.get(filter.uuid),
    connections: world.get(connection.uuid),
  };
  const copy = (template, uuid, edit) => {
    const body = structuredClone(template.body);
    body.uuid = uuid;
    body.href = body.href.replace(template.uuid, uuid);
    edit(body);
    const obj = world.create(template.kind, body, { uuid, projectId: template.projectId, meta: structuredClone(template.meta) });
    world.transition(obj, {}, template === templates.connections ? [{ afterMs: 1, set: { "/state": "PROVISIONED" } }] : []);
    return obj;
  };
  const third = Math.floor(total / 3);
  for (let i = 0; i < third; i++) {
    copy(templates.routeFilters, seededUuid("bf000000", i), (b) => (b.name = `bench-filter-${i}`));
    // VLAN tags from 10 up, spread over the ports, so that the creates measured later find tags free.
    copy(templates.connections, seededUuid("bc000000", i), (b) => {
      b.name = `bench-connection-${i}`;
      const m = i % METROS.length;
      const vlanTag = 10 + Math.floor(i / METROS.length);
      b.aSide.accessPoint.port.uuid = PORTS[2 * m];
      b.zSide.accessPoint.port.uuid = PORTS[2 * m + 1];
      b.aSide.accessPoint.linkProtocol.vlanTag = vlanTag;
      b.zSide.accessPoint.linkProtocol.vlanTag = vlanTag;
    });
  }
  const protocols = total - 2 * third;
  for (let i = 0; i < protocols; i++) {
    const obj = world.create("routingProtocols", { uuid: seededUuid("bp000000", i), type: "DIRECT", name: `bench-protocol-${i}`, state: "PROVISIONED" }, { uuid: seededUuid("bp000000", i), projectId: PROJECT, meta: { connectionUuid: seededUuid("bc000000", i % third) } });
    void obj;
  }
  return { filter: filter.uuid, connection: connection.uuid, connections: third };
}

/** Calls of `work` per second of CPU time. */
async function rate(work) {
  let done = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  while (performance.now() - started < MEASURE_MS) {
    await work(done);
    done++;
  }
  const used = process.cpuUsage(cpu);
  return done / ((used.user + used.system) / 1e6);
}

/** Connection creates per second in a world of `total` objects. */
async function createRate(total, dataFile) {
  const sim = createSimulator({ seed: 7, speed: 1000, ...(dataFile ? { dataFile } : {}) });
  const call = await client(sim);
  const made = await populate(sim, call, total);
  // Tags above those the population took, one port after another.
  const firstTag = 20 + Math.ceil(made.connections / METROS.length);
  const perSecond = await rate((i) => call("POST", "/fabric/v4/connections", connectionRequest(`new-${i}`, i % METROS.length, firstTag + Math.floor(i / METROS.length))));
  return { sim, call, made, perSecond };
}

/** The files in `dir`: identity (a rewrite by rename makes a new one) and size. */
function filesIn(dir) {
  return new Map(readdirSync(dir).map((f) => {
    const stat = statSync(join(dir, f));
    return [f, { ino: stat.ino, size: stat.size }];
  }));
}

/** Bytes written between two looks at a folder: what appended files grew by, and the whole of files written anew. */
function bytesWritten(before, after) {
  let sum = 0;
  for (const [name, now] of after) {
    const then = before.get(name);
    sum += then && then.ino === now.ino && then.size <= now.size ? now.size - then.size : now.size;
  }
  return sum;
}

export default async function bench() {
  const small = await createRate(SMALL);
  const large = await createRate(OBJECTS);
  const { call, made } = large;

  const getRate = await rate(() => call("GET", `/fabric/v4/connections/${seededUuid("bc000000", 17)}`));
  const byName = await rate((i) =>
    call("POST", "/fabric/v4/connections/search", { filter: { and: [{ property: "/name", operator: "=", values: [`bench-connection-${(i * 7) % made.connections}`] }] }, pagination: { limit: 20 } }),
  );
  const byState = await rate(() =>
    call("POST", "/fabric/v4/connections/search", {
      filter: { and: [{ property: "/operation/equinixStatus", operator: "=", values: ["PROVISIONED"] }] },
      pagination: { limit: 20 },
      sort: [{ property: "/changeLog/updatedDateTime", direction: "DESC" }],
    }),
  );
  const byStateByName = await rate(() =>
    call("POST", "/fabric/v4/connections/search", {
      filter: { and: [{ property: "/operation/equinixStatus", operator: "=", values: ["PROVISIONED"] }] },
      pagination: { limit: 20 },
      sort: [{ property: "/name", direction: "ASC" }],
    }),
  );

  // The embedded world: the same population, persisted; bytes written by 200 connection creates.
  const dir = mkdtempSync(join(tmpdir(), "netform-bench-sim-"));
  let bytesPerRequest;
  let writeBase;
  try {
    const dataFile = join(dir, "world.json");
    const sim = createSimulator({ seed: 7, speed: 1000, dataFile });
    const persisted = await client(sim);
    const pop = await populate(sim, persisted, OBJECTS);
    // A filter update logs the population; a second one folds that log into a new snapshot before counting starts.
    await persisted("PATCH", `/fabric/v4/routeFilters/${pop.filter}`, [{ op: "replace", path: "/name", value: "bench-template-2" }]);
    await persisted("PATCH", `/fabric/v4/routeFilters/${pop.filter}`, [{ op: "replace", path: "/name", value: "bench-template-3" }]);
    let last = filesIn(dir);
    writeBase = [...last.values()].reduce((sum, f) => sum + f.size, 0);
    let written = 0;
    const creates = 200;
    const firstTag = 20 + Math.ceil(pop.connections / METROS.length);
    for (let i = 0; i < creates; i++) {
      await persisted("POST", "/fabric/v4/connections", connectionRequest(`disk-${i}`, i % METROS.length, firstTag + Math.floor(i / METROS.length)));
      const now = filesIn(dir);
      written += bytesWritten(last, now);
      last = now;
    }
    bytesPerRequest = written / creates;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  return [
    { name: `simulator: GETs per CPU second by uuid (${OBJECTS} objects)`, value: getRate, unit: "req/s", goal: ">= 5000" },
    { name: `simulator: searches per CPU second by name (${OBJECTS} objects)`, value: byName, unit: "req/s", goal: ">= 1000" },
    { name: `simulator: searches per CPU second by state, sorted (${OBJECTS} objects)`, value: byState, unit: "req/s", goal: ">= 1000" },
    { name: `simulator: searches per CPU second by state, sorted by name (${OBJECTS} objects)`, value: byStateByName, unit: "req/s" },
    { name: `simulator: connection creates per CPU second, ${OBJECTS} objects / ${SMALL}`, value: large.perSecond / small.perSecond, unit: "x", goal: ">= 0.8 (flat)" },
    { name: `simulator: connection creates per CPU second (${SMALL} / ${OBJECTS} objects)`, value: `${Math.round(small.perSecond)}/${Math.round(large.perSecond)}`, unit: "req/s" },
    { name: `simulator: embedded world bytes written per create / world size (${OBJECTS} objects)`, value: bytesPerRequest / writeBase, unit: "x", goal: "< 0.01" },
    { name: "simulator: embedded world bytes written per create (log; snapshot rewrites add as much again)", value: Math.round(bytesPerRequest), unit: "bytes" },
  ];
}
