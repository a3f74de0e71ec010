// The types of the undici modules the HTTP client loads directly (client.ts says why): the package
// describes only its main entry, which exports the same classes and functions.

declare module "undici/lib/dispatcher/agent.js" {
  import { Agent } from "undici";
  export default Agent;
}

declare module "undici/lib/api/api-request.js" {
  import type { Dispatcher } from "undici";
  /** `Dispatcher.prototype.request`, called with the dispatcher as `this`. */
  export default function request(this: Dispatcher, opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

declare module "undici/lib/web/fetch/formdata.js" {
  export { FormData } from "undici";
}
