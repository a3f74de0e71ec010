// The parts of undici the HTTP client uses, in one module (client.ts says why not its main entry). One
// module, so that the bundled command line can load them as one file, only in the runs that call the
// service (scripts/bundle.mjs).

export { default as Agent } from "undici/lib/dispatcher/agent.js";
export { default as request } from "undici/lib/api/api-request.js";

/** undici sends a multipart body only from its own FormData class; it loads much of undici's fetch, so only when a body needs it. */
export async function loadFormData(): Promise<typeof import("undici").FormData> {
  return (await import("undici/lib/web/fetch/formdata.js")).FormData;
}
