// The metro catalogue of the service specification (section 2.4), by region. A metro code outside it is
// refused before any request, with the nearest code suggested.

const METROS_BY_REGION = {
  EMEA: ["AD", "AM", "BA", "DX", "DB", "DU", "EN", "FR", "GV", "HH", "HE", "IL", "LS", "LD", "MD", "MA", "ML", "MU", "MC", "PA", "SA", "SO", "SK", "WA", "ZH", "ZW"],
  AMER: ["AT", "BG", "BO", "CH", "CU", "DA", "DE", "HO", "LA", "MX", "MI", "MO", "MT", "NY", "PH", "RJ", "SP", "SE", "SV", "TR", "DC"],
  APAC: ["AE", "BR", "CA", "HK", "JK", "ME", "OS", "PE", "SL", "SH", "SG", "SY", "TY"],
} as const;

export const METRO_CODES: readonly string[] = Object.values(METROS_BY_REGION).flat();
