/** Export snapshots: options, status, the file and its dataset card. */
import { ApiError, failure, get, post, request, type Page, type RequestOptions } from "./client";
import { getAll } from "./pages";

export type ExportFormat =
  | "trl"
  | "prm800k"
  | "math_shepherd"
  | "processbench"
  | "pairwise"
  | "dense_rewards"
  | "openrlhf"
  | "chat_template";
export type ExportFileType = "jsonl" | "jsonl.gz" | "parquet";
export type ExportStatus = "pending" | "running" | "done" | "failed";
export type ExportLabelSource = "final" | "reviewed" | "human" | "imported" | "annotations" | "auto_consensus" | "auto_any";

/** Options as the API takes them (labeling/api/exports.py ExportInput); omitted keys take the defaults. */
export interface ExportFilters {
  label_source?: ExportLabelSource;
  /** label_source final: machine labels for the steps no human labeled (default false). */
  machine_labels?: boolean;
  auto_sources?: string[];
  min_agreement?: number;
  unsure?: "drop" | "truncate" | "keep";
  labeled_after?: string | null;
  labeled_before?: string | null;
  annotators?: string[];
  problem_sources?: string[];
  /** Problem domains (a many-domains project's); empty: all. */
  domains?: string[];
  include_gold?: boolean;
  /** Machine label sources only: the lowest calibrated score (0–1) a suggestion may have. */
  min_score?: number | null;
  /** Benchmark sets whose problems (exact or near-duplicate copies) are left out of the export. */
  decontaminate?: BenchmarkSet[];
}

/** A JSONL file in the server's benchmark folder, or one split of a Hub dataset. */
export type BenchmarkSet = { file: string } | { hub: string; config: string; split: string };

export interface ExportLabelPolicy {
  neutral?: "positive" | "negative";
  truncate_after_first_error?: boolean;
  human_written_positive?: boolean;
  soft_labels?: boolean;
  label_sources?: boolean;
  combine?: "majority" | "per_annotation";
  /** Step dependencies: not written, `uses` per step (TRL), or -1 passed on to the steps that use a -1 step. */
  dependency_policy?: "none" | "keep" | "inherit";
  /** openrlhf: the tag after each step (OpenRLHF's --placeholder_token), default "ки". */
  placeholder_token?: string;
  /** openrlhf: the hard labels, positive then negative (--reward_tokens), default ["+", "-"]. */
  reward_tokens?: string[];
  /** chat_template (required there): a local tokenizer directory or a cached Hub name. */
  tokenizer?: string;
  /** chat_template: the token after each step, default "<extra_0>". */
  step_separator?: string;
  /** chat_template: a system message before the problem; none when blank. */
  system_prompt?: string;
}

export interface ExportSplitPolicy {
  mode?: "hash" | "none";
  train?: number;
  validation?: number;
  test?: number;
  seed?: string;
}

export interface ExportRequest {
  format: ExportFormat;
  file_type?: ExportFileType;
  filters?: ExportFilters;
  label_policy?: ExportLabelPolicy;
  split_policy?: ExportSplitPolicy;
}

/** An export snapshot; the stored options are normalized (every default filled in). */
export interface Export {
  id: number;
  project: number;
  format: ExportFormat;
  file_type: ExportFileType;
  filters: ExportFilters;
  label_policy: ExportLabelPolicy;
  split_policy: ExportSplitPolicy;
  status: ExportStatus;
  progress: { solutions_done: number; solutions_total: number; fraction: number };
  row_count: number;
  step_count: number;
  stats: Record<string, unknown>;
  sha256: string;
  size_bytes: number;
  file_name: string | null;
  download_url: string | null;
  card_url: string | null;
  error: { message?: string };
  created_by: { id: number; username: string } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** Where final labels came from (labeling/exporters/final.py), and what was left out and why. */
export type FinalOrigin = "review" | "agreement" | "single" | "machine" | "tie" | "no_label";
export interface FinalLabelCounts {
  solutions: Record<FinalOrigin, number>;
  steps: Record<FinalOrigin, number>;
}

/** Before an export: labeling/api/exports.py ExportPreviewOutput. */
export interface ExportPreview {
  label_source: ExportLabelSource;
  solutions_labeled: number;
  solutions_unlabeled: number;
  solutions_read: number;
  /** The counts by origin cover only the first solutions_read solutions. */
  partial: boolean;
  final_labels: FinalLabelCounts | null;
}

export const previewExport = (projectId: number, data: Pick<ExportRequest, "filters" | "label_policy">, options?: RequestOptions) =>
  post<ExportPreview>(`/api/projects/${projectId}/exports/preview/`, data, options);

export const listExports = (projectId: number) => get<Page<Export>>(`/api/projects/${projectId}/exports/`);
/** Every finished TRL export (what a training run reads), newest first: the server's filter,
 * page by page, not the newest page of all exports filtered here. */
export const listTrainableExports = (projectId: number) =>
  getAll<Export>(`/api/projects/${projectId}/exports/?export_format=trl&status=done`);
export const createExport = (projectId: number, data: ExportRequest) =>
  post<Export>(`/api/projects/${projectId}/exports/`, data);
export const getExport = (id: number, options?: RequestOptions) => get<Export>(`/api/exports/${id}/`, options);
export const deleteExport = (id: number) => request<void>("DELETE", `/api/exports/${id}/`);
/** The data file (a plain link: the browser streams it to disk with the session cookie). */
export const exportDownloadUrl = (id: number) => `/api/exports/${id}/download/`;

/** The export's dataset card (Markdown). Errors come back as JSON, like every other call. */
export async function getExportCard(id: number): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`/api/exports/${id}/card/`, {
      credentials: "same-origin",
      headers: { Accept: "text/markdown, application/json" },
    });
  } catch {
    throw new ApiError(0, "network_error", "You appear to be offline.");
  }
  const text = await response.text();
  if (response.ok) return text;
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  throw failure(response.status, data);
}
