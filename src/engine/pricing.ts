// Plan-time pricing (issue 19): each priced kind names the product of an object (KindDefinition.pricing);
// this module asks the service for each distinct product once per run, several in one price search where
// the search takes a list (the bandwidths of one connection route, the packages of one router metro), and
// prices each change before and after. A price the service cannot give is unknown with why: pricing never
// fails a plan.

import type { ApiClient } from "../api/index.js";
import { isPlainObject } from "../config/index.js";
import { isKind, KIND_DEFINITIONS, KIND_HANDLERS, type Body, type KindPricing, type PricedProduct, type PriceQuery } from "../kinds/index.js";
import { costTotals, sumMoney, UNKNOWN_TEXT, type Money, type Plan, type PlanCost, type ResourceChange, type ResourceCost, type UnknownCost } from "../plan/index.js";
import type { StateFile } from "../state/index.js";

type Outcome = { money: Money[] } | { unknown: string };
type Named = Extract<PricedProduct, { product: string }>;

const PRICE_SEARCH = "/fabric/v4/prices/search";
const DEVICE_PRICES = "/ne/v1/prices";
const PORT_SEARCH = "/fabric/v4/ports/search";

/** A key equal for equal questions, whatever the order of their properties. */
function keyOf(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(keyOf).join(",")}]`;
  if (isPlainObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${keyOf(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}

const why = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The value at a JSON pointer of a price record ("/connection/bandwidth"). */
function atPointer(record: unknown, pointer: string): unknown {
  return pointer.split("/").slice(1).reduce<unknown>((cur, key) => (isPlainObject(cur) ? cur[key] : undefined), record);
}

function fabricMoney(record: unknown): Money[] {
  if (!isPlainObject(record) || typeof record.currency !== "string" || !Array.isArray(record.charges)) return [];
  const monthly = record.charges.filter((c) => isPlainObject(c) && c.type === "MONTHLY_RECURRING").reduce<number>((sum, c) => sum + Number((c as Body).price), 0);
  return [{ currency: record.currency, monthly }];
}

function deviceMoney(answer: unknown): Money[] {
  const blocks = isPlainObject(answer) ? [answer.primary, answer.secondary].filter(isPlainObject) : [];
  return sumMoney(
    blocks.map((block) => {
      const charges = Array.isArray(block.charges) ? block.charges : [];
      const monthly = charges.reduce<number>((sum, c) => sum + Number(isPlainObject(c) ? c.monthlyRecurringCharges : 0), 0);
      return typeof block.currency === "string" ? [{ currency: block.currency, monthly }] : [];
    }),
  );
}

/**
 * The prices of one run, by question: each asked once, whoever asks it again (a plan's before and after,
 * two resources of one product).
 */
export class PriceBook {
  private readonly answers = new Map<string, Promise<Outcome>>();
  private readonly metroOfPort = new Map<string, Promise<string | undefined>>();
  private portFailure: string | undefined;
  /** Requests this book has sent: its own count, as other reads may run beside it. */
  requests = 0;

  constructor(private readonly api: ApiClient) {}

  /** The metros of these ports, read in one search for those not read yet. */
  async readPorts(uuids: readonly string[]): Promise<void> {
    const fresh = [...new Set(uuids)].filter((u) => !this.metroOfPort.has(u));
    if (fresh.length === 0) return;
    this.requests++;
    const found = this.api
      .call<{ data?: Body[] }>("POST", PORT_SEARCH, { body: { filter: { and: [{ property: "/uuid", operator: "IN", values: fresh }] }, pagination: { offset: 0, limit: 1000 } }, readOnly: true })
      .then((page) => new Map((page.data ?? []).map((p) => [String(p.uuid), atPointer(p, "/location/metroCode")])))
      .catch((error: unknown) => {
        this.portFailure = `the ports could not be read: ${why(error)}`;
        return new Map<string, unknown>();
      });
    for (const uuid of fresh) this.metroOfPort.set(uuid, found.then((m) => (typeof m.get(uuid) === "string" ? (m.get(uuid) as string) : undefined)));
    await found;
  }

  /** Why a port's metro is not known, when reading the ports failed. */
  get portProblem(): string | undefined {
    return this.portFailure;
  }

  async portMetros(): Promise<Map<string, string | undefined>> {
    return new Map(await Promise.all([...this.metroOfPort].map(async ([uuid, metro]) => [uuid, await metro] as const)));
  }

  /** Asks the questions not asked yet: one search per group of fabric questions, one call per device question. */
  async ask(queries: readonly PriceQuery[]): Promise<void> {
    const fresh = new Map<string, PriceQuery>();
    for (const query of queries) if (!this.answers.has(keyOf(query))) fresh.set(keyOf(query), query);
    const groups = new Map<string, { filter: Record<string, string | number | boolean>; batchBy?: string; members: Array<[string, PriceQuery & { api: "fabric" }]> }>();
    for (const [key, query] of fresh) {
      if (query.api === "device") {
        this.answers.set(key, this.askDevice(query.query));
        continue;
      }
      const shared = Object.fromEntries(Object.entries(query.filter).filter(([p]) => p !== query.batchBy));
      const groupKey = keyOf({ shared, batchBy: query.batchBy ?? null, single: query.batchBy ? null : key });
      const group = groups.get(groupKey) ?? { filter: shared, ...(query.batchBy ? { batchBy: query.batchBy } : {}), members: [] };
      group.members.push([key, query]);
      groups.set(groupKey, group);
    }
    for (const group of groups.values()) {
      const values = group.batchBy ? [...new Set(group.members.map(([, q]) => q.filter[group.batchBy!]!))] : [];
      const and = Object.entries(group.filter).map(([property, value]) => ({ property, operator: "=", values: [String(value)] }));
      if (group.batchBy) and.push({ property: group.batchBy, operator: "IN", values: values.map(String) });
      this.requests++;
      const records = this.api.call<{ data?: unknown[] }>("POST", PRICE_SEARCH, { body: { filter: { and } }, readOnly: true }).then((page) => page.data ?? []);
      for (const [key, query] of group.members) {
        this.answers.set(
          key,
          records.then(
            (found) => {
              const record = group.batchBy ? found.find((r) => atPointer(r, group.batchBy!) === query.filter[group.batchBy!]) : found[0];
              const money = fabricMoney(record);
              return money.length > 0 ? { money } : { unknown: "the price search returned no monthly price for this product" };
            },
            (error: unknown) => ({ unknown: `the price search failed: ${why(error)}` }),
          ),
        );
      }
    }
    await Promise.all([...fresh.keys()].map((key) => this.answers.get(key)));
  }

  private askDevice(query: Record<string, string | number>): Promise<Outcome> {
    this.requests++;
    return this.api.call("GET", DEVICE_PRICES, { query }).then(
      (answer): Outcome => {
        const money = deviceMoney(answer);
        return money.length > 0 ? { money } : { unknown: "the device price call returned no monthly charges" };
      },
      (error: unknown) => ({ unknown: `the device price call failed: ${why(error)}` }),
    );
  }

  /** The answer to a question asked before. */
  async answer(query: PriceQuery): Promise<Outcome> {
    return (await this.answers.get(keyOf(query))) ?? { unknown: "not asked" };
  }
}

/** A form without the values a plan does not know yet: a kind sees them as absent. */
function known(value: unknown): unknown {
  if (value === UNKNOWN_TEXT || (typeof value === "string" && value.includes(UNKNOWN_TEXT))) return undefined;
  if (Array.isArray(value)) return value.map(known);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, known(v)]).filter(([, v]) => v !== undefined));
  return value;
}

const pricingOf = (kind: string): KindPricing | undefined => (isKind(kind) ? KIND_DEFINITIONS.get(kind)?.pricing : undefined);

/** One object's form to price, by the pricing of its kind. */
interface Priceable {
  address: string;
  pricing: KindPricing;
  form: Body;
}

/** The products of these forms, once their ports are read: one search for every port of the run. */
async function productsOf(book: PriceBook, items: readonly Priceable[]): Promise<PricedProduct[]> {
  await book.readPorts(items.flatMap((i) => i.pricing.portsNamed?.(i.form) ?? []));
  const metros = await book.portMetros();
  return items.map((i) => {
    const needsPorts = (i.pricing.portsNamed?.(i.form) ?? []).length > 0;
    if (needsPorts && book.portProblem) return { unknown: book.portProblem };
    return i.pricing.product(i.form, (uuid) => metros.get(uuid));
  });
}

/** The forms a change is priced from: now (absent for a create) and after apply (absent for a delete). */
function formsOf(change: ResourceChange): { before?: Body; after?: Body } {
  const observed = (body: Body) => KIND_HANDLERS.get(change.kind)?.observed(body) ?? body;
  switch (change.action) {
    case "create":
      return { after: known(change.after ?? {}) as Body };
    case "delete":
      // A delete carries the state's record of the object: the service's body, not yet in comparable form.
      return { before: observed(change.before ?? {}) };
    case "update":
    case "replace":
    case "import":
      return { before: known(change.before ?? {}) as Body, after: known(change.after ?? {}) as Body };
    default:
      return {};
  }
}

/** A change that moves what the service bills: not a no-op, and not a forget (the service keeps billing the object). */
type PricedChange = ResourceChange & { action: ResourceCost["action"] };
const isPricedChange = (change: ResourceChange): change is PricedChange => change.action !== "no-op" && change.action !== "forget";

/** The monthly cost of a plan's priced changes: before and after for each, totals per currency. */
export async function planCost(api: ApiClient, plan: Plan, book = new PriceBook(api)): Promise<PlanCost> {
  const requestsBefore = book.requests;
  const items: Array<{ change: PricedChange; side: "before" | "after"; item: Priceable }> = [];
  for (const change of plan.changes.filter(isPricedChange)) {
    const pricing = pricingOf(change.kind);
    if (!pricing) continue;
    const forms = formsOf(change);
    if (forms.before) items.push({ change, side: "before", item: { address: change.address, pricing, form: forms.before } });
    if (forms.after) items.push({ change, side: "after", item: { address: change.address, pricing, form: forms.after } });
  }
  const products = await productsOf(book, items.map((i) => i.item));
  await book.ask(products.flatMap((p) => ("query" in p ? [p.query] : [])));

  const byAddress = new Map<string, { change: PricedChange; before?: PricedProduct; after?: PricedProduct }>();
  items.forEach(({ change, side }, i) => {
    const entry = byAddress.get(change.address) ?? { change };
    entry[side] = products[i]!;
    byAddress.set(change.address, entry);
  });
  const resources: ResourceCost[] = [];
  const unknown: UnknownCost[] = [];
  for (const { change, before, after } of byAddress.values()) {
    // An update that leaves the product as it is (a new name) costs what it cost: not a priced change.
    if (change.action !== "replace" && before && after && keyOf(before) === keyOf(after)) continue;
    const named = [after, before].find((p): p is Named => p !== undefined && "product" in p);
    const resource: ResourceCost = { address: change.address, kind: change.kind, action: change.action, ...(named ? { product: named.product } : {}), ...(named?.metro ? { metro: named.metro } : {}) };
    for (const [side, product] of [["before", before], ["after", after]] as const) {
      if (!product) continue;
      const outcome: Outcome = "query" in product ? await book.answer(product.query) : product;
      if ("money" in outcome) resource[side] = outcome.money;
      else unknown.push({ address: change.address, side, why: outcome.unknown });
    }
    resources.push(resource);
  }
  return { totals: costTotals(resources, unknown), resources, unknown, requests: book.requests - requestsBefore };
}

/** What one recorded object costs each month. */
export interface RecordedCost {
  address: string;
  kind: string;
  product: string;
  metro?: string;
  monthly: Money[];
}

/** The running monthly cost of everything a state records: per object, by kind and by metro, per currency. */
export interface StateCost {
  resources: RecordedCost[];
  byKind: Array<{ kind: string } & Money>;
  byMetro: Array<{ metro: string } & Money>;
  totals: Money[];
  unknown: Array<{ address: string; why: string }>;
  requests: number;
}

function grouped<K extends string>(resources: readonly RecordedCost[], keyName: K, keyOfResource: (r: RecordedCost) => string): Array<Record<K, string> & Money> {
  const groups = new Map<string, Money[][]>();
  for (const r of resources) groups.set(keyOfResource(r), [...(groups.get(keyOfResource(r)) ?? []), r.monthly]);
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([key, amounts]) => sumMoney(amounts).map((money) => ({ [keyName]: key, ...money }) as Record<K, string> & Money));
}

/** Prices every priced object the state records (settled ones: a pending create has no object yet). */
export async function stateCost(api: ApiClient, state: Readonly<StateFile>, book = new PriceBook(api)): Promise<StateCost> {
  const requestsBefore = book.requests;
  const items: Priceable[] = [];
  const kinds = new Map<string, string>();
  for (const [address, recorded] of Object.entries(state.resources).sort(([a], [b]) => a.localeCompare(b))) {
    const pricing = pricingOf(recorded.kind);
    const handler = KIND_HANDLERS.get(recorded.kind);
    if (!pricing || !handler || !recorded.id || recorded.pending) continue;
    items.push({ address, pricing, form: handler.observed(recorded.attributes) });
    kinds.set(address, recorded.kind);
  }
  const products = await productsOf(book, items);
  await book.ask(products.flatMap((p) => ("query" in p ? [p.query] : [])));
  const resources: RecordedCost[] = [];
  const unknown: StateCost["unknown"] = [];
  for (const [i, item] of items.entries()) {
    const product = products[i]!;
    const outcome: Outcome = "query" in product ? await book.answer(product.query) : product;
    if ("unknown" in outcome) unknown.push({ address: item.address, why: outcome.unknown });
    else if ("product" in product) resources.push({ address: item.address, kind: kinds.get(item.address)!, product: product.product, ...(product.metro ? { metro: product.metro } : {}), monthly: outcome.money });
  }
  return {
    resources,
    byKind: grouped(resources, "kind", (r) => r.kind),
    byMetro: grouped(resources, "metro", (r) => r.metro ?? "(no metro)"),
    totals: sumMoney(resources.map((r) => r.monthly)),
    unknown,
    requests: book.requests - requestsBefore,
  };
}
