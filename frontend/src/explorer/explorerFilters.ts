/** The explorer's filters in the URL (so a filtered view can be shared and survives a reload). */
import type { ExplorerFilters, ExplorerSort } from "../api/explorer";

export const EMPTY_FILTERS: ExplorerFilters = {
  q: "",
  state: "",
  status: "",
  disagreement: "",
  verdict: "",
  verdict_source: "",
  answer: "",
  gold: "",
  import_job: "",
  sort: "created",
};

const KEYS = Object.keys(EMPTY_FILTERS) as Array<keyof ExplorerFilters>;
const ALLOWED: Partial<Record<keyof ExplorerFilters, readonly string[]>> = {
  state: ["unlabeled", "in_progress", "labeled", "reviewed"],
  status: ["open", "closed"],
  disagreement: ["true", "false"],
  verdict: ["error", "no_error", "none"],
  answer: ["correct", "wrong", "unknown"],
  gold: ["true", "false"],
  sort: ["created", "-created", "problem", "-problem", "annotations", "-annotations", "agreement", "-agreement"],
};

/** The filters a query string holds; unknown values are dropped (the default applies). */
export function filtersFromParams(params: URLSearchParams): ExplorerFilters {
  const out: ExplorerFilters = { ...EMPTY_FILTERS };
  for (const key of KEYS) {
    const value = params.get(key);
    if (value === null) continue;
    const allowed = ALLOWED[key];
    if (allowed && !allowed.includes(value)) continue;
    if (key === "import_job" && !/^[1-9]\d{0,9}$/.test(value)) continue;
    if (key === "q") {
      out.q = value.slice(0, 200);
      continue;
    }
    (out as unknown as Record<string, string>)[key] = value;
  }
  return out;
}

/** The query string of the filters (defaults left out), beside the params it keeps (`tab`). */
export function paramsWithFilters(params: URLSearchParams, filters: ExplorerFilters, page = 0): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of KEYS) {
    const value = filters[key];
    if (value === EMPTY_FILTERS[key]) next.delete(key);
    else next.set(key, value);
  }
  if (page > 0) next.set("page", String(page));
  else next.delete("page");
  return next;
}

export function pageFromParams(params: URLSearchParams): number {
  const n = Number(params.get("page") ?? 0);
  return Number.isInteger(n) && n > 0 && n < 10_000 ? n : 0;
}

/** Clicking a column: ascending first, then descending, on the same key. */
export function nextSort(current: ExplorerSort, key: string): ExplorerSort {
  if (current === key) return `-${key}` as ExplorerSort;
  return key as ExplorerSort;
}

/** The counts of a bulk result in words. */
export function bulkSummary(r: {
  action: string;
  matched: number;
  changed: number;
  reopened?: number;
  skipped: Record<string, number>;
}): string {
  const verb: Record<string, string> = {
    send_to_review: "sent to review",
    requeue: "requeued",
    mark_gold: "marked gold",
    unmark_gold: "unmarked gold",
  };
  const why: Record<string, string> = {
    no_submissions: "no submitted labels",
    already_in_review: "already in review",
    extra_overlap_max: "already wanting the most extra labels",
    gold: "gold question",
    already_open: "already open",
    already_gold: "already gold",
    not_reviewed: "not reviewed yet",
    not_gold: "not gold",
  };
  const left = Object.entries(r.skipped)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${why[k] ?? k}`);
  const reopened = r.reopened ? ` (${r.reopened} complete, reopened for one more label)` : "";
  const head = `${r.changed} of ${r.matched} ${verb[r.action] ?? r.action}${reopened}`;
  return left.length ? `${head}; left: ${left.join(", ")}.` : `${head}.`;
}
