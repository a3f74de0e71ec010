// Reading whole collections through the service's two pagination styles: offset/limit query
// parameters on GET lists, and a pagination object in the body of POST searches.

import type { ApiClient } from "./client.js";

export interface Page<T> {
  data?: T[];
  pagination?: { offset?: number; limit?: number; total?: number; next?: string | null };
}

/**
 * A list answer as a page. The official descriptions and the real service disagree on some lists: the
 * device link groups are a bare array in the description and `{pagination, data}` in equinix/ne-go's
 * recorded answers, the public keys the other way round in places. A bare array is the whole collection.
 */
export function asPage<T>(answer: unknown): Page<T> & { whole: boolean } {
  if (Array.isArray(answer)) return { data: answer as T[], pagination: { total: answer.length }, whole: true };
  if (answer !== null && typeof answer === "object") {
    const page = answer as Page<T>;
    return { ...(Array.isArray(page.data) ? { data: page.data } : {}), ...(page.pagination ? { pagination: page.pagination } : {}), whole: false };
  }
  return { whole: true };
}

/** The items of a list answer, whichever of the two shapes it has. */
export const itemsOf = <T>(answer: unknown): T[] => asPage<T>(answer).data ?? [];

/** Every item of a GET list, page by page (`offset`/`limit` query parameters). */
export function listAll<T>(api: ApiClient, path: string, options: { query?: Record<string, string | number | boolean | undefined>; pageSize: number }): AsyncGenerator<T> {
  return allPages(options.pageSize, async (offset) => asPage<T>(await api.call<unknown>("GET", path, { query: { ...options.query, offset, limit: options.pageSize } })));
}

/** Every item a POST search finds, page by page (`pagination` in the body). */
export function searchAll<T>(api: ApiClient, path: string, body: Record<string, unknown>, options: { pageSize: number }): AsyncGenerator<T> {
  return allPages(options.pageSize, async (offset) => asPage<T>(await api.call<unknown>("POST", path, { body: { ...body, pagination: { offset, limit: options.pageSize } }, readOnly: true })));
}

/**
 * The items of every page, in order. Once the first page gives the total, the other pages are asked for
 * at once: a filter's 500 rules are five round trips of the service's latency one after another
 * otherwise. The step is the size of the page the service gave, in case it gives fewer than asked for.
 */
async function* allPages<T>(pageSize: number, pageAt: (offset: number) => Promise<Page<T> & { whole: boolean }>): AsyncGenerator<T> {
  const first = await pageAt(0);
  const data = first.data ?? [];
  yield* data;
  const total = first.pagination?.total;
  if (data.length === 0 || first.whole) return;
  if (total === undefined) {
    // Without a total, a short page is the last one.
    for (let offset = data.length, last = data; last.length >= pageSize; offset += last.length) {
      last = (await pageAt(offset)).data ?? [];
      yield* last;
      if (last.length === 0) return;
    }
    return;
  }
  const pages: Array<Promise<Page<T>>> = [];
  for (let offset = data.length; offset < total; offset += data.length) pages.push(pageAt(offset));
  // Each page is awaited in turn; a failure of one not yet awaited must not go unhandled meanwhile.
  for (const page of pages) page.catch(() => undefined);
  for (const page of pages) {
    const items = (await page).data ?? [];
    yield* items;
    if (items.length === 0) return;
  }
}
