// Cloud router packages (specification section 8; official: /fabric/v4/routerPackages): what each package
// allows. The specification names two packages, LAB and STANDARD, so those are the ones the service offers.
// Where it gives no figure (STANDARD's connection count, the number of STANDARD routers) there is no limit;
// STANDARD's bandwidth per connection is the official description's.

export const ROUTER_PACKAGE_CODES = ["LAB", "STANDARD"] as const;
export type RouterPackageCode = (typeof ROUTER_PACKAGE_CODES)[number];

export interface RouterPackage {
  description: string;
  totalIPv4RoutesMax: number;
  totalIPv6RoutesMax: number;
  /** Mbps per connection. */
  vcBandwidthMax: number;
  /** Connections per router. */
  vcCountMax?: number;
  /** Routers of this package per organisation. */
  crCountMax?: number;
}

export const ROUTER_PACKAGES: Readonly<Record<RouterPackageCode, RouterPackage>> = {
  LAB: { description: "Trial package for lab and proof-of-concept use", totalIPv4RoutesMax: 50, totalIPv6RoutesMax: 50, vcBandwidthMax: 10, vcCountMax: 10, crCountMax: 3 },
  STANDARD: { description: "Standard package for production routing", totalIPv4RoutesMax: 1000, totalIPv6RoutesMax: 100, vcBandwidthMax: 10_000 },
};

export const isRouterPackageCode = (code: unknown): code is RouterPackageCode => typeof code === "string" && (ROUTER_PACKAGE_CODES as readonly string[]).includes(code);

/** The package of a router as the API shows it, when it is one of the service's. */
export function packageOf(router: { package?: unknown }): RouterPackage | undefined {
  const code = router.package !== null && typeof router.package === "object" ? (router.package as { code?: unknown }).code : undefined;
  return isRouterPackageCode(code) ? ROUTER_PACKAGES[code] : undefined;
}
