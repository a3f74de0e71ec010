// The HTTP client of the service: the only code in netform that speaks HTTP. Auth (OAuth2 client
// credentials or a ready bearer token), keep-alive, retries with backoff, pagination, and typed errors
// carrying the service's own body.

export * from "./client.js";
export * from "./errors.js";
export * from "./pages.js";
