// File upload (section 4.11): a license or cloud-init file for a device that is about to be created.
// Only what device creation needs is kept: the file's purpose, device type and metro in the body, its
// name and size in the private meta; the content itself is not stored. The 5 MB request limit is the
// server's, for every call. The specification has no read of an upload; the service has one, which the
// public client library equinix/ne-go and the Terraform provider use (GetFile): it answers what the upload
// was made for and its status, in the shape of equinix/ne-go's recorded answer ne_file_get_resp.json.

import type { Context } from "hono";
import { SimError, fail } from "../core/errors.js";
import { findVisible, requestHeader, type Area, type SimApp, type SimEnv } from "../core/context.js";
import { rejectUnknownQuery } from "../core/http.js";
import { METRO_BY_CODE } from "../core/metros-data.js";
import { DEVICE_MANAGEMENT_TYPES, DEVICE_TYPE_BY_CODE, LICENSE_TYPES, licenseModeSpelling, managementSpelling, oneOf } from "./services-shared.js";
import type { World } from "../core/world.js";

const KIND = "files";
const PROCESS_TYPES = ["LICENSE", "CLOUD_INIT"] as const;

type FormValue = string | File | (string | File)[];
type Form = Record<string, FormValue>;

async function readMultipart(c: Context<SimEnv>): Promise<Form> {
  const type = requestHeader(c, "content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new SimError("unsupportedMediaType", [{ property: "Content-Type", reason: `expected multipart/form-data, got ${type || "nothing"}` }]);
  }
  try {
    return (await c.req.parseBody({ all: true })) as Form;
  } catch (e) {
    return fail("invalidProperty", "body", `the multipart body could not be read: ${(e as Error).message}`);
  }
}

function textField(form: Form, name: string, required: true): string;
function textField(form: Form, name: string, required: false): string | undefined;
function textField(form: Form, name: string, required: boolean): string | undefined {
  const value = form[name];
  if (value === undefined || value === "") return required ? fail("missingProperty", name, `${name} is required`) : undefined;
  if (typeof value !== "string") return fail("invalidProperty", name, `${name} must be a single text field`);
  return value;
}

function fileField(form: Form): File {
  const value = form.file;
  if (value === undefined) return fail("missingProperty", "file", "file is required");
  if (!(value instanceof File)) return fail("invalidProperty", "file", "file must be a single file part (with a filename)");
  if (value.size === 0) return fail("invalidProperty", "file", `file ${value.name} is empty`);
  return value;
}

function metroCodeField(form: Form): string {
  const metroCode = textField(form, "metroCode", true);
  if (!/^[A-Z]{2}$/.test(metroCode)) fail("invalidProperty", "metroCode", "metroCode must be a two-letter metro code, e.g. SV", metroCode);
  if (!METRO_BY_CODE.has(metroCode)) fail("notInAllowedList", "metroCode", `metro ${metroCode} is not a known metro`, metroCode);
  return metroCode;
}

async function uploadFile(c: Context<SimEnv>, world: World): Promise<Response> {
  rejectUnknownQuery(c, []);
  const form = await readMultipart(c);
  const file = fileField(form);
  const deviceTypeCode = oneOf(textField(form, "deviceTypeCode", true), [...DEVICE_TYPE_BY_CODE.keys()], "deviceTypeCode");
  const metroCode = metroCodeField(form);
  const processType = oneOf(textField(form, "processType", true), PROCESS_TYPES, "processType");
  const rawManagementType = textField(form, "deviceManagementType", false);
  const managementType = rawManagementType === undefined ? undefined : oneOf(managementSpelling(rawManagementType), DEVICE_MANAGEMENT_TYPES, "deviceManagementType");
  const rawLicenseType = textField(form, "licenseType", false);
  const licenseType = rawLicenseType === undefined ? undefined : oneOf(licenseModeSpelling(rawLicenseType), LICENSE_TYPES, "licenseType");
  const principal = c.get("principal");
  const projectId = principal.projectIds[0]!;
  const uuid = world.uuid();
  world.create(
    KIND,
    {
      uuid,
      fileUuid: uuid,
      deviceTypeCode,
      metroCode,
      processType,
      ...(managementType === undefined ? {} : { deviceManagementType: managementType }),
      ...(licenseType === undefined ? {} : { licenseType }),
      uploadedBy: principal.userName,
      uploadedDate: world.nowIso(),
    },
    { uuid, projectId, meta: { fileName: file.name, size: file.size } },
  );
  return c.json({ fileUuid: uuid });
}

function getFile(c: Context<SimEnv>, world: World): Response {
  rejectUnknownQuery(c, []);
  const file = findVisible(world, c.get("principal"), KIND, c.req.param("uuid")!);
  const { uuid, metroCode, deviceTypeCode, processType } = world.view(file);
  // An upload is stored once it is accepted: nothing is left to happen to it.
  return c.json({ uuid, fileName: file.meta.fileName ?? null, metroCode, deviceTypeCode, processType, status: "UPLOADED" });
}

export const filesArea: Area = {
  name: "ne-files",
  define(world) {
    world.defineKind(KIND, { eventType: "equinix.network_edge.file", subject: (o) => `/ne/v1/files/${o.uuid}` });
  },
  routes(app: SimApp, world) {
    app.post("/ne/v1/files", (c) => uploadFile(c, world));
    app.get("/ne/v1/files/:uuid", (c) => getFile(c, world));
  },
};
