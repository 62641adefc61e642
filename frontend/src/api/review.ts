/** The reviewer's side: the queue, one solution's review page, decisions and comments. */
import { get, post, type Page } from "./client";
import type { StepMeta, Suggestion, TaskProblem } from "./labeling";
import type { Domain, Rating } from "./projects";

/** `single_annotator`: one submitted annotation, nothing to agree with (never "rest"). */
export type ReviewReason = "disagreement" | "unsure" | "gold_failure" | "auto_conflict" | "single_annotator";
export type QueueState = "unresolved" | "resolved" | "all";
export type Provenance = "reviewer" | "human_consensus" | "auto_consensus";

export interface ReviewQueueFilters {
  annotator?: number | null;
  source?: string;
  domain?: Domain | "";
  submitted_from?: string;
  submitted_to?: string;
  state?: QueueState;
  reason?: ReviewReason | "rest" | "";
  limit?: number;
  offset?: number;
}

export interface ReviewQueueItem {
  id: number;
  problem_id: number;
  problem_text: string;
  problem_source: string;
  problem_domain?: Domain;
  generator: string;
  is_gold: boolean;
  reasons: ReviewReason[];
  /** The first reason, "rest" when there is none. */
  reason: ReviewReason | "rest";
  annotations_submitted: number;
  last_submitted_at: string | null;
  resolution_id: number | null;
  resolution_provenance: Provenance | null;
}

export interface ReviewQueueCounts {
  total: number;
  disagreement: number;
  unsure: number;
  gold_failure: number;
  auto_conflict: number;
  /** One submitted annotation. */
  single_annotator: number;
  /** Two or more annotators who agree, nothing flagged. */
  rest: number;
}

export interface ReviewQueuePage extends Page<ReviewQueueItem> {
  /** `count` stopped at 1,000 (or at the end of the page asked for): more match. */
  count_capped: boolean;
  /** Each count stops at 1,000; the names here reached it ("1,000+"). */
  counts: ReviewQueueCounts;
  counts_capped: Array<keyof ReviewQueueCounts>;
  /** Everyone the `annotator` filter can name (people with submitted labels). */
  annotators: Array<{ id: number; username: string }>;
}

export interface RatingLabel {
  step_id: number;
  rating: Rating | null;
}

/** An adjudicated or resolved label; `uses`: the earlier steps (0-based) it uses as decided,
 * null or absent when not decided (the step's own stand). */
export interface ResolvedLabel extends RatingLabel {
  uses?: number[] | null;
}

export interface Resolution {
  id: number;
  provenance: Provenance;
  first_error_index: number | null;
  resolved_by: string | null;
  annotation_ids: number[];
  is_current: boolean;
  created_at: string;
  labels: ResolvedLabel[];
}

export interface ReviewAnnotation {
  id: number;
  annotator: string;
  annotator_id: number | null;
  imported: boolean;
  status: string;
  revises_id: number | null;
  finish_reason: string;
  finish_reason_text: string;
  time_spent_ms: number;
  submitted_at: string | null;
  first_error_index: number | null;
}

export interface StepLabelCell {
  annotation_id: number;
  rating: Rating | null;
  unsure: boolean;
  comment: string;
  alternative_text: string;
  /** The annotator's marked dependencies (0-based); null: not marked. */
  uses?: number[] | null;
}

export interface ReviewStep {
  id: number;
  index: number;
  text: string;
  meta?: StepMeta;
  images?: string[];
  alternatives_count: number;
  gold_rating: Rating | null;
  resolved_rating: Rating | null;
  /** The earlier steps (0-based) it uses, as imported or detected. */
  uses?: number[];
  uses_source?: string;
  /** A step of the model's reasoning trace (`<think>` block). */
  thinking?: boolean;
  labels: StepLabelCell[];
  suggestions: Suggestion[];
  /** Two submitted ratings of the step differ. */
  humans_differ?: boolean;
  /** Machine sources whose value differs from a submitted human rating. */
  machine_differs?: string[];
}

export interface ReviewComment {
  id: number;
  step_id: number | null;
  author: string;
  body: string;
  review_id: number | null;
  created_at: string;
}

export interface ReviewActionRow {
  id: number;
  action: "accept" | "reject" | "adjudicate" | string;
  annotation_id: number | null;
  reviewer: string;
  comment: string;
  created_at: string;
}

export interface HistoryRow {
  id: number;
  annotation_id: number | null;
  resolution_id: number | null;
  step_id: number;
  step_index: number;
  user: string | null;
  action: string;
  before: unknown;
  after: unknown;
  at: string;
}

export interface ReviewDetail {
  solution: {
    id: number;
    generator: string;
    final_answer: string;
    answer_correct: boolean | null;
    is_gold: boolean;
    source: string;
  };
  problem: TaskProblem;
  project: { id: number; name: string; rating_values: Rating[]; first_error_mode: boolean; domain?: Domain };
  reasons: ReviewReason[];
  /** Submitted annotations; 1 is its own state, never agreement. */
  annotators_submitted?: number;
  annotations: ReviewAnnotation[];
  steps: ReviewStep[];
  resolution: Resolution | null;
  resolutions: Resolution[];
  comments: ReviewComment[];
  reviews: ReviewActionRow[];
  history: HistoryRow[];
}

/** Query string of the review queue's filters (empty values left out). */
export function reviewQueueQuery(filters: ReviewQueueFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === "") continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `?${qs}` : "";
}

export const getReviewQueue = (projectId: number, filters: ReviewQueueFilters = {}) =>
  get<ReviewQueuePage>(`/api/projects/${projectId}/review/queue/${reviewQueueQuery(filters)}`);
export const getReview = (solutionId: number) => get<ReviewDetail>(`/api/solutions/${solutionId}/review/`);
export const acceptAnnotation = (annotationId: number, data: { comment?: string; expected_resolution_id: number | null }) =>
  post<Resolution>(`/api/annotations/${annotationId}/accept/`, data);
export const rejectAnnotation = (annotationId: number, comment: string) =>
  post<{ rejected_id: number; rework_id: number; annotator_id: number }>(`/api/annotations/${annotationId}/reject/`, {
    comment,
  });
export const adjudicateSolution = (
  solutionId: number,
  data: { labels: ResolvedLabel[]; comment?: string; expected_resolution_id: number | null },
) => post<Resolution>(`/api/solutions/${solutionId}/adjudicate/`, data);
export const listComments = (solutionId: number) => get<ReviewComment[]>(`/api/solutions/${solutionId}/comments/`);
export const addComment = (solutionId: number, body: string, stepId: number | null = null) =>
  post<ReviewComment>(`/api/solutions/${solutionId}/comments/`, stepId === null ? { body } : { body, step_id: stepId });
