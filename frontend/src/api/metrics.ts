/** Agreement, throughput and label metrics for the dashboard. */
import { get } from "./client";
import type { Domain } from "./projects";
import type { ReviewQueueCounts } from "./review";

export interface MetricsPair {
  a: string;
  b: string;
  steps: number;
  agreement: number | null;
  cohen_kappa: number | null;
}

export interface ThroughputRow {
  annotator?: string;
  day?: string;
  solutions: number;
  steps: number;
  hours: number;
  solutions_per_hour: number | null;
  steps_per_hour: number | null;
  median_seconds_per_solution: number | null;
}

/** One problem domain of a many-domains project: progress and agreement. */
export interface DomainMetrics {
  domain: Domain | "";
  problems: number;
  solutions: number;
  started: number;
  done: number;
  progress: number | null;
  annotations: number;
  rated_steps: number;
  alpha_ordinal: number | null;
  pairwise_agreement: number | null;
  first_error_alpha: number | null;
  first_error_solutions: number;
}

/** One annotator's own numbers: their submissions, skips, time and agreement with others. */
export interface AnnotatorTotals {
  annotator: string;
  submitted: number;
  skipped: number;
  hours: number;
  /** Steps they rated that someone else rated too. */
  shared_steps: number;
  /** Their share of agreeing ratings on those steps; null without a shared step. */
  agreement: number | null;
}

export interface ProjectMetrics {
  step_ratings: {
    steps: number;
    alpha_ordinal: number | null;
    fleiss_kappa: number | null;
    fleiss_raters: number;
    fleiss_steps: number;
    pairwise_agreement: number | null;
  };
  pairs: MetricsPair[];
  first_error: { solutions: number; alpha_nominal: number | null; pairwise_agreement: number | null };
  gold: Array<{
    annotator: string;
    steps: number;
    step_accuracy: number | null;
    solutions: number;
    first_error_accuracy: number | null;
  }>;
  auto_sources: Array<{ annotator: string; source: string; steps: number; agreement: number; cohen_kappa: number | null }>;
  throughput: { by_annotator: ThroughputRow[]; by_day: ThroughputRow[]; by_annotator_day: ThroughputRow[] };
  label_distribution: Array<{ annotator: string; wrong: number; neutral: number; correct: number; unrated: number; unsure: number }>;
  /** Per problem domain of a many-domains project (empty otherwise). */
  domains?: DomainMetrics[];
  /** Solutions with 0 / 1 / 2+ submitted annotations; agreement reads the 2+ only.
   * Absent from a snapshot made before it existed. */
  coverage?: { solutions: number; none: number; one: number; two_plus: number };
  /** The review queue's exact counts as of `computed_at` (absent from older snapshots). */
  review?: { unresolved: ReviewQueueCounts; resolved: number };
  /** Each annotator's own totals (absent from older snapshots). */
  annotators?: AnnotatorTotals[];
  /** A snapshot (`cached`) is exact at `computed_at` and `changes_since` writes behind (0: exact
   * now; null: unknown); one behind is refreshed in the background (`refreshing`). */
  computed_at?: string | null;
  cached?: boolean;
  refreshing?: boolean;
  changes_since?: number | null;
}

/** 202 from the metrics endpoint: a large project's first snapshot is being computed. */
export interface MetricsComputing {
  status: "computing";
}

export const getMetrics = (projectId: number, refresh = false) =>
  get<ProjectMetrics | MetricsComputing>(`/api/projects/${projectId}/metrics/${refresh ? "?refresh=1" : ""}`);
