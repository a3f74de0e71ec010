// Downloadable device images (sections 2.9, 4.9). Only the C8000V type has images to download; each
// download request hands out a fresh link to the image of the version asked for.

import type { Context } from "hono";
import { fail } from "../core/errors.js";
import type { Area, SimApp, SimEnv } from "../core/context.js";
import { rejectUnknownQuery } from "../core/http.js";
import { DEVICE_TYPE_BY_CODE } from "./services-shared.js";
import { seededUuid } from "../core/seed.js";
import type { World } from "../core/world.js";

/** The only device type with downloadable images (section 4.9). */
const DOWNLOADABLE_TYPE = "C8000V";

interface DownloadableImage {
  uuid: string;
  deviceType: string;
  imageName: string;
  version: string;
}

/** Every version of the type's packages in the device-type catalogue, each with its image. */
function downloadableImages(): DownloadableImage[] {
  const packages = DEVICE_TYPE_BY_CODE.get(DOWNLOADABLE_TYPE)?.packages ?? [];
  const versions = [...new Set(packages.flatMap((p) => p.versions.map((v) => v.version)))].sort();
  return versions.map((version, i) => ({
    uuid: seededUuid("4cfb5675", i + 1),
    deviceType: DOWNLOADABLE_TYPE,
    // The vendor's image naming: product, version and a build number.
    imageName: `CiscoSyst-C8000VCon-${version}-${3000 + 90 * i}`,
    version,
  }));
}

const C8000V_IMAGES = downloadableImages();

function requireDownloadableType(c: Context<SimEnv>): void {
  const deviceType = c.req.param("deviceType");
  if (deviceType !== DOWNLOADABLE_TYPE) {
    fail("notInAllowedList", "deviceType", `images can be downloaded only for device type ${DOWNLOADABLE_TYPE}, not ${String(deviceType)}`, deviceType);
  }
}

function listImages(c: Context<SimEnv>): Response {
  rejectUnknownQuery(c, []);
  requireDownloadableType(c);
  return c.json(C8000V_IMAGES);
}

function downloadImage(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, []);
  requireDownloadableType(c);
  const version = c.req.param("version");
  const image = C8000V_IMAGES.find((i) => i.version === version);
  // A version is a choice from the image list, refused like the device type (the operation documents 400, not 404).
  if (!image) {
    return fail("notInAllowedList", "version", `no ${DOWNLOADABLE_TYPE} image of version ${String(version)}; available: ${C8000V_IMAGES.map((i) => i.version).join(", ")}`, version);
  }
  // Every request gets its own share token, as the service issues a fresh link each time.
  return c.json({ downloadLink: `https://images.simulator.invalid/owncloud/index.php/s/${world.uuid()}/download?file=${image.imageName}.qcow2` }, 202);
}

export const imagesArea: Area = {
  name: "ne-images",
  routes(app: SimApp, world) {
    app.get("/ne/v1/devices/:deviceType/repositories", (c) => listImages(c));
    app.post("/ne/v1/devices/:deviceType/repositories/:version/download", (c) => downloadImage(c, world));
  },
};
