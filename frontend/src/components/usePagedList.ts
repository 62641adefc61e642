import { useCallback, useEffect, useRef, useState } from "react";
import type { Page } from "../api";
import { get } from "../api/client";
import { pagePath, withPage } from "../api/pages";

export interface PagedList<T> {
  /** The rows loaded so far (null before the first page). */
  items: T[] | null;
  setItems: (update: (items: T[]) => T[]) => void;
  /** How many rows the server has. */
  count: number;
  setCount: (update: (count: number) => number) => void;
  /** More rows follow what is loaded. */
  hasMore: boolean;
  loading: boolean;
  error: string | null;
  /** Load the next page (appended). */
  loadMore: () => void;
  /** Start again from the first page. */
  reload: () => void;
}

/** A paginated list shown a page at a time, with "Load more" (`path` without limit/offset). */
export function usePagedList<T>(path: string | null, pageSize = 50): PagedList<T> {
  const [items, setRows] = useState<T[] | null>(null);
  const [count, setCountState] = useState(0);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);

  const fetchPage = useCallback((url: string, append: boolean) => {
    const mine = generation.current;
    setLoading(true);
    setError(null);
    get<Page<T>>(url)
      .then((page) => {
        if (mine !== generation.current) return;
        setRows((old) => (append ? [...(old ?? []), ...page.results] : page.results));
        setCountState(page.count);
        setNext(page.next === null ? null : pagePath(page.next));
      })
      .catch((e: Error) => mine === generation.current && setError(e.message))
      .finally(() => mine === generation.current && setLoading(false));
  }, []);

  const reload = useCallback(() => {
    generation.current += 1;
    if (path !== null) fetchPage(withPage(path, pageSize), false);
  }, [fetchPage, path, pageSize]);

  useEffect(() => {
    reload();
    return () => {
      generation.current += 1;
    };
  }, [reload]);

  const loadMore = useCallback(() => {
    if (next !== null && !loading) fetchPage(next, true);
  }, [fetchPage, next, loading]);

  const setItems = useCallback((update: (items: T[]) => T[]) => setRows((old) => update(old ?? [])), []);
  const setCount = useCallback((update: (count: number) => number) => setCountState(update), []);

  return { items, setItems, count, setCount, hasMore: next !== null, loading, error, loadMore, reload };
}
