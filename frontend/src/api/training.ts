/** PRM training runs, registered PRMs and the claim order they drive. */
import { get, post, request, type Page, type RequestOptions } from "./client";

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
// A project holds at most COLLECTION_CAPS["prm_models"] (100) models: one page of 200 is all of them.
export const listPrmModels = (projectId: number) =>
  get<Page<PrmModel>>(`/api/projects/${projectId}/prm-models/?limit=200`).then((page) => page.results);
export const registerPrmModel = (projectId: number, data: { name: string; path: string }) =>
  post<PrmModel>(`/api/projects/${projectId}/prm-models/`, data);
export const deletePrmModel = (projectId: number, modelId: number) =>
  request<void>("DELETE", `/api/projects/${projectId}/prm-models/${modelId}/`);
export const getQueueOrder = (projectId: number) =>
  get<{ order: QueueOrder }>(`/api/projects/${projectId}/queue-priority/`);
export const setQueueOrder = (projectId: number, order: QueueOrder) =>
  request<{ order: QueueOrder }>("PUT", `/api/projects/${projectId}/queue-priority/`, { order });
