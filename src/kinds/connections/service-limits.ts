// The limits only the service knows, checked at plan for each connection to be created: the bandwidth the
// plan's own connections take together on one port (each passes the service's dry run alone), the bandwidth
// maximum of its metro (`localVCBandwidthMax`) or of its metro pair (`remoteVCBandwidthMax`, section 2.4), and
// the package of a cloud router named by uuid (its connections and their bandwidth, section 8), counting the
// connections the router already has with those the plan adds. Routers declared beside the connection are
// checked offline by cross-rules.ts. The simulator refuses the same orders: checkBandwidth and
// checkRouterBandwidth in src/simulator/fabric/connection-rules.ts, with the maxima of
// src/simulator/core/metros-data.ts and the packages of src/simulator/fabric/cloud-router-packages.ts.

import { compareAddresses, placeDiagnostic, readPath, Reference, reveal, type ConfigResource, type Configuration, type FieldPath } from "../../config/index.js";
import type { Diagnostic } from "../../diag/index.js";
import { orGone } from "../common.js";
import type { Body, KindContext } from "../types.js";

const SIDES = ["aSide", "zSide"] as const;

const object = (v: unknown): Body => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Body) : {});
const known = (v: unknown): string | undefined => {
  const raw = reveal(v);
  return typeof raw === "string" ? raw : undefined;
};

/** Reads of the service made once per plan, however many connections name the same object. */
class Reads {
  private readonly cache = new Map<string, Promise<Body | undefined>>();
  constructor(private readonly ctx: KindContext) {}

  get(path: string): Promise<Body | undefined> {
    let read = this.cache.get(path);
    if (!read) {
      read = orGone(() => this.ctx.api.call<Body>("GET", path));
      this.cache.set(path, read);
    }
    return read;
  }
}

/** Where a side of a connection is, when the plan can know it: its written metro, or the metro of the port, router or device it starts at. */
async function sideMetro(reads: Reads, config: Configuration, side: Body): Promise<string | undefined> {
  const point = object(side.accessPoint);
  const written = known(readPath(point, "location.metroCode"));
  if (written) return written;
  const declared = (field: string, metroPath: string) => {
    const ref = readPath(point, field);
    return ref instanceof Reference ? { spec: config.resources.get(ref.address)?.spec, metroPath } : undefined;
  };
  for (const found of [declared("router.uuid", "location.metroCode"), declared("virtualDevice.uuid", "metroCode")]) {
    if (found) return known(readPath(found.spec ?? {}, found.metroPath));
  }
  const port = known(readPath(point, "port.uuid"));
  if (port) return known(readPath((await reads.get(`/fabric/v4/ports/${port}`)) ?? {}, "location.metroCode"));
  const router = known(readPath(point, "router.uuid"));
  if (router) return known(readPath((await reads.get(`/fabric/v4/routers/${router}`)) ?? {}, "location.metroCode"));
  const device = known(readPath(point, "virtualDevice.uuid"));
  if (device) return known((await reads.get(`/ne/v1/devices/${device}`))?.metroCode);
  return undefined;
}

/** The service's maximum for a connection between these metros, and what it is called, from the a-side metro's record. */
export function bandwidthMaximum(metro: Body, other: string): { max: number; scope: string } | undefined {
  const code = String(metro.code);
  if (code === other) {
    return typeof metro.localVCBandwidthMax === "number" ? { max: metro.localVCBandwidthMax, scope: `a local connection in ${code} (localVCBandwidthMax)` } : undefined;
  }
  const pair = (Array.isArray(metro.connectedMetros) ? (metro.connectedMetros as Body[]) : []).find((m) => m.code === other);
  return typeof pair?.remoteVCBandwidthMax === "number" ? { max: pair.remoteVCBandwidthMax, scope: `a connection between ${code} and ${other} (remoteVCBandwidthMax)` } : undefined;
}

async function metroBandwidth(reads: Reads, config: Configuration, connection: ConfigResource, bandwidth: number): Promise<Diagnostic | undefined> {
  const [a, z] = await Promise.all(SIDES.map((s) => sideMetro(reads, config, object(connection.spec[s]))));
  if (!a || !z) return undefined;
  const metro = await reads.get(`/fabric/v4/metros/${a}`);
  const limit = metro && bandwidthMaximum(metro, z);
  if (!limit || bandwidth <= limit.max) return undefined;
  return placeDiagnostic(
    { address: connection.address, positions: connection.positions },
    {
      path: ["bandwidth"],
      code: "plan.metro-bandwidth",
      message: `bandwidth ${bandwidth} Mbps is above the ${limit.max} Mbps the service allows for ${limit.scope}; the service refuses the order`,
      hint: `lower the bandwidth to at most ${limit.max} Mbps, or split the traffic over several connections`,
    },
  );
}

interface RouterUse {
  connection: ConfigResource;
  path: FieldPath;
  bandwidth: number | undefined;
}

/** A router named by uuid, with the connections the plan adds to it, checked against its package. */
async function routerPackage(reads: Reads, uuid: string, uses: readonly RouterUse[]): Promise<Diagnostic[]> {
  const router = await reads.get(`/fabric/v4/routers/${uuid}`);
  const code = known(readPath(router ?? {}, "package.code"));
  if (!router || !code) return [];
  const limits = await reads.get(`/fabric/v4/routerPackages/${code}`);
  if (!limits) return [];
  const existing = typeof router.connectionsCount === "number" ? router.connectionsCount : 0;
  const diagnostics: Diagnostic[] = [];
  uses.forEach((use, i) => {
    const at = (path: FieldPath, code: string, message: string, hint: string) =>
      diagnostics.push(placeDiagnostic({ address: use.connection.address, positions: use.connection.positions }, { path, code, message, hint }));
    const maxBandwidth = limits.vcBandwidthMax;
    if (typeof maxBandwidth === "number" && use.bandwidth !== undefined && use.bandwidth > maxBandwidth) {
      at(["bandwidth"], "plan.router-package", `cloud router ${uuid} has the ${code} package, which allows ${maxBandwidth} Mbps per connection; the service refuses ${use.bandwidth} Mbps`, `lower the bandwidth to at most ${maxBandwidth} Mbps, or move the router to a larger package`);
    }
    const maxCount = limits.vcCountMax;
    if (typeof maxCount === "number" && existing + i + 1 > maxCount) {
      at(use.path, "plan.router-package", `cloud router ${uuid} has ${existing} connections and the plan adds ${uses.length}; its ${code} package allows ${maxCount}`, "remove connections from the router, or move it to a larger package");
    }
  });
  return diagnostics;
}

/**
 * The bandwidth the plan's connections take together on each port they share, against what the port has left
 * (its capacity less what its live connections use): each fits alone, so each passes its dry run, and the one
 * that no longer fits is refused when its turn comes. The first connection, in file order, over the rest is
 * reported.
 */
async function portBandwidth(reads: Reads, creates: readonly ConfigResource[]): Promise<Diagnostic[]> {
  const byPort = new Map<string, Array<{ connection: ConfigResource; bandwidth: number }>>();
  for (const connection of inFileOrder(creates)) {
    const raw = reveal(connection.spec.bandwidth);
    if (typeof raw !== "number") continue;
    const ports = new Set(SIDES.map((side) => known(readPath(connection.spec, `${side}.accessPoint.port.uuid`))?.toLowerCase()).filter((p) => p !== undefined));
    for (const port of ports) {
      const uses = byPort.get(port);
      if (uses) uses.push({ connection, bandwidth: raw });
      else byPort.set(port, [{ connection, bandwidth: raw }]);
    }
  }
  const diagnostics: Diagnostic[] = [];
  await Promise.all(
    [...byPort].filter(([, uses]) => uses.length > 1).map(async ([uuid, uses]) => {
      const port = await reads.get(`/fabric/v4/ports/${uuid}`);
      const left = typeof port?.availableBandwidth === "number" ? port.availableBandwidth : typeof port?.bandwidth === "number" ? port.bandwidth - (typeof port.usedBandwidth === "number" ? port.usedBandwidth : 0) : undefined;
      if (left === undefined) return;
      let total = 0;
      for (const [at, use] of uses.entries()) {
        total += use.bandwidth;
        if (total <= left) continue;
        diagnostics.push(
          placeDiagnostic(
            { address: use.connection.address, positions: use.connection.positions },
            {
              path: ["bandwidth"],
              code: "plan.port-bandwidth",
              message: `port ${uuid} has ${left} Mbps left, and this plan's connections on it need ${total} Mbps (${namedUses(uses.slice(0, at))}this one ${use.bandwidth}); the service refuses the connection that no longer fits`,
              hint: "lower the bandwidths, or move a connection to another port",
            },
          ),
        );
        return;
      }
    }),
  );
  return diagnostics;
}

/** The connections before the one that no longer fits, each with its bandwidth: the first few, then how many more (a port may carry hundreds). */
function namedUses(before: ReadonlyArray<{ connection: ConfigResource; bandwidth: number }>): string {
  const SHOWN = 5;
  const named = before.slice(0, SHOWN).map((u) => `${u.connection.address} ${u.bandwidth}, `).join("");
  return before.length > SHOWN ? `${named}${before.length - SHOWN} more connections, ` : named;
}

const writtenAt = (c: ConfigResource) => [c.file, c.position.line] as const;

/** Resources in the order they are written, across files. */
const inFileOrder = (resources: readonly ConfigResource[]): ConfigResource[] => [...resources].sort((a, b) => compareAddresses(writtenAt(a)[0], writtenAt(b)[0]) || writtenAt(a)[1] - writtenAt(b)[1]);

/** Each connection the plan creates, against the limits the service reads: a few reads per plan, each object read once. */
export async function preflight(ctx: KindContext, creates: readonly ConfigResource[], config: Configuration): Promise<Diagnostic[]> {
  const reads = new Reads(ctx);
  const byRouter = new Map<string, RouterUse[]>();
  const checks: Array<Promise<Diagnostic | Diagnostic[] | undefined>> = [];
  for (const connection of creates) {
    const raw = reveal(connection.spec.bandwidth);
    const bandwidth = typeof raw === "number" ? raw : undefined;
    if (bandwidth !== undefined) checks.push(metroBandwidth(reads, config, connection, bandwidth));
    for (const side of SIDES) {
      const router = known(readPath(connection.spec, `${side}.accessPoint.router.uuid`));
      if (router) byRouter.set(router.toLowerCase(), [...(byRouter.get(router.toLowerCase()) ?? []), { connection, path: [side, "accessPoint", "router", "uuid"], bandwidth }]);
    }
  }
  // The connection over the limit is the one written last: the others fit.
  const written = (u: RouterUse) => writtenAt(u.connection);
  const byWriting = (a: RouterUse, b: RouterUse) => compareAddresses(written(a)[0], written(b)[0]) || written(a)[1] - written(b)[1];
  for (const [uuid, uses] of byRouter) checks.push(routerPackage(reads, uuid, uses.sort(byWriting)));
  checks.push(portBandwidth(reads, creates));
  const found = (await Promise.all(checks)).flatMap((d) => (d === undefined ? [] : Array.isArray(d) ? d : [d]));
  return found;
}
