// Amounts are written without ICU (its first use costs a plan about 20 ms), so they are held here to what
// en-US's number format with two decimals writes for the same numbers.

import { describe, expect, it } from "vitest";
import { formatAmount, formatMoney } from "../../../src/views/plan-cost.js";

const enUS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe("formatAmount", () => {
  it.each([
    0, -0, 0.004, 0.005, 0.015, 0.125, 1.005, 1.235, 2.675, 9.995, 99.999, 999.995, 1000, 1234.5, 12345.678, 123456.7, 999999.995, 1234567.891,
    10_000_000, 123_456_789.01, -0.001, -1.5, -1234.5, -999999.999, 0.1 + 0.2, 1e15 + 0.5,
  ])("writes %d as en-US does", (n) => {
    expect(formatAmount(n)).toBe(enUS.format(n));
  });

  it("agrees with en-US across a sweep of cents and magnitudes", () => {
    for (let exponent = 0; exponent < 10; exponent++) {
      for (let cents = 0; cents < 1000; cents += 7) {
        const n = 10 ** exponent * (1 + cents / 1000) + cents / 1000;
        expect(formatAmount(n), String(n)).toBe(enUS.format(n));
        expect(formatAmount(-n), String(-n)).toBe(enUS.format(-n));
      }
    }
  });

  it("puts the currency before the amount", () => {
    expect(formatMoney({ currency: "USD", monthly: 1240 })).toBe("USD 1,240.00");
  });
});
