/**
 * Every call the SPA makes to the steplab REST API, typed.
 *
 * Session auth: Django sets a `csrftoken` cookie on the SPA page; every non-GET request sends it
 * back as `X-CSRFToken`. Errors always come as `{"error": {code, message, details}}` and are
 * thrown as `ApiError`. A `not_authenticated` error anywhere calls the handler set with
 * `setUnauthenticatedHandler` (the app redirects to /login).
 */

export type Rating = -1 | 0 | 1;
export type Role = "annotator" | "reviewer" | "admin";
export type LabelScale = "prm800k" | "binary";
export type StepSplit = "line" | "paragraph" | "step_marker" | "regex";
export type FinishReason = "solution" | "found_error" | "give_up" | "bad_problem";
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
  | "messages";
export type LabelsAs = "suggestions" | "annotations" | "none";
/** What a project's steps are: decides the labeling page's rendering and the checkers. */
export type Domain = "math" | "code" | "agent" | "multimodal" | "text";

export interface User {
  id: number;
  username: string;
  is_staff: boolean;
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface ProjectStats {
  problems: number;
  solutions: number;
  steps: number;
  submitted_annotations: number;
  complete_solutions: number;
}

export interface ProjectSettings {
  name: string;
  description: string;
  /** Default "math" (older fixtures and servers omit it). */
  domain?: Domain;
  guidelines: string;
  label_scale: LabelScale;
  first_error_mode: boolean;
  overlap: number;
  lock_ttl_seconds: number;
  show_suggestions: boolean;
  step_split: StepSplit;
  step_split_regex: string;
  /** Resolve a solution without review when its overlap annotators all agree. */
  auto_resolve: boolean;
  /** Share of claims that serve a gold question (0..1). */
  gold_rate: number;
  /** Gold questions a new annotator answers first (0: no screening). */
  screening_size: number;
  /** Share of screening steps that must match gold (0..1). */
  screening_pass_rate: number;
}

export interface Project extends ProjectSettings {
  id: number;
  /** The auto-label sources the domain allows, in display order. */
  domain_sources?: string[];
  rating_values: Rating[];
  role: Role;
  stats: ProjectStats;
  created_at: string;
}

export type ScreeningVerdict = "" | "passed" | "failed";

export interface Member {
  user: { id: number; username: string };
  role: Role;
  /** "" until judged (or after a reset), then "passed" or "failed". */
  screening?: ScreeningVerdict;
  /** Gold answers that count for the screening (since the last reset). */
  screening_answered?: number;
}

export interface ImportResult {
  format: string;
  rows: number;
  problems_created: number;
  problems_existing: number;
  solutions_created: number;
  solutions_skipped: number;
  steps_created: number;
  labels_created: number;
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
  status: "pending" | "running" | "done" | "failed";
  bytes_total: number;
  bytes_done: number;
  rows_done: number;
  result: Partial<ImportResult>;
  error: ImportErrorInfo;
  created_at: string;
  finished_at: string | null;
}

export interface SolutionRow {
  id: number;
  problem_text: string;
  generator: string;
  steps_count: number;
  submitted_count: number;
  answer_correct: boolean | null;
}

export interface Suggestion {
  source: string;
  agent: string;
  value: Rating | null;
  score: number | null;
  evidence: unknown;
}

export interface TaskStep {
  id: number;
  index: number;
  text: string;
  alternatives_count: number;
  suggestions: Suggestion[];
  /** Agent steps: what the step is ({} for plain steps). */
  meta?: StepMeta;
  /** Authenticated URLs of the step's images. */
  images?: string[];
}

export interface StepMeta {
  kind?: "tool_call" | "observation" | "message";
  role?: string;
  name?: string;
  /** A tool call's arguments as the model wrote them (JSON, or not). */
  arguments?: string;
  tool_call_id?: string;
}

export interface StepLabel {
  step_id: number;
  rating: Rating | null;
  unsure: boolean;
  comment: string;
  alternative_text: string;
}

export interface Annotation {
  id: number;
  solution_id: number;
  status: string;
  version: number;
  finish_reason: FinishReason | "";
  finish_reason_text: string;
  time_spent_ms: number;
  labels: StepLabel[];
  updated_at: string;
}

export interface Task {
  annotation: Annotation;
  solution: {
    id: number;
    generator: string;
    final_answer: string;
    answer_correct: boolean | null;
    steps: TaskStep[];
  };
  problem: {
    id: number;
    text: string;
    answer: string;
    source: string;
    images?: string[];
    /** An agent problem's tool names. */
    tools?: string[];
  };
  lock_expires_at: string;
  /** Set when a reviewer sent this annotation back (see `Rework`). */
  rework?: Rework | null;
  project: {
    id: number;
    name: string;
    guidelines: string;
    domain?: Domain;
    first_error_mode: boolean;
    rating_values: Rating[];
    show_suggestions: boolean;
  };
}

export interface Progress {
  done_today: number;
  submitted_total: number;
  remaining: number;
  /** More than `remaining` are left: the server counts up to a cap (1,000). */
  remaining_capped?: boolean;
  project_total: number;
}

export interface DraftPayload {
  version: number;
  labels: StepLabel[];
  time_spent_ms: number;
  /** Made once per write and sent again on its retries: a retry of an applied write is not a 409. */
  request_id?: string;
}

export interface SubmitPayload extends DraftPayload {
  finish_reason: FinishReason;
  finish_reason_text: string;
}

export type AutolabelSource = "answer" | "symbolic" | "rollout" | "judge" | "code" | "agent" | "prm" | "consensus";
export type AutolabelStatus = "pending" | "running" | "done" | "failed" | "cancelled";

export type ModelBackend =
  | { kind: "openai"; base_url?: string; model?: string }
  | { kind: "transformers"; path?: string; gguf_file?: string };

export interface AutolabelRunRequest {
  sources: AutolabelSource[];
  params?: Partial<Record<AutolabelSource, Record<string, unknown>>>;
  filter?: { only_unlabeled?: boolean };
}

export interface AutolabelRun {
  id: number;
  sources: string[];
  params: Record<string, unknown>;
  filter: { only_unlabeled?: boolean } & Record<string, unknown>;
  status: AutolabelStatus;
  total: number;
  done: number;
  failed: number;
  /** 0..1 */
  progress: number;
  suggestions_written: number;
  errors: Array<{ solution_id: number | null; error: string }>;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** An error response from the API, or a network failure (`code` "network_error"). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }

  get isNetwork(): boolean {
    return this.code === "network_error";
  }
}

let onUnauthenticated: (() => void) | null = null;

/** Called (once per failing request) when the API says the session is gone. */
export function setUnauthenticatedHandler(handler: (() => void) | null): void {
  onUnauthenticated = handler;
}

export function csrfToken(): string {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]*)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function writeHeaders(json: boolean): Record<string, string> {
  const headers: Record<string, string> = { "X-CSRFToken": csrfToken(), Accept: "application/json" };
  if (json) headers["Content-Type"] = "application/json";
  return headers;
}

/** Turns a non-2xx response body into an ApiError (whatever the body is). */
export function errorFrom(status: number, body: unknown): ApiError {
  const err = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  if (err && typeof err === "object") {
    return new ApiError(
      status,
      typeof err.code === "string" ? err.code : `http_${status}`,
      typeof err.message === "string" ? err.message : `Request failed (${status}).`,
      err.details && typeof err.details === "object" ? (err.details as Record<string, unknown>) : {},
    );
  }
  const generic: Record<number, string> = {
    403: "You do not have permission to do this.",
    404: "Not found.",
    500: "The server had an error. Try again in a moment.",
    502: "The server is not reachable right now.",
    503: "The server is not reachable right now.",
  };
  return new ApiError(status, `http_${status}`, generic[status] ?? `Request failed (${status}).`);
}

export interface RequestOptions {
  keepalive?: boolean;
  signal?: AbortSignal;
}

async function request<T>(
  method: string,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const form = body instanceof FormData; // multipart: the browser sets Content-Type
  const init: RequestInit = {
    method,
    credentials: "same-origin",
    headers: method === "GET" ? { Accept: "application/json" } : writeHeaders(body !== undefined && !form),
    keepalive: options.keepalive,
    signal: options.signal,
  };
  if (body !== undefined) init.body = form ? body : JSON.stringify(body);
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (e) {
    if ((e as Error)?.name === "AbortError") throw e;
    throw new ApiError(0, "network_error", "You appear to be offline.");
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const error = errorFrom(response.status, data);
    if (error.code === "not_authenticated") onUnauthenticated?.();
    throw error;
  }
  return data as T;
}

const get = <T>(url: string, options?: RequestOptions) => request<T>("GET", url, undefined, options);
const post = <T>(url: string, body?: unknown, options?: RequestOptions) =>
  request<T>("POST", url, body, options);

// --- auth -------------------------------------------------------------------------------------

export const me = () => get<User>("/api/auth/me/");
export const login = (username: string, password: string) =>
  post<User>("/api/auth/login/", { username, password });
export const logout = () => post<void>("/api/auth/logout/");

/** One of the signed-in user's API tokens (personal access tokens), for scripts
 * (`Authorization: Token <secret>` or `Bearer <secret>`). Never the secret itself. */
export interface ApiToken {
  id: number;
  name: string;
  /** The secret's first 8 characters, to tell tokens apart. */
  prefix: string;
  created_at: string;
  /** null: never expires. */
  expires_at: string | null;
  /** Accurate to a minute; null: never used. */
  last_used_at: string | null;
  expired: boolean;
}
/** A new token: the secret is in this reply only. */
export interface ApiTokenCreated extends ApiToken {
  token: string;
}
/** The user's tokens that are not revoked (expired ones included), newest first. */
export const listTokens = () => get<ApiToken[]>("/api/auth/tokens/");
/** Creates a token; the others keep working. `expiresInDays` null: never expires. */
export const createToken = (name: string, expiresInDays: number | null) =>
  post<ApiTokenCreated>("/api/auth/tokens/", { name, expires_in_days: expiresInDays });
/** Revokes one token: scripts that send it get 401 from now on. */
export const revokeToken = (id: number) => request<void>("DELETE", `/api/auth/tokens/${id}/`);

// --- projects ---------------------------------------------------------------------------------

export const listProjects = () => get<Page<Project>>("/api/projects/");
export const getProject = (id: number) => get<Project>(`/api/projects/${id}/`);
export const createProject = (data: Partial<ProjectSettings> & { name: string }) =>
  post<Project>("/api/projects/", data);
export const updateProject = (id: number, data: Partial<ProjectSettings>) =>
  request<Project>("PATCH", `/api/projects/${id}/`, data);

export const listMembers = (projectId: number) =>
  get<Member[]>(`/api/projects/${projectId}/members/`);
export const addMember = (projectId: number, username: string, role: Role) =>
  post<Member>(`/api/projects/${projectId}/members/`, { username, role });
export const updateMember = (projectId: number, userId: number, role: Role) =>
  request<Member>("PATCH", `/api/projects/${projectId}/members/${userId}/`, { role });
export const removeMember = (projectId: number, userId: number) =>
  request<void>("DELETE", `/api/projects/${projectId}/members/${userId}/`);

export const resetScreening = (projectId: number, userId: number) =>
  post<Member>(`/api/projects/${projectId}/members/${userId}/screening/reset/`);

export const listSolutions = (projectId: number, limit: number, offset: number) =>
  get<Page<SolutionRow>>(`/api/projects/${projectId}/solutions/?limit=${limit}&offset=${offset}`);

// --- imports ----------------------------------------------------------------------------------

export const listImports = (projectId: number) =>
  get<Page<ImportJob>>(`/api/projects/${projectId}/imports/`);
export const getImport = (id: number) => get<ImportJob>(`/api/imports/${id}/`);

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
): { promise: Promise<ImportJob>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<ImportJob>((resolve, reject) => {
    const form = new FormData();
    form.append("file", file);
    form.append("format", format);
    form.append("labels_as", labelsAs);
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
        const error = errorFrom(xhr.status, data);
        if (error.code === "not_authenticated") onUnauthenticated?.();
        reject(error);
      }
    };
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

// --- media ------------------------------------------------------------------------------------

/** A stored image of a project: `media` is its name in an import's `images` ({"media": name}). */
export interface MediaRef {
  media: string;
  content_type: string;
  /** Where members read it (GET, authenticated). */
  url: string;
}
/** Stores an image (PNG, JPEG, GIF, WebP; at most 5 MB) in the project; admins only. */
export function uploadMedia(projectId: number, file: File): Promise<MediaRef> {
  const form = new FormData();
  form.append("file", file);
  return post<MediaRef>(`/api/projects/${projectId}/media/`, form);
}

// --- labeling ---------------------------------------------------------------------------------

/** The next task for this annotator (their own unexpired draft first), or null when done. */
export const nextTask = async (projectId: number): Promise<Task | null> =>
  (await post<Task | undefined>(`/api/projects/${projectId}/queue/next/`)) ?? null;
export const saveDraft = (annotationId: number, payload: DraftPayload, options?: RequestOptions) =>
  request<Annotation>("PUT", `/api/annotations/${annotationId}/draft/`, payload, options);
export const submitAnnotation = (annotationId: number, payload: SubmitPayload) =>
  post<Annotation>(`/api/annotations/${annotationId}/submit/`, payload);
export const skipAnnotation = (annotationId: number, requestId?: string) =>
  post<void>(`/api/annotations/${annotationId}/skip/`, requestId ? { request_id: requestId } : undefined);
export const getProgress = (projectId: number) =>
  get<Progress>(`/api/projects/${projectId}/progress/`);

// --- auto-labeling ----------------------------------------------------------------------------

export const listAutolabelRuns = (projectId: number) =>
  get<Page<AutolabelRun>>(`/api/projects/${projectId}/autolabel-runs/`);
export const startAutolabelRun = (projectId: number, data: AutolabelRunRequest) =>
  post<AutolabelRun>(`/api/projects/${projectId}/autolabel-runs/`, data);
export const getAutolabelRun = (id: number, options?: RequestOptions) =>
  get<AutolabelRun>(`/api/autolabel-runs/${id}/`, options);
export const cancelAutolabelRun = (id: number) => post<AutolabelRun>(`/api/autolabel-runs/${id}/cancel/`);

// --- exports ----------------------------------------------------------------------------------

export type ExportFormat = "trl" | "prm800k" | "math_shepherd" | "processbench" | "pairwise";
export type ExportFileType = "jsonl" | "jsonl.gz" | "parquet";
export type ExportStatus = "pending" | "running" | "done" | "failed";
export type ExportLabelSource = "reviewed" | "human" | "imported" | "annotations" | "auto_consensus" | "auto_any";

/** Options as the API takes them (labeling/api/exports.py ExportInput); omitted keys take the defaults. */
export interface ExportFilters {
  label_source?: ExportLabelSource;
  auto_sources?: string[];
  min_agreement?: number;
  unsure?: "drop" | "truncate" | "keep";
  labeled_after?: string | null;
  labeled_before?: string | null;
  annotators?: string[];
  problem_sources?: string[];
  include_gold?: boolean;
  /** Machine label sources only: the lowest calibrated score (0–1) a suggestion may have. */
  min_score?: number | null;
}

export interface ExportLabelPolicy {
  neutral?: "positive" | "negative";
  truncate_after_first_error?: boolean;
  human_written_positive?: boolean;
  soft_labels?: boolean;
  label_sources?: boolean;
  combine?: "majority" | "per_annotation";
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

export const listExports = (projectId: number) => get<Page<Export>>(`/api/projects/${projectId}/exports/`);
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
  const error = errorFrom(response.status, data);
  if (error.code === "not_authenticated") onUnauthenticated?.();
  throw error;
}

// --- PRM training -----------------------------------------------------------------------------

export type TrainingStatus = "pending" | "running" | "done" | "failed" | "cancelled";

/** One line of the trainer's metrics.jsonl. */
export interface MetricRecord {
  step: number;
  split: string;
  loss?: number;
  accuracy?: number;
  f1?: number;
  [key: string]: unknown;
}

/** training.config.TrainConfig settings (data, model and out are the run's). */
export interface TrainingConfig {
  lr?: number;
  epochs?: number;
  max_steps?: number;
  batch_size?: number;
  grad_accum?: number;
  max_length?: number;
  head?: "linear" | "mlp2";
  lora?: boolean;
  bf16?: boolean;
  [key: string]: unknown;
}

export interface TrainingRunRequest {
  export: number;
  base_model: string;
  config?: TrainingConfig;
}

export interface TrainingRun {
  id: number;
  project: number;
  export: number | null;
  base_model: string;
  config: TrainingConfig;
  status: TrainingStatus;
  step: number;
  total_steps: number;
  /** 0..1 */
  progress: number;
  /**
   * The latest record per split; `truncation`: the trainer's report on labeled steps dropped at
   * max_length; `data`: its data_stats.json (per split counts) once done.
   */
  metrics: {
    train?: MetricRecord;
    eval?: MetricRecord;
    truncation?: string;
    data?: Record<string, Record<string, number>>;
  };
  /** Only in the detail view. */
  history?: MetricRecord[];
  log_tail?: string;
  artifact_path: string;
  error: string;
  attempts: number;
  prm_model: number | null;
  created_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface PrmModel {
  id: number;
  project: number;
  name: string;
  path: string;
  training_run: number | null;
  base_model: string;
  /** pointwise (step labels), pairwise (Bradley-Terry) or implicit (outcome labels only). */
  kind?: "pointwise" | "pairwise" | "implicit";
  metrics: { train?: MetricRecord; eval?: MetricRecord } & Record<string, unknown>;
  created_by: string | null;
  created_at: string;
}

export type QueueOrder = "default" | "prm_active";

export const listTrainingRuns = (projectId: number) =>
  get<Page<TrainingRun>>(`/api/projects/${projectId}/training-runs/`);
export const startTrainingRun = (projectId: number, data: TrainingRunRequest) =>
  post<TrainingRun>(`/api/projects/${projectId}/training-runs/`, data);
export const getTrainingRun = (id: number, options?: RequestOptions) =>
  get<TrainingRun>(`/api/training-runs/${id}/`, options);
export const cancelTrainingRun = (id: number) => post<TrainingRun>(`/api/training-runs/${id}/cancel/`);
export const listPrmModels = (projectId: number) => get<PrmModel[]>(`/api/projects/${projectId}/prm-models/`);
export const registerPrmModel = (projectId: number, data: { name: string; path: string }) =>
  post<PrmModel>(`/api/projects/${projectId}/prm-models/`, data);
export const getQueueOrder = (projectId: number) =>
  get<{ order: QueueOrder }>(`/api/projects/${projectId}/queue-priority/`);
export const setQueueOrder = (projectId: number, order: QueueOrder) =>
  request<{ order: QueueOrder }>("PUT", `/api/projects/${projectId}/queue-priority/`, { order });

// --- review -----------------------------------------------------------------------------------

export type ReviewReason = "disagreement" | "unsure" | "gold_failure" | "auto_conflict";
export type QueueState = "unresolved" | "resolved" | "all";
export type Provenance = "reviewer" | "human_consensus" | "auto_consensus";

export interface ReviewQueueFilters {
  annotator?: number | null;
  source?: string;
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
  rest: number;
}

export interface ReviewQueuePage extends Page<ReviewQueueItem> {
  counts: ReviewQueueCounts;
  /** Everyone the `annotator` filter can name (people with submitted labels). */
  annotators: Array<{ id: number; username: string }>;
}

export interface RatingLabel {
  step_id: number;
  rating: Rating | null;
}

export interface Resolution {
  id: number;
  provenance: Provenance;
  first_error_index: number | null;
  resolved_by: string | null;
  annotation_ids: number[];
  is_current: boolean;
  created_at: string;
  labels: RatingLabel[];
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
  labels: StepLabelCell[];
  suggestions: Suggestion[];
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
  problem: {
    id: number;
    text: string;
    answer: string;
    source: string;
    images?: string[];
    tools?: string[];
  };
  project: { id: number; name: string; rating_values: Rating[]; first_error_mode: boolean };
  reasons: ReviewReason[];
  annotations: ReviewAnnotation[];
  steps: ReviewStep[];
  resolution: Resolution | null;
  resolutions: Resolution[];
  comments: ReviewComment[];
  reviews: ReviewActionRow[];
  history: HistoryRow[];
}

export interface Rework {
  rejected_annotation_id: number;
  comment: string;
  reviewer: string | null;
  rejected_at: string | null;
}

/** One of the user's own rejected annotations (GET /api/projects/{id}/rejections/). */
export interface Rejection {
  id: number;
  solution_id: number;
  comment: string | null;
  reviewer: string | null;
  rejected_at: string | null;
  rework_id: number | null;
  rework_status: string | null;
}

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
  /** Large projects are served from a snapshot (`cached`), refreshed in the background. */
  computed_at?: string | null;
  cached?: boolean;
  refreshing?: boolean;
}

/** 202 from the metrics endpoint: a large project's first snapshot is being computed. */
export interface MetricsComputing {
  status: "computing";
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
  data: { labels: RatingLabel[]; comment?: string; expected_resolution_id: number | null },
) => post<Resolution>(`/api/solutions/${solutionId}/adjudicate/`, data);
export const listComments = (solutionId: number) => get<ReviewComment[]>(`/api/solutions/${solutionId}/comments/`);
export const addComment = (solutionId: number, body: string, stepId: number | null = null) =>
  post<ReviewComment>(`/api/solutions/${solutionId}/comments/`, stepId === null ? { body } : { body, step_id: stepId });
export const setGold = (solutionId: number, labels: RatingLabel[]) =>
  request<{ solution_id: number; is_gold: boolean }>("PUT", `/api/solutions/${solutionId}/gold/`, { labels });
export const unsetGold = (solutionId: number) =>
  request<{ solution_id: number; is_gold: boolean }>("DELETE", `/api/solutions/${solutionId}/gold/`);
export const listRejections = (projectId: number) => get<Rejection[]>(`/api/projects/${projectId}/rejections/`);
export const getMetrics = (projectId: number, refresh = false) =>
  get<ProjectMetrics | MetricsComputing>(`/api/projects/${projectId}/metrics/${refresh ? "?refresh=1" : ""}`);

// --- assignments and gold (admins) ----------------------------------------------------------------

export type AssignStrategy = "each" | "round_robin" | "weighted";

export interface AssignmentRequest {
  user_ids: number[];
  solution_ids?: number[];
  source?: string;
  only_open?: boolean;
  only_unassigned?: boolean;
  limit?: number;
  strategy: AssignStrategy;
  weights?: number[];
  per_solution?: number;
}

export interface AssignmentSummaryRow {
  user_id: number;
  username: string;
  assigned: number;
  submitted: number;
}

export interface ProblemSource {
  source: string;
  solutions: number;
  open: number;
  unassigned: number;
}

export interface GoldAnnotatorRow {
  annotator: string;
  steps: number;
  step_accuracy: number | null;
  first_error: number | null;
  first_error_correct: boolean;
}

export interface GoldRow {
  solution_id: number;
  problem_text: string;
  problem_source: string;
  generator: string;
  ratings: Array<Rating | null>;
  first_error: number | null;
  answers: number;
  step_accuracy: number | null;
  first_error_accuracy: number | null;
  annotators: GoldAnnotatorRow[];
}

export const listAssignments = (projectId: number) =>
  get<AssignmentSummaryRow[]>(`/api/projects/${projectId}/assignments/`);
export const previewAssignments = (projectId: number, data: AssignmentRequest, options?: RequestOptions) =>
  post<{ solutions: number; new: Record<string, number> }>(`/api/projects/${projectId}/assignments/preview/`, data, options);
export const createAssignments = (projectId: number, data: AssignmentRequest) =>
  post<{ created: Record<string, number> }>(`/api/projects/${projectId}/assignments/`, data);
export const clearAssignments = (projectId: number, data: { user_ids?: number[]; solution_ids?: number[] } = {}) =>
  request<{ deleted: number }>("DELETE", `/api/projects/${projectId}/assignments/`, data);
export const listProblemSources = (projectId: number) => get<ProblemSource[]>(`/api/projects/${projectId}/problem-sources/`);
export const listGold = (projectId: number) => get<GoldRow[]>(`/api/projects/${projectId}/gold/`);
