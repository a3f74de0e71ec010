import { describe, expect, it } from "vitest";
import { useSimulator } from "../support/sim.js";

const t = useSimulator();

describe("GET /ne/v1/devices/{deviceType}/repositories", () => {
  it("lists the C8000V images", async () => {
    const res = await t.call("GET", "/ne/v1/devices/C8000V/repositories");
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(3);
    expect(res.body).toContainEqual({ uuid: expect.any(String), deviceType: "C8000V", imageName: expect.stringMatching(/^CiscoSyst-C8000VCon-17\.11\.01a-\d+$/), version: "17.11.01a" });
    expect(new Set(res.body.map((i: { uuid: string }) => i.uuid)).size).toBe(res.body.length);
  });

  it("refuses other device types and unknown parameters", async () => {
    for (const type of ["CSR1000V", "PA-VM", "nope"]) {
      const res = await t.call("GET", `/ne/v1/devices/${type}/repositories`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errorCode: "EQ-2012025", property: "deviceType", status: "400" });
    }
    expect((await t.call("GET", "/ne/v1/devices/C8000V/repositories?version=1")).body).toMatchObject({ errorCode: "EQ-2014010", property: "version" });
  });

  it("needs a token", async () => {
    expect((await t.call("GET", "/ne/v1/devices/C8000V/repositories", { client: "none" })).status).toBe(401);
  });
});

describe("POST /ne/v1/devices/{deviceType}/repositories/{version}/download", () => {
  it("returns a fresh download link for a known version", async () => {
    const res = await t.call("POST", "/ne/v1/devices/C8000V/repositories/17.11.01a/download");
    expect(res.status).toBe(202);
    expect(res.body.downloadLink).toMatch(/^https:\/\/.+CiscoSyst-C8000VCon-17\.11\.01a-\d+/);
    const again = await t.call("POST", "/ne/v1/devices/C8000V/repositories/17.11.01a/download");
    expect(again.body.downloadLink).not.toBe(res.body.downloadLink);
  });

  it("answers 400 for an unknown version and for another device type", async () => {
    const unknown = await t.call("POST", "/ne/v1/devices/C8000V/repositories/99.1/download");
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ errorCode: "EQ-2012025", property: "version", status: "400" });
    const other = await t.call("POST", "/ne/v1/devices/CSR1000V/repositories/17.11.01a/download");
    expect(other.status).toBe(400);
    expect(other.body.property).toBe("deviceType");
  });
});
