import { describe, expect, it } from "vitest";
import { Sensitive } from "../../src/config/index.js";
import { files as definition } from "../../src/kinds/files.js";
import { useSimulator } from "../support/sim.js";
import { differences, methodFor, ready, useKindContext } from "./kind-harness.js";

const kind = definition.handler;
const t = useSimulator();
const kindCtx = useKindContext(t);

const spec = (fields: Record<string, unknown> = {}) => ({
  content: new Sensitive("#cloud-config\nhostname: edge\n"),
  fileName: "bootstrap.cfg",
  deviceTypeCode: "C8000V",
  metroCode: "DC",
  processType: "CLOUD_INIT",
  deviceManagementType: "SELF-CONFIGURED",
  ...fields,
});

describe("files kind", () => {
  it("reads an upload back through its own GET and compares what it answers", async () => {
    const ctx = kindCtx.ctx;
    const made = await kind.create(ctx, spec());
    const body = await ready(kind, ctx, { id: made.id }, "create");
    expect(body).toEqual({ uuid: made.id, fileUuid: made.id, fileName: "bootstrap.cfg", metroCode: "DC", deviceTypeCode: "C8000V", processType: "CLOUD_INIT", status: "UPLOADED" });
    expect(kind.stateOf(body)).toBe("UPLOADED");
    expect(differences(kind, spec(), body)).toEqual([]);
    // Each is a new upload.
    for (const [field, value] of [["metroCode", "SV"], ["fileName", "other.cfg"], ["processType", "LICENSE"], ["deviceTypeCode", "FG-VM"]] as const) {
      expect(differences(kind, spec({ [field]: value }), body)).toEqual([field]);
      expect(methodFor(kind, field)).toBeUndefined();
    }
    // The content is compared by keyed hash by the engine, never here.
    expect(JSON.stringify(kind.desired(spec()))).not.toContain("hostname");
  });

  it("finds an upload gone from the service gone, so that it is made again", async () => {
    expect(await kind.observe(kindCtx.ctx, { id: "0a0a0a0a-0000-4000-8000-000000000000" })).toBeUndefined();
  });

  it("is ready once stored, and failed when the service says the upload failed", () => {
    expect(kind.readiness({ status: "UPLOADED" }, "create")).toBe("ready");
    expect(kind.readiness({ uuid: "x" }, "create")).toBe("ready");
    expect(kind.readiness({ status: "FAILED" }, "create")).toEqual({ failed: "the service reports the upload FAILED" });
  });
});
