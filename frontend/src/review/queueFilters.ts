/** The review queue's filters, kept in the page's URL (so Back and the review page keep them). */
import type { Domain, QueueState, ReviewQueueFilters, ReviewReason } from "../api";
import { DOMAINS } from "../lib/domains";

export const PAGE_SIZE = 25;
export const REASONS: Array<ReviewReason | "rest"> = ["disagreement", "unsure", "gold_failure", "auto_conflict", "single_annotator", "rest"];
const STATES: QueueState[] = ["unresolved", "resolved", "all"];

/** A `YYYY-MM-DD` day as the start of that day in the browser's time zone, ISO. */
export function dayStart(day: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const d = new Date(`${day}T00:00:00`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** The day after `day`, ISO: "to" is inclusive of the whole day. */
export function dayEnd(day: string): string | undefined {
  const start = dayStart(day);
  if (!start) return undefined;
  const d = new Date(start);
  d.setDate(d.getDate() + 1);
  return d.toISOString();
}

/** A problem domain named in the URL, or "" (any) for anything else. */
function problemDomain(value: string | null): Domain | "" {
  return DOMAINS.some((d) => d.value === value && value !== "mixed") ? (value as Domain) : "";
}

export function filtersFromParams(params: URLSearchParams): ReviewQueueFilters {
  const state = params.get("state") as QueueState | null;
  const reason = params.get("reason") as ReviewReason | "rest" | null;
  const annotator = Number(params.get("annotator"));
  const offset = Number(params.get("offset"));
  return {
    state: state && STATES.includes(state) ? state : "unresolved",
    reason: reason && REASONS.includes(reason) ? reason : "",
    annotator: Number.isInteger(annotator) && annotator > 0 ? annotator : null,
    source: params.get("source") ?? "",
    domain: problemDomain(params.get("domain")),
    submitted_from: dayStart(params.get("from") ?? ""),
    submitted_to: dayEnd(params.get("to") ?? ""),
    limit: PAGE_SIZE,
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
}

/** The URL keys the page keeps (days as typed, not ISO). */
export const FILTER_KEYS = ["state", "reason", "annotator", "source", "domain", "from", "to"] as const;

/** Only the filter keys of `params` (no offset), for links between queue and review pages. */
export function filterQuery(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const v = params.get(key);
    if (v) out.set(key, v);
  }
  const qs = out.toString();
  return qs ? `?${qs}` : "";
}
