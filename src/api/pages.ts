// Reading whole collections through the service's two pagination styles: offset/limit query
// parameters on GET lists, and a pagination object in the body of POST searches.

import type { ApiClient } from "./client.js";

interface Page<T> {
  data?: T[];
  pagination?: { offset?: number; limit?: number; total?: number; next?: string | null };
}

/** Every item of a GET list, page by page (`offset`/`limit` query parameters). */
export async function* listAll<T>(api: ApiClient, path: string, options: { query?: Record<string, string | number | boolean | undefined>; pageSize: number }): AsyncGenerator<T> {
  let offset = 0;
  for (;;) {
    const page = await api.call<Page<T>>("GET", path, { query: { ...options.query, offset, limit: options.pageSize } });
    const data = page.data ?? [];
    yield* data;
    offset += data.length;
    const total = page.pagination?.total;
    if (data.length === 0 || (total !== undefined ? offset >= total : data.length < options.pageSize)) return;
  }
}

/** Every item a POST search finds, page by page (`pagination` in the body). */
export async function* searchAll<T>(api: ApiClient, path: string, body: Record<string, unknown>, options: { pageSize: number }): AsyncGenerator<T> {
  let offset = 0;
  for (;;) {
    const page = await api.call<Page<T>>("POST", path, { body: { ...body, pagination: { offset, limit: options.pageSize } }, readOnly: true });
    const data = page.data ?? [];
    yield* data;
    offset += data.length;
    const total = page.pagination?.total;
    if (data.length === 0 || (total !== undefined ? offset >= total : data.length < options.pageSize)) return;
  }
}
