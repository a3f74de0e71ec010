import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

function form(fields: Record<string, string | undefined>, file: Blob | string | null = new Blob(["license-key: ABCD-1234\n"]), fileName = "license.lic"): FormData {
  const data = new FormData();
  if (file instanceof Blob) data.append("file", file, fileName);
  else if (file !== null) data.append("file", file);
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) data.append(k, v);
  return data;
}

const VALID = { deviceTypeCode: "C8000V", metroCode: "SV", processType: "LICENSE" };

async function upload(data: FormData) {
  return t.call("POST", "/ne/v1/files", { raw: data });
}

describe("POST /ne/v1/files", () => {
  it("stores an uploaded license file and returns its fileUuid", async () => {
    const res = await upload(form({ ...VALID, deviceManagementType: "SELF-CONFIGURED", licenseType: "BYOL" }));
    expect(res.status).toBe(200);
    expect(res.body.fileUuid).toMatch(/^[0-9a-f-]{36}$/);
    const stored = t.sim.world.get(res.body.fileUuid, "files")!;
    expect(stored.body).toMatchObject({ deviceTypeCode: "C8000V", metroCode: "SV", processType: "LICENSE", deviceManagementType: "SELF-CONFIGURED", licenseType: "BYOL" });
    expect(stored.meta).toEqual({ fileName: "license.lic", size: 23 });
    const listed = (await t.call("GET", "/__sim/objects?kind=files")).body.data;
    expect(listed.map((f: { uuid: string }) => f.uuid)).toContain(res.body.fileUuid);
  });

  it("accepts cloud-init files", async () => {
    const res = await upload(form({ ...VALID, deviceTypeCode: "FG-VM", processType: "CLOUD_INIT" }, new Blob(["#cloud-config\n"]), "bootstrap.txt"));
    expect(res.status).toBe(200);
  });

  it("names each missing required field", async () => {
    for (const field of ["deviceTypeCode", "metroCode", "processType"]) {
      const res = await upload(form({ ...VALID, [field]: undefined }));
      expect(res.body, field).toMatchObject({ errorCode: "EQ-2012011", property: field, status: "400" });
    }
    expect((await upload(form(VALID, null))).body).toMatchObject({ errorCode: "EQ-2012011", property: "file" });
  });

  it("refuses invalid values", async () => {
    expect((await upload(form({ ...VALID, metroCode: "SV5" }))).body).toMatchObject({ errorCode: "EQ-2010010", property: "metroCode" });
    expect((await upload(form({ ...VALID, metroCode: "sv" }))).body).toMatchObject({ errorCode: "EQ-2010010", property: "metroCode" });
    expect((await upload(form({ ...VALID, metroCode: "QQ" }))).body).toMatchObject({ errorCode: "EQ-2012025", property: "metroCode" });
    expect((await upload(form({ ...VALID, deviceTypeCode: "TOASTER" }))).body).toMatchObject({ errorCode: "EQ-2012025", property: "deviceTypeCode" });
    expect((await upload(form({ ...VALID, processType: "FIRMWARE" }))).body).toMatchObject({ errorCode: "EQ-2012025", property: "processType" });
    expect((await upload(form({ ...VALID, deviceManagementType: "FULLY-MANAGED" }))).body).toMatchObject({ errorCode: "EQ-2012025", property: "deviceManagementType" });
    expect((await upload(form({ ...VALID, licenseType: "FREE" }))).body).toMatchObject({ errorCode: "EQ-2012025", property: "licenseType" });
    expect((await upload(form(VALID, "just text, not a file"))).body).toMatchObject({ errorCode: "EQ-2010010", property: "file" });
    expect((await upload(form(VALID, new Blob([])))).body).toMatchObject({ errorCode: "EQ-2010010", property: "file" });
  });

  it("answers a wrong content type with 415 and a malformed multipart body with 400", async () => {
    const json = await t.call("POST", "/ne/v1/files", { body: VALID });
    expect(json.status).toBe(415);
    expect(json.body).toMatchObject({ property: "Content-Type", status: "415" });
    const broken = await t.call("POST", "/ne/v1/files", { raw: "--nope\r\ngarbage", contentType: "multipart/form-data; boundary=xyz" });
    expect(broken.status).toBe(400);
    expect(broken.body.property).toBe("body");
  });

  it("refuses a file over 5 MB and keeps serving", async () => {
    const res = await upload(form(VALID, new Blob([new Uint8Array(5 * 1024 * 1024 + 10)])));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: "EQ-2012012", property: "body" });
    expect((await upload(form(VALID))).status).toBe(200);
  });

  it("needs a token", async () => {
    expect((await t.call("POST", "/ne/v1/files", { raw: form(VALID), client: "none" })).status).toBe(401);
  });
});

describe("GET /ne/v1/files/{uuid}", () => {
  it("answers what the upload was made for, its name and its status, in the recorded shape", async () => {
    const res = await upload(form({ ...VALID, processType: "CLOUD_INIT", deviceManagementType: "SELF-CONFIGURED" }, new Blob(["#cloud-config\n"]), "bootstrap.txt"));
    const read = await t.call("GET", `/ne/v1/files/${res.body.fileUuid}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ uuid: res.body.fileUuid, fileName: "bootstrap.txt", metroCode: "SV", deviceTypeCode: "C8000V", processType: "CLOUD_INIT", status: "UPLOADED" });
  });

  it("answers 404 for an upload that does not exist or that the caller cannot see", async () => {
    const res = await upload(form(VALID));
    expect((await t.call("GET", `/ne/v1/files/${res.body.fileUuid}`, { client: "limited" })).body).toMatchObject({ errorCode: "EQ-3073004", status: "404" });
    expect((await t.call("GET", "/ne/v1/files/0a0a0a0a-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await t.call("GET", `/ne/v1/files/${res.body.fileUuid}?verbose=true`)).body).toMatchObject({ errorCode: "EQ-2014010", property: "verbose" });
  });
});
