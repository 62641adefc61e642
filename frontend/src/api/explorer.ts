/** The solutions explorer (project admins): a project's solutions searched, filtered, sorted and
 * paged, and bulk actions on a selection or on all that match. */
import type { ReviewReason } from "./review";
import { get, post } from "./client";

export type LabelState = "unlabeled" | "in_progress" | "labeled" | "reviewed";
export type ExplorerSort =
  | "created"
  | "-created"
  | "problem"
  | "-problem"
  | "annotations"
  | "-annotations"
  | "agreement"
  | "-agreement";
export type BulkAction = "send_to_review" | "requeue" | "mark_gold" | "unmark_gold";

/** What selects the explorer's rows; empty strings mean "any". */
export interface ExplorerFilters {
  q: string;
  state: "" | LabelState;
  status: "" | "open" | "closed";
  disagreement: "" | "true" | "false";
  verdict: "" | "error" | "no_error" | "none";
  verdict_source: string;
  answer: "" | "correct" | "wrong" | "unknown";
  gold: "" | "true" | "false";
  import_job: string;
  sort: ExplorerSort;
}

export interface ExplorerRow {
  id: number;
  problem_id: number;
  problem_text: string;
  problem_source: string;
  generator: string;
  final_answer: string;
  answer_correct: boolean | null;
  steps_count: number;
  submitted_count: number;
  /** Labels wanted beyond the project's overlap for this solution (a requeue of it when complete adds one). */
  extra_overlap: number;
  is_gold: boolean;
  queue_open: boolean;
  label_state: LabelState;
  reasons: ReviewReason[];
  verdict: "" | "error" | "no_error";
  import_job_id: number | null;
  created_at: string;
}

export interface ExplorerPage {
  count: number;
  count_capped: boolean;
  limit: number;
  offset: number;
  results: ExplorerRow[];
}

export interface BulkResult {
  action: BulkAction;
  matched: number;
  changed: number;
  /** Of `changed`, complete solutions a requeue reopened for one more label. */
  reopened: number;
  skipped: Record<string, number>;
}

/** The filters that are set, as the API takes them (sort always). */
export function explorerParams(filters: ExplorerFilters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters)) if (value !== "") out[key] = String(value);
  return out;
}

export const listExplorer = (projectId: number, filters: ExplorerFilters, limit: number, offset: number) => {
  const params = new URLSearchParams({ ...explorerParams(filters), limit: String(limit), offset: String(offset) });
  return get<ExplorerPage>(`/api/projects/${projectId}/explorer/?${params}`);
};

/** `ids`: the selected solutions; null: every solution matching `filters`. */
export const explorerBulk = (projectId: number, action: BulkAction, ids: number[] | null, filters: ExplorerFilters) =>
  post<BulkResult>(
    `/api/projects/${projectId}/explorer/bulk/`,
    ids ? { action, ids } : { action, filter: explorerParams(filters) },
  );
