/** Reading paginated lists: `{count, next, previous, results}` pages of `?limit=&offset=`. */
import { get, type Page } from "./client";

/** The largest page the server serves (its API_MAX_PAGE_SIZE default). */
export const PAGE_MAX = 200;

/** The path and query of a page's `next` link (the server sends an absolute URL). */
export function pagePath(next: string): string {
  const url = new URL(next, window.location.origin);
  return url.pathname + url.search;
}

/** `path` with `limit` (and `offset` when not 0) set. */
export function withPage(path: string, limit: number, offset = 0): string {
  const url = new URL(path, window.location.origin);
  url.searchParams.set("limit", String(limit));
  if (offset) url.searchParams.set("offset", String(offset));
  else url.searchParams.delete("offset");
  return url.pathname + url.search;
}

/** Every row of a list, a page of PAGE_MAX at a time, for a picker that needs all of them (the
 * members to assign to, the problem sources); stops after `maxRows`. */
export async function getAll<T>(path: string, maxRows = 10_000): Promise<T[]> {
  return (await getAllPages<T, Page<T>>(path, maxRows)).rows;
}

/** getAll, with the last page read (a list whose pages carry more than rows: its fields). */
export async function getAllPages<T, P extends Page<T>>(path: string, maxRows = 10_000): Promise<{ rows: T[]; last: P | null }> {
  const rows: T[] = [];
  let last: P | null = null;
  let next: string | null = withPage(path, PAGE_MAX);
  while (next !== null && rows.length < maxRows) {
    const page: P = await get<P>(next);
    last = page;
    rows.push(...page.results);
    next = page.next === null ? null : pagePath(page.next);
  }
  return { rows, last };
}
