import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

// The layers of DESIGN.md: each folder of src/ may import only the folders listed for it, so an arrow
// pointing the wrong way fails lint. The simulator imports nothing else: it is an independent model of
// the service.
const LAYERS = {
  diag: [],
  graph: [],
  state: ["diag"],
  config: ["diag", "graph"],
  api: ["diag"],
  backends: ["state", "diag"],
  kinds: ["config", "api", "diag"],
  lookups: ["config", "api", "diag"],
  plan: ["config", "kinds", "graph", "state", "diag"],
  engine: ["plan", "kinds", "lookups", "config", "api", "state", "backends", "graph", "diag"],
  views: ["engine", "plan", "kinds", "config", "graph", "state", "diag"],
  cli: ["engine", "views", "diag", "simulator"],
  simulator: [],
};

const layerRules = Object.entries(LAYERS).map(([folder, allowed]) => {
  const forbidden = Object.keys(LAYERS).filter((f) => f !== folder && !allowed.includes(f));
  return {
    files: [`src/${folder}/**/*.ts`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${forbidden.join("|")})/`,
              message: `src/${folder} may import only ${allowed.length ? allowed.map((a) => `src/${a}`).join(", ") : "itself"} (the layers of DESIGN.md)`,
            },
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "**/*.d.ts"] },
  js.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
    },
  },
  ...layerRules,
  {
    // Only the views and the benchmarks may print.
    files: ["src/views/**", "bench/**", "test/**"],
    rules: { "no-console": "off" },
  },
);
