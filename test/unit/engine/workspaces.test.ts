// Workspaces, as rules: which one a command works in (--workspace, then NETFORM_WORKSPACE, then the
// selection remembered beside the configuration, then default), which names are workspaces, and where each
// backend keeps a workspace's state (a folder beside the default state, a state name, an address template).

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openBackend, otherWorkspaces, removeWorkspaceFolder, workspaceSettings } from "../../../src/backends/index.js";
import { backendSettings } from "../../../src/engine/state-access.js";
import { checkedWorkspaceName, rememberSelection, selectedWorkspace, selectionFile } from "../../../src/engine/workspaces.js";

const folder = () => mkdtempSync(join(tmpdir(), "netform-workspaces-"));

describe("the selected workspace", () => {
  it("is --workspace, then NETFORM_WORKSPACE, then the remembered selection, then default", () => {
    const dir = folder();
    expect(selectedWorkspace(dir, undefined, {})).toMatchObject({ name: "default", source: "default" });
    rememberSelection(dir, "staging");
    expect(selectedWorkspace(dir, undefined, {})).toMatchObject({ name: "staging", source: "file", file: join(dir, ".netform", "workspace") });
    expect(selectedWorkspace(dir, undefined, { NETFORM_WORKSPACE: "prod" })).toMatchObject({ name: "prod", source: "environment" });
    expect(selectedWorkspace(dir, "dev", { NETFORM_WORKSPACE: "prod" })).toMatchObject({ name: "dev", source: "flag" });
    // Set but empty, as a pipeline's unset variable often is: not a selection.
    expect(selectedWorkspace(dir, undefined, { NETFORM_WORKSPACE: "" })).toMatchObject({ name: "staging", source: "file" });
  });

  it("is remembered beside the configuration, whether -c names its folder or one of its files", () => {
    const dir = folder();
    writeFileSync(join(dir, "netform.yaml"), "netform: 1\n");
    expect(selectionFile(join(dir, "netform.yaml"))).toBe(join(dir, ".netform", "workspace"));
    expect(selectionFile(dir)).toBe(join(dir, ".netform", "workspace"));
    rememberSelection(join(dir, "netform.yaml"), "dev");
    expect(selectedWorkspace(dir, undefined, {}).name).toBe("dev");
  });

  it("refuses a name that is no workspace's, saying where it was given", () => {
    const dir = folder();
    expect(() => selectedWorkspace(dir, "Prod", {})).toThrow('--workspace: "Prod" is not a workspace name');
    expect(() => selectedWorkspace(dir, undefined, { NETFORM_WORKSPACE: "../prod" })).toThrow('NETFORM_WORKSPACE: "../prod" is not a workspace name');
    mkdirSync(join(dir, ".netform"));
    writeFileSync(join(dir, ".netform", "workspace"), "eu staging\n");
    expect(() => selectedWorkspace(dir, undefined, {})).toThrow(`${join(dir, ".netform", "workspace")}: "eu staging" is not a workspace name`);
  });

  it.each([
    ["prod", true],
    ["eu-staging_2", true],
    ["0", true],
    ["a".repeat(63), true],
    ["a".repeat(64), false],
    ["", false],
    ["-dev", false],
    ["Dev", false],
    ["dev/1", false],
    ["dev.1", false],
    ["{workspace}", false],
  ])("%j is a workspace name: %s", (name, ok) => {
    if (ok) expect(checkedWorkspaceName(name, "here")).toBe(name);
    else expect(() => checkedWorkspaceName(name, "here")).toThrow("is not a workspace name");
  });
});

describe("a workspace's state", () => {
  const dev = { name: "dev", isDefault: false };
  const byDefault = { name: "default", isDefault: true };

  it("locally: the default workspace's file as before, another's under netform.state.d/NAME/ beside it", () => {
    expect(workspaceSettings({ type: "local", path: "/cfg/netform.state.json" }, byDefault)).toEqual({ type: "local", path: "/cfg/netform.state.json" });
    expect(workspaceSettings({ type: "local", path: "/cfg/netform.state.json" }, dev)).toEqual({ type: "local", path: "/cfg/netform.state.d/dev/netform.state.json" });
    expect(workspaceSettings({ type: "local", path: "/cfg/states/app.json" }, dev)).toEqual({ type: "local", path: "/cfg/states/netform.state.d/dev/app.json" });
  });

  it("in PostgreSQL: the state name as before, another workspace's NAME/WORKSPACE", () => {
    const pg = { type: "postgres" as const, url: "postgres://db/x", schema: "netform", name: "app" };
    expect(workspaceSettings(pg, byDefault)).toEqual(pg);
    expect(workspaceSettings(pg, dev)).toEqual({ ...pg, name: "app/dev" });
  });

  it("over HTTP: {workspace} in every address replaced, the default workspace's too, wherever the address comes from", async () => {
    const http = { type: "http" as const, address: "https://s.example/st/{workspace}", lockAddress: "https://s.example/st/{workspace}/lock", unlockAddress: "https://s.example/st/{workspace}/lock" };
    const location = async (settings: Parameters<typeof openBackend>[0], env: NodeJS.ProcessEnv = {}) => {
      const backend = openBackend(settings, env);
      await backend.close();
      return backend.location;
    };
    expect(workspaceSettings(http, dev)).toEqual({ ...http, workspace: { name: "dev", isDefault: false } });
    expect(await location(workspaceSettings(http, dev))).toBe("https://s.example/st/dev");
    expect(await location(workspaceSettings(http, byDefault))).toBe("https://s.example/st/default");
    expect(await location(workspaceSettings({ type: "http", address: "https://s.example/st/prod" }, byDefault))).toBe("https://s.example/st/prod");
    expect(await location(workspaceSettings({ type: "http" }, dev), { NETFORM_HTTP_ADDRESS: "https://s.example/env/{workspace}" })).toBe("https://s.example/env/dev");
  });

  it("over HTTP without {workspace}: only the default workspace, and no lock address keyed apart from its state", () => {
    const open = (settings: Parameters<typeof openBackend>[0]) => () => openBackend(settings, {});
    expect(open(workspaceSettings({ type: "http", address: "https://s.example/st/prod" }, dev))).toThrow("has no {workspace}: it keeps one state, the default workspace's, and workspace dev is selected");
    expect(open(workspaceSettings({ type: "http", address: "https://s.example/st/{workspace}", lockAddress: "https://s.example/lock" }, dev))).toThrow("backend.http.lockAddress https://s.example/lock has no {workspace}");
    expect(open(workspaceSettings({ type: "http", address: "https://s.example/st", unlockAddress: "https://s.example/{workspace}/lock" }, byDefault))).toThrow("backend.http.unlockAddress has {workspace}, and the address has not");
  });

  it("--state names the default workspace's file alone", () => {
    const config = { directory: "/cfg" };
    const file = { name: "default", source: "default" as const, file: "" };
    expect(backendSettings(config, "/elsewhere/s.json", file)).toEqual({ type: "local", path: "/elsewhere/s.json" });
    expect(() => backendSettings(config, "/elsewhere/s.json", { name: "dev", source: "environment", file: "" })).toThrow("--state names one state file, and workspace dev (selected by NETFORM_WORKSPACE) keeps its own");
  });

  it("lists the local workspaces whose folder holds a state of the default state's name, and removes an emptied folder", async () => {
    const dir = folder();
    const state = join(dir, "netform.state.json");
    const listed = (path: string) => otherWorkspaces({ type: "local", path }, {});
    expect(await listed(state)).toEqual([]);
    for (const [name, file] of [["prod", "netform.state.json"], ["dev", "netform.state.json"], ["other", "app.json"]] as const) {
      mkdirSync(join(dir, "netform.state.d", name), { recursive: true });
      writeFileSync(join(dir, "netform.state.d", name, file), "{}");
    }
    expect(await listed(state)).toEqual(["dev", "prod"]);
    expect(await listed(join(dir, "app.json"))).toEqual(["other"]);
    // A folder that still holds something stays.
    removeWorkspaceFolder(state, "dev");
    expect(await listed(state)).toEqual(["dev", "prod"]);
    rmSync(join(dir, "netform.state.d", "dev", "netform.state.json"));
    removeWorkspaceFolder(state, "dev");
    expect(existsSync(join(dir, "netform.state.d", "dev"))).toBe(false);
    expect(existsSync(join(dir, "netform.state.d"))).toBe(true);
  });
});
