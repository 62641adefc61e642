import type { PagedList } from "./usePagedList";

/** "Load more" under a paged list: how many are shown of how many, and the button while more
 * rows follow. Nothing when every row is shown. */
export function LoadMore<T>({ list, noun, testId }: { list: PagedList<T>; noun: string; testId?: string }) {
  if (!list.hasMore || list.items === null) return null;
  return (
    <div className="card-pad load-more" data-testid={testId ?? "load-more"}>
      <span className="muted small">
        {list.items.length} of {list.count} {noun} shown
      </span>
      <button type="button" className="btn btn-sm" disabled={list.loading} onClick={list.loadMore}>
        {list.loading ? "Loading…" : "Load more"}
      </button>
    </div>
  );
}
