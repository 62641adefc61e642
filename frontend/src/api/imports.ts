/** File imports: the jobs, and the upload with progress. */
import { ApiError, csrfToken, failure, get, post, type Page } from "./client";
import type { StepSplit } from "./projects";

export type ImportFormat =
  | "auto"
  | "prm800k"
  | "processbench"
  | "prmbench"
  | "math_shepherd"
  | "trl"
  | "gsm8k"
  | "math"
  | "steplab"
  | "messages"
  | "embodied"
  | "graphsilo"
  | "finqa";
export type LabelsAs = "suggestions" | "annotations" | "none";

export interface ImportResult {
  format: string;
  rows: number;
  problems_created: number;
  problems_existing: number;
  solutions_created: number;
  solutions_skipped: number;
  steps_created: number;
  labels_created: number;
  /** New problems that are near-duplicates of the project's or of earlier ones in the file. */
  near_duplicates?: NearDuplicatesReport;
}

export type NearDuplicates = "keep" | "skip";

export interface NearDuplicatesReport {
  mode: NearDuplicates;
  existing: number;
  in_file: number;
  skipped_solutions: number;
  project_checked: boolean;
  examples: Array<{ line: number; problem: string; near: string; near_id: string; of: "existing" | "in_file" }>;
}

export interface ImportErrorInfo {
  message?: string;
  file?: string;
  line?: number | null;
  field?: string;
}

export interface ImportJob {
  id: number;
  filename: string;
  format: ImportFormat;
  detected_format: string;
  /** The step-reference detector ran on rows that give no `uses`. */
  detect_uses: boolean;
  near_duplicates?: NearDuplicates;
  /** The step rule this import cut one-string solutions by ("" : an import from before it was kept). */
  step_split?: StepSplit | "";
  step_split_regex?: string;
  step_split_tag?: string;
  /** A Hub import: the dataset, config, split and revision (and, once fetched, files and rows). */
  hub: { repo_id?: string; config?: string; split?: string; revision?: string; rows?: number; files?: string[] };
  status: "pending" | "running" | "done" | "failed";
  bytes_total: number;
  bytes_done: number;
  rows_done: number;
  result: Partial<ImportResult>;
  error: ImportErrorInfo;
  created_at: string;
  finished_at: string | null;
}

export const listImports = (projectId: number) =>
  get<Page<ImportJob>>(`/api/projects/${projectId}/imports/`);
export const getImport = (id: number) => get<ImportJob>(`/api/imports/${id}/`);

/** How a solution given as one string becomes steps; `step_split` "" means the project's rule. */
export interface StepRule {
  step_split: StepSplit | "";
  step_split_regex: string;
  step_split_tag: string;
}
export const NO_STEP_RULE: StepRule = { step_split: "", step_split_regex: "", step_split_tag: "" };

/** A solution text cut into steps by a rule, as an import would (nothing is written). */
export interface StepPreview {
  step_split: StepSplit;
  step_split_regex: string;
  step_split_tag: string;
  count: number;
  thinking: number;
  steps: Array<{ text: string; thinking: boolean }>;
}
export const previewSteps = (projectId: number, text: string, rule: StepRule) =>
  post<StepPreview>(`/api/projects/${projectId}/step-preview/`, { text, ...rule });

/** One config's split of a Hugging Face Hub dataset, fetched and imported by a worker. */
export interface HubImport {
  hub_repo: string;
  hub_config: string;
  hub_split: string;
  hub_revision: string;
  format: ImportFormat;
  labels_as: LabelsAs;
  domain?: string;
  detect_uses?: boolean;
  near_duplicates?: NearDuplicates;
  step_split?: StepSplit | "";
  step_split_regex?: string;
  step_split_tag?: string;
}
export const importFromHub = (projectId: number, data: HubImport) => post<ImportJob>(`/api/projects/${projectId}/imports/`, data);

/**
 * Uploads an import file with XMLHttpRequest (fetch has no upload progress).
 * Resolves with the ImportJob the server queued (202).
 */
export function uploadImport(
  projectId: number,
  file: File,
  format: ImportFormat,
  labelsAs: LabelsAs,
  onProgress: (loaded: number, total: number) => void,
  /** A many-domains project: the domain of rows that name none ("" : every row names one). */
  domain = "",
  /** Detect the earlier steps a step refers to where a row gives no `uses` (the default). */
  detectUses = true,
  /** Near-duplicate problems: imported and reported (keep), or left out and reported (skip). */
  nearDuplicates: NearDuplicates = "keep",
  /** This import's step rule ({step_split: ""}: the project's). */
  stepRule: StepRule = NO_STEP_RULE,
): { promise: Promise<ImportJob>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<ImportJob>((resolve, reject) => {
    const form = new FormData();
    form.append("file", file);
    form.append("format", format);
    form.append("labels_as", labelsAs);
    if (domain) form.append("domain", domain);
    if (!detectUses) form.append("detect_uses", "false");
    form.append("near_duplicates", nearDuplicates);
    if (stepRule.step_split) {
      form.append("step_split", stepRule.step_split);
      if (stepRule.step_split === "regex") form.append("step_split_regex", stepRule.step_split_regex);
      if (stepRule.step_split === "step_tags") form.append("step_split_tag", stepRule.step_split_tag);
    }
    xhr.open("POST", `/api/projects/${projectId}/imports/`);
    xhr.withCredentials = true;
    xhr.setRequestHeader("X-CSRFToken", csrfToken());
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, "network_error", "The upload failed: network error."));
    xhr.onabort = () => reject(new ApiError(0, "aborted", "The upload was cancelled."));
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(data as ImportJob);
      } else {
        reject(failure(xhr.status, data));
      }
    };
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
