/** A fake server's page of `rows` for a request path with `?limit=&offset=`, as the API answers
 * a paginated list (labeling/api/pagination.py): default limit 50, next as an absolute URL. */
export function fakePage<T>(rows: T[], path: string): { count: number; next: string | null; previous: string | null; results: T[] } {
  const url = new URL(path, "http://testserver");
  const limit = Number(url.searchParams.get("limit") ?? 50);
  const offset = Number(url.searchParams.get("offset") ?? 0);
  const link = (at: number) => {
    const next = new URL(url);
    next.searchParams.set("limit", String(limit));
    next.searchParams.set("offset", String(at));
    return next.toString();
  };
  return {
    count: rows.length,
    next: offset + limit < rows.length ? link(offset + limit) : null,
    previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
    results: rows.slice(offset, offset + limit),
  };
}

/** The path without its query, for matching routes. */
export const routeOf = (path: string) => path.split("?")[0];
