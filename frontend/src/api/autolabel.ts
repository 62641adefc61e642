/** Auto-label runs: the engines that pre-fill suggestions. */
import { get, post, type Page, type RequestOptions } from "./client";

export type AutolabelSource =
  | "answer"
  | "symbolic"
  | "rollout"
  | "judge"
  | "code"
  | "agent"
  | "prm"
  | "consensus"
  | "graph"
  | "subgoal"
  | "citation";
export type AutolabelStatus = "pending" | "running" | "paused" | "done" | "failed" | "cancelled";

export type ModelBackend =
  | { kind: "openai"; base_url?: string; model?: string }
  | { kind: "transformers"; path?: string; gguf_file?: string };

export interface AutolabelRunRequest {
  /** Built-in sources and installed plug-ins' names (GET /api/autolabel-engines/). */
  sources: string[];
  params?: Record<string, Record<string, unknown>>;
  filter?: { only_unlabeled?: boolean };
}

/** One field of a plug-in's parameter form (autolabel/plugins/schema.py). */
export type EngineParam =
  | { name: string; type: "int" | "float"; default: number; label: string; help: string; minimum: number; maximum: number }
  | { name: string; type: "bool"; default: boolean; label: string; help: string }
  | { name: string; type: "string"; default: string; label: string; help: string; max_length: number }
  | { name: string; type: "choice"; default: string; label: string; help: string; choices: string[] };

/** An engine the server runs: a built-in (its own form here) or an installed plug-in. */
export interface AutolabelEngine {
  name: string;
  label: string;
  description: string;
  queue: string;
  builtin: boolean;
  /** "distribution version" of a plug-in; null for a built-in. */
  plugin: string | null;
  /** The project domains a plug-in applies to; empty: every domain. */
  domains: string[];
  /** A plug-in's parameter form; null for a built-in. */
  params: EngineParam[] | null;
}

export interface AutolabelRun {
  id: number;
  sources: string[];
  params: Record<string, unknown>;
  filter: { only_unlabeled?: boolean } & Record<string, unknown>;
  status: AutolabelStatus;
  /** 0 until the start task has listed the run's solutions (`prepared`). */
  total: number;
  done: number;
  failed: number;
  /** False while the start task still writes the run's items (a run created over the API). */
  prepared?: boolean;
  /** 0..1 */
  progress: number;
  /** Solutions a second, smoothed over chunk completions; null before the first chunk. */
  rate: number | null;
  /** Seconds left at that rate, while running. */
  eta_seconds: number | null;
  suggestions_written: number;
  /** Suggestions written by verdict; "doubtful" and "evidence" carry no rating. */
  verdicts: { plus: number; zero: number; minus: number; doubtful: number; evidence: number };
  /** The first errors, with their solution. */
  errors: Array<{ solution_id: number | null; error: string }>;
  /** Every failure, by message, with its count (bounded; the rest under "Other errors"). */
  error_groups: Array<{ error: string; count: number }>;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export const listAutolabelRuns = (projectId: number) =>
  get<Page<AutolabelRun>>(`/api/projects/${projectId}/autolabel-runs/`);
export const startAutolabelRun = (projectId: number, data: AutolabelRunRequest) =>
  post<AutolabelRun>(`/api/projects/${projectId}/autolabel-runs/`, data);
export const getAutolabelRun = (id: number, options?: RequestOptions) =>
  get<AutolabelRun>(`/api/autolabel-runs/${id}/`, options);
export const cancelAutolabelRun = (id: number) => post<AutolabelRun>(`/api/autolabel-runs/${id}/cancel/`);
export const listAutolabelEngines = () => get<AutolabelEngine[]>("/api/autolabel-engines/");

/** A suggestion source (GET /api/machine-sources/): a built-in one or an installed plug-in's. */
export interface MachineSource {
  name: string;
  label: string;
  plugin: boolean;
  /** In an export's default auto_sources. */
  default: boolean;
}

/** Every source, in the export's default priority order, then the other built-ins, then the
 * plug-ins: exactly the names an export's auto_sources and the explorer's filter take. */
export const listMachineSources = () => get<MachineSource[]>("/api/machine-sources/");
export const pauseAutolabelRun = (id: number) => post<AutolabelRun>(`/api/autolabel-runs/${id}/pause/`);
export const resumeAutolabelRun = (id: number) => post<AutolabelRun>(`/api/autolabel-runs/${id}/resume/`);
