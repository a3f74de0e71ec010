// The Fabric API (/fabric/v4): connections, routing protocols, route filters and their attachments,
// cloud routers, networks, service tokens, ports, metros, prices and cloud events. Each file is one area of routes; the *-rules files hold the
// checks a request must pass, apart from the routes that serve it.

export { routeFiltersArea } from "./route-filters.js";
export { routeAggregationsArea } from "./route-aggregations.js";
export { connectionsArea } from "./connections.js";
export { routingProtocolsArea } from "./routing-protocols.js";
export { metrosArea } from "./metros.js";
export { pricesArea } from "./prices.js";
export { portsArea } from "./ports.js";
export { cloudEventsArea } from "./cloud-events.js";
export { cloudRoutersArea, networksArea, serviceTokensArea } from "./fabric-endpoints.js";
