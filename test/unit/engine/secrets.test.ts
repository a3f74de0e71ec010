import { KIND_CATALOG } from "../../../src/kinds/index.js";
import { describe, expect, it } from "vitest";
import { buildConfiguration, SecretPaths } from "../../../src/config/index.js";
import { redactor, scrubbed, secretValues } from "../../../src/engine/secrets.js";

describe("secret values", () => {
  it("are found in a configuration's specs and masked in any text", () => {
    const { config } = buildConfiguration(
      [
        {
          file: "netform.yaml",
          text: `netform: 1
provider: { endpoint: embedded, projectId: 5c1a4b6e-6b55-4c34-8a4f-2a9f1d0c7e01 }
routeFilters:
  f:
    type: BGP_IPv4_PREFIX_FILTER
    description: \${secret.NOTE}
`,
        },
      ],
      { kinds: KIND_CATALOG, env: { NOTE: "s3cr3t-words" } },
    );
    expect(secretValues(config)).toEqual(["s3cr3t-words"]);
    const redact = redactor(secretValues(config));
    expect(redact("the service refused description 's3cr3t-words' (too long)")).toBe("the service refused description '(sensitive)' (too long)");
    expect(redact("nothing secret here")).toBe("nothing secret here");
  });

  it("are replaced in stored bodies by path, lists included", () => {
    const body = { bgpAuthKey: "k", sshUsers: [{ sshUsername: "a", sshPassword: "p" }], name: "n" };
    expect(scrubbed(body, new SecretPaths(["bgpAuthKey", "sshUsers[].sshPassword"]))).toEqual({ bgpAuthKey: "(sensitive)", sshUsers: "(sensitive)", name: "n" });
  });
});
