// Files uploaded to the network-edge service for a device that is about to be made (specification 4.11):
// a licence or a cloud-init file, for one device type in one metro. The configuration names a local file
// by its path relative to the configuration file (or gives the content itself, ${secret.NAME}); netform
// reads it when the configuration loads and compares it by keyed hash with what was last uploaded, so the
// content is never printed nor kept in the state. The specification has no read of an upload; the service
// has one, which the public client library equinix/ne-go and the Terraform provider use (GetFile): it
// answers the file's name, metro, device type, purpose and status, so those are compared with the service
// and an upload can be imported by its id. There is no update and no delete: any change is a new upload,
// which replaces the devices made from the old one (a device reads its files only when it is made), and an
// upload removed from the configuration is forgotten.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import type { MultipartField } from "../api/index.js";
import { lazily, metroCode, reveal, SecretPaths, Sensitive } from "../config/index.js";
import { NetformError } from "../diag/index.js";
import { orGone } from "./common.js";
import type { Body, KindDefinition, KindHandler } from "./types.js";

const BASE = "/ne/v1/files";
/** The service's request limit (4.11). */
const MAX_BYTES = 5 * 1024 * 1024;

const schema = lazily(() =>
  z.strictObject({
    path: z.string().min(1).optional().describe("the local file to upload, relative to this configuration file"),
    content: z.string().min(1).optional().describe("the file's content (sensitive), in place of path: ${secret.NAME}"),
    fileName: z.string().min(1).optional().describe("the name the service records; default: path's file name, or the resource name"),
    deviceTypeCode: z.string().min(1).describe("the device type the file is for, e.g. C8000V"),
    metroCode: metroCode(),
    processType: z.enum(["LICENSE", "CLOUD_INIT"]),
    deviceManagementType: z.enum(["SELF-CONFIGURED", "EQUINIX-CONFIGURED", "PROVIDER-CONFIGURED"]).optional(),
    licenseType: z.enum(["BYOL", "SUB"]).optional(),
  }),
);

/** Reads the file a spec names into its sensitive content; an unreadable or oversized file is reported at path. */
function readContent(file: string, path: string, report: (path: string, message: string, hint?: string) => void): Sensitive<string> | undefined {
  const absolute = resolve(dirname(file), path);
  try {
    const bytes = readFileSync(absolute);
    if (bytes.length === 0) report("path", `${path} is empty`, "the service refuses an empty file");
    else if (bytes.length > MAX_BYTES) report("path", `${path} is ${bytes.length} bytes, more than the 5 MB the service accepts`);
    else return new Sensitive(bytes.toString("utf8"));
  } catch (e) {
    report("path", `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, "path is relative to the configuration file that declares the upload");
  }
  return undefined;
}

/** What the read of an upload answers and the upload was made with (the shape of equinix/ne-go's recorded ne_file_get_resp.json). */
const COMPARED = ["fileName", "metroCode", "deviceTypeCode", "processType"] as const;

const comparable = (source: Body): Body => Object.fromEntries(COMPARED.map((f) => [f, source[f]]).filter(([, v]) => v !== undefined && v !== null));

/** Statuses that say an upload did not make it; any other is a stored upload (the POST answers once it is). */
const FAILED_UPLOAD = /FAIL|ERROR|REJECT|INVALID/;

const handler: KindHandler = {
  noun: "file",

  async observe(ctx, ref) {
    const body = await orGone(() => ctx.api.call<Body>("GET", `${BASE}/${encodeURIComponent(ref.id)}`));
    // The upload's answer names it fileUuid, the read uuid: both are kept, so ${files.NAME.fileUuid} reads alike.
    return body && { ...body, fileUuid: body.fileUuid ?? body.uuid ?? ref.id };
  },

  // The content is compared by keyed hash only; the rest as the service answers it.
  desired: comparable,
  observed: comparable,
  updatable: {},

  async create(ctx, spec) {
    const form: MultipartField[] = [{ name: "file", content: String(reveal(spec.content)), fileName: typeof spec.fileName === "string" ? spec.fileName : "upload" }];
    for (const field of ["deviceTypeCode", "metroCode", "processType", "deviceManagementType", "licenseType"]) {
      if (typeof spec[field] === "string") form.push({ name: field, value: spec[field] });
    }
    const response = await ctx.api.call<Body>("POST", BASE, { form });
    if (typeof response.fileUuid !== "string") throw new NetformError({ code: "api.unexpected_body", source: "internal", message: "file upload: the service's answer has no fileUuid" });
    return { id: response.fileUuid, body: response };
  },

  update() {
    return Promise.reject(new NetformError({ code: "internal.not_updatable", source: "internal", message: "an uploaded file cannot change in place" }));
  },

  delete: () => Promise.resolve(),
  keptByService: "the service has no delete for uploaded files: netform forgets the upload, and the service keeps it",

  readiness: (body) => (typeof body.status === "string" && FAILED_UPLOAD.test(body.status.toUpperCase()) ? { failed: `the service reports the upload ${body.status}` } : "ready"),
  stateOf: (body) => (typeof body.status === "string" ? body.status : undefined),

  // The service lists no uploads: an upload whose outcome is unknown is made again.
  lookup: () => Promise.resolve(undefined),
  madeAgainIfAnswerLost: "the service cannot list uploads: if this run stops before the service's answer arrives, the next run uploads the file again and the first copy stays unused",

  eventSubject: (ref) => `${BASE}/${ref.id}`,
};

export const files: KindDefinition<"files"> = {
  name: "files",
  description: "licence and cloud-init files uploaded for devices, by name",
  get spec() {
    return schema();
  },
  defaults: (d) => {
    const path = d.spec.path;
    if (typeof path === "string" && d.spec.content !== undefined) {
      d.report("content", "give either path or content, not both");
      return;
    }
    if (typeof path === "string") {
      const content = readContent(d.file, path, d.report);
      if (content) d.set("content", content);
      d.set("fileName", path.split(/[\\/]/).pop());
    } else if (d.spec.content === undefined) {
      d.report("path", "an upload needs path (a local file) or content");
    }
    d.set("fileName", d.name);
  },
  sensitive: new SecretPaths(["content"]),
  // The read does not answer the management type and licence mode an upload was made for, nor where the
  // local file was: only what was sent says them, and only a new upload changes them.
  writeOnly: ["path", "deviceManagementType", "licenseType"],
  attributes: ["fileUuid", "uuid", "fileName", "deviceTypeCode", "metroCode", "processType", "status"],
  serverSet: ["fileUuid", "uuid", "status"],
  parents: {},
  timeoutMs: 5 * 60_000,
  networkEdge: true,
  // An upload is stored, not provisioned.
  typicalSeconds: { create: 2, update: 2, delete: 2 },
  handler,
};
