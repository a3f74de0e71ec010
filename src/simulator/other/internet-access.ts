// Signature policies of the internet access service (sections 2.2 and 4.1): per country, which
// signature kinds an order needs and whether it may proceed without a signature (click-through).
// The policies are a fixed catalogue, so they live here rather than in the world: nothing changes them.

import type { Area, SimApp } from "../core/context.js";
import { fail } from "../core/errors.js";
import { pageLink, paginate, queryPage, rejectUnknownQuery } from "../core/http.js";
import type { JsonObject } from "../core/world.js";

type SignatureType = "DIGITAL" | "WET";

interface SignaturePolicy {
  countryCode: string;
  types: readonly SignatureType[];
  clickThroughAllowed: boolean;
}

const policy = (countryCode: string, types: readonly SignatureType[], clickThroughAllowed: boolean): SignaturePolicy => ({
  countryCode,
  types,
  clickThroughAllowed,
});

const DIGITAL_ONLY = ["DIGITAL"] as const;
const WET_ONLY = ["WET"] as const;
const EITHER = ["DIGITAL", "WET"] as const;

/**
 * Countries where the service sells internet access. Markets with e-signature laws accept a digital
 * signature and often a click-through; a few require a handwritten (wet) signature on the order form.
 */
export const SIGNATURE_POLICIES: readonly SignaturePolicy[] = [
  policy("AE", EITHER, false), policy("AR", WET_ONLY, false), policy("AT", DIGITAL_ONLY, true),
  policy("AU", DIGITAL_ONLY, true), policy("BE", DIGITAL_ONLY, true), policy("BG", EITHER, false),
  policy("BR", EITHER, false), policy("CA", DIGITAL_ONLY, true), policy("CH", DIGITAL_ONLY, true),
  policy("CL", EITHER, false), policy("CN", WET_ONLY, false), policy("CO", EITHER, false),
  policy("DE", DIGITAL_ONLY, true), policy("DK", DIGITAL_ONLY, true), policy("ES", DIGITAL_ONLY, true),
  policy("FI", DIGITAL_ONLY, true), policy("FR", DIGITAL_ONLY, true), policy("GB", DIGITAL_ONLY, true),
  policy("HK", EITHER, true), policy("ID", WET_ONLY, false), policy("IE", DIGITAL_ONLY, true),
  policy("IN", WET_ONLY, false), policy("IT", EITHER, false), policy("JP", EITHER, false),
  policy("KR", EITHER, false), policy("MX", EITHER, false), policy("MY", EITHER, false),
  policy("NL", DIGITAL_ONLY, true), policy("NO", DIGITAL_ONLY, true), policy("NZ", DIGITAL_ONLY, true),
  policy("OM", WET_ONLY, false), policy("PE", EITHER, false), policy("PH", EITHER, false),
  policy("PL", EITHER, true), policy("PT", DIGITAL_ONLY, true), policy("SA", WET_ONLY, false),
  policy("SE", DIGITAL_ONLY, true), policy("SG", DIGITAL_ONLY, true), policy("TH", WET_ONLY, false),
  policy("TR", WET_ONLY, false), policy("TW", EITHER, false), policy("US", DIGITAL_ONLY, true),
  policy("ZA", EITHER, false),
];

const ALLOWED_QUERY = ["offset", "limit", "location.countryCode"] as const;
const COUNTRY_CODE = /^[A-Za-z]{2}$/;

function render(p: SignaturePolicy): JsonObject {
  return { signature: { types: [...p.types] }, clickThroughAllowed: p.clickThroughAllowed, location: { countryCode: p.countryCode } };
}

/** The policies for one country (ISO 3166-1 alpha-2, in either case), or all of them. */
function policiesFor(countryCode: string | undefined): readonly SignaturePolicy[] {
  if (countryCode === undefined) return SIGNATURE_POLICIES;
  if (!COUNTRY_CODE.test(countryCode)) {
    return fail("invalidQueryParameter", "location.countryCode", "location.countryCode must be a two-letter ISO 3166-1 country code", countryCode);
  }
  const wanted = countryCode.toUpperCase();
  return SIGNATURE_POLICIES.filter((p) => p.countryCode === wanted);
}

function routes(app: SimApp): void {
  app.get("/internetAccess/v1/signaturePolicies", (c) => {
    rejectUnknownQuery(c, ALLOWED_QUERY);
    const page = queryPage(c, { defaultLimit: 50 });
    const policies = policiesFor(c.req.query("location.countryCode"));
    return c.json(paginate(policies.map(render), page, pageLink(c)));
  });
}

export const signaturePoliciesArea: Area = { name: "internet-access", routes };
