// Reading whole collections through the service's two pagination styles: offset/limit query
// parameters on GET lists, and a pagination object in the body of POST searches.

import type { ApiClient } from "./client.js";

interface Page<T> {
  data?: T[];
  pagination?: { offset?: number; limit?: number; total?: number; next?: string | null };
}

/** Every item of a GET list, page by page (`offset`/`limit` query parameters). */
export function listAll<T>(api: ApiClient, path: string, options: { query?: Record<string, string | number | boolean | undefined>; pageSize: number }): AsyncGenerator<T> {
  return allPages(options.pageSize, (offset) => api.call<Page<T>>("GET", path, { query: { ...options.query, offset, limit: options.pageSize } }));
}

/** Every item a POST search finds, page by page (`pagination` in the body). */
export function searchAll<T>(api: ApiClient, path: string, body: Record<string, unknown>, options: { pageSize: number }): AsyncGenerator<T> {
  return allPages(options.pageSize, (offset) => api.call<Page<T>>("POST", path, { body: { ...body, pagination: { offset, limit: options.pageSize } }, readOnly: true }));
}

/**
 * The items of every page, in order. Once the first page gives the total, the other pages are asked for
 * at once: a filter's 500 rules are five round trips of the service's latency one after another
 * otherwise. The step is the size of the page the service gave, in case it gives fewer than asked for.
 */
async function* allPages<T>(pageSize: number, pageAt: (offset: number) => Promise<Page<T>>): AsyncGenerator<T> {
  const first = await pageAt(0);
  const data = first.data ?? [];
  yield* data;
  const total = first.pagination?.total;
  if (data.length === 0) return;
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
