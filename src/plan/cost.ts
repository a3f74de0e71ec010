// What a plan costs each month (issue 19): for each priced change, the monthly recurring price before and
// after, from the service's own price calls; totals per currency, never mixed; what the service could not
// price, with why, never as zero.

import type { Action } from "./types.js";

/** A monthly recurring amount in one currency. */
export interface Money {
  currency: string;
  monthly: number;
}

export interface ResourceCost {
  address: string;
  kind: string;
  /** A forgotten object is not priced: the service keeps it, and bills it as before. */
  action: Exclude<Action, "forget">;
  /** The product priced, in words: "EVPL_VC 1000 Mbps, DC to SV"; absent when neither side names one. */
  product?: string;
  /** The metro the object is billed in, where it has one. */
  metro?: string;
  /** Absent when the object does not exist yet, or its price now is unknown (then `unknown` says why). */
  before?: Money[];
  /** Absent when the object will be deleted, or its price after apply is unknown. */
  after?: Money[];
}

export interface UnknownCost {
  address: string;
  /** Which price is unknown: now, or after apply. */
  side: "before" | "after";
  why: string;
}

export interface CostTotal {
  currency: string;
  monthlyBefore: number;
  monthlyAfter: number;
  delta: number;
}

export interface PlanCost {
  /** One per currency: totals never add amounts of two currencies. */
  totals: CostTotal[];
  resources: ResourceCost[];
  unknown: UnknownCost[];
  /** The price requests the plan made: one per distinct product at most. */
  requests: number;
}

const cents = (n: number): number => Math.round(n * 100) / 100;

/** Adds amounts per currency, in the order currencies first appear. */
export function sumMoney(amounts: readonly (readonly Money[])[]): Money[] {
  const sums = new Map<string, number>();
  for (const money of amounts.flat()) sums.set(money.currency, (sums.get(money.currency) ?? 0) + money.monthly);
  return [...sums].map(([currency, monthly]) => ({ currency, monthly: cents(monthly) }));
}

/**
 * Totals per currency over the changes whose prices are known on both sides. A change with one side
 * unknown is left out whole: counting its known side alone would turn a resize to an unpriced bandwidth
 * into a saving of its whole old price. The views say that the total leaves such changes out.
 */
export function costTotals(resources: readonly ResourceCost[], unknown: readonly UnknownCost[] = []): CostTotal[] {
  const unpriced = new Set(unknown.map((u) => u.address));
  const counted = resources.filter((r) => !unpriced.has(r.address));
  const before = sumMoney(counted.map((r) => r.before ?? []));
  const after = sumMoney(counted.map((r) => r.after ?? []));
  const currencies = [...new Set([...before, ...after].map((m) => m.currency))];
  return currencies.map((currency) => {
    const monthlyBefore = before.find((m) => m.currency === currency)?.monthly ?? 0;
    const monthlyAfter = after.find((m) => m.currency === currency)?.monthly ?? 0;
    return { currency, monthlyBefore, monthlyAfter, delta: cents(monthlyAfter - monthlyBefore) };
  });
}
