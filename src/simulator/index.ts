// The embedded simulator: a faithful HTTP implementation of the whole service specification, used by
// the quick start, by every end-to-end test, and by users to rehearse changes. It imports nothing from
// the rest of netform, so it is an independent model of the service: the end-to-end tests catch
// mistakes in the API client and the resource kinds instead of sharing them. core/ holds what every
// area shares; fabric/, network-edge/ and other/ hold the areas, one file each, behind the Area contract.

export * from "./core/index.js";
