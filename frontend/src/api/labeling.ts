/** The annotator's side: tasks from the queue, drafts, submit and skip, progress, rework. */
import { get, post, request, type RequestOptions } from "./client";
import { getAll } from "./pages";
import type { Domain, Rating } from "./projects";

export type FinishReason = "solution" | "found_error" | "give_up" | "bad_problem";

export interface Suggestion {
  source: string;
  agent: string;
  value: Rating | null;
  score: number | null;
  evidence: unknown;
}

/** A problem as the labeling and review pages show it. */
export interface TaskProblem {
  id: number;
  text: string;
  answer: string;
  source: string;
  images?: string[];
  /** An agent problem's tool names. */
  tools?: string[];
  /** An embodied episode's goal and initial state (predicates), when the import gave them. */
  episode?: { goal?: string[]; initial_state?: string[] } | null;
  /** An evidence-cited problem's source documents and tables (steps cite them). */
  documents?: EvidenceDocument[];
  tables?: EvidenceTable[];
  /** The problem's domain: its own in a many-domains project, else the project's. */
  domain?: Domain;
  /** A graph problem's graph and task (domain `graph`); null for other problems. */
  graph?: ProblemGraph | null;
}

export interface ProblemGraph {
  directed: boolean;
  weighted: boolean;
  nodes: string[];
  /** [u, v] or [u, v, weight]. */
  edges: (string | number)[][];
  task: { kind?: string; source?: string; target?: string; algorithm?: string };
}

export interface EvidenceDocument {
  id: string;
  title: string;
  text: string;
}

export interface EvidenceTable {
  id: string;
  title: string;
  columns: string[];
  rows: (string | number | null)[][];
}

/** What a step cites: a quote or a character span of a document, or a table cell (0-based). */
export type Citation =
  | { doc: string; quote: string }
  | { doc: string; start: number; end: number }
  | { table: string; row: number; column: number };

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
  /** The earlier steps (0-based) it uses, as imported or detected. */
  uses?: number[];
  /** "import", "detected" or "" (none). */
  uses_source?: string;
  /** A step of the model's reasoning trace (`<think>` block): shown folded until opened. */
  thinking?: boolean;
}

export interface StepMeta {
  /** Agent steps: tool_call, observation, message; embodied steps: plan, action, observation, subgoal. */
  kind?: "tool_call" | "observation" | "message" | "plan" | "action" | "subgoal";
  role?: string;
  name?: string;
  /** A tool call's arguments as the model wrote them (JSON, or not). */
  arguments?: string;
  tool_call_id?: string;
  /** Embodied steps: the logged success signal, predicates and time (seconds into the episode). */
  success?: boolean;
  preconditions?: string[];
  effects?: string[];
  timestamp?: number;
  /** Evidence-cited steps: what the step cites in the problem's documents and tables. */
  citations?: Citation[];
}

export interface StepLabel {
  step_id: number;
  rating: Rating | null;
  unsure: boolean;
  comment: string;
  alternative_text: string;
  /** The earlier steps (0-based) the annotator marked this step as using; null: not marked. */
  uses?: number[] | null;
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
  problem: TaskProblem;
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
    /** Annotators may split a step or merge it with the next (S / m on the labeling page). */
    allow_resegment?: boolean;
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
  /** Also claim the next task and answer it as `next_task`: one request per task. */
  next?: boolean;
}

/** A submit's answer; `next_task` when the submit asked for `next` (null: nothing left). */
export interface Submitted extends Annotation {
  next_task?: Task | null;
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

/** The next task for this annotator (their own unexpired draft first), or null when done. */
export const nextTask = async (projectId: number): Promise<Task | null> =>
  (await post<Task | undefined>(`/api/projects/${projectId}/queue/next/`)) ?? null;
export const saveDraft = (annotationId: number, payload: DraftPayload, options?: RequestOptions) =>
  request<Annotation>("PUT", `/api/annotations/${annotationId}/draft/`, payload, options);
/** The submit's `request_id` also goes as its Idempotency-Key: one per submit, the same on retries. */
export const submitAnnotation = (annotationId: number, payload: SubmitPayload) =>
  post<Submitted>(`/api/annotations/${annotationId}/submit/`, payload, { idempotencyKey: payload.request_id });
export const skipAnnotation = (annotationId: number, requestId?: string) =>
  post<void>(`/api/annotations/${annotationId}/skip/`, requestId ? { request_id: requestId } : undefined);
/** Split a step of the draft's solution at `offset` (a code-point offset into its text); the
 *  answer is the task with its new steps and the annotation's new version. */
export const splitStep = (annotationId: number, body: { version: number; step_id: number; offset: number }) =>
  post<Task>(`/api/annotations/${annotationId}/steps/split/`, body);
/** Merge a step with the next; the answer is the task with its new steps. */
export const mergeStep = (annotationId: number, body: { version: number; step_id: number }) =>
  post<Task>(`/api/annotations/${annotationId}/steps/merge/`, body);
export const getProgress = (projectId: number) =>
  get<Progress>(`/api/projects/${projectId}/progress/`);

/** Every rejection the user still has to rework (its rework a draft), newest first: the
 * server's `?rework=draft` filter, read page by page (not the newest 50 of all of them). */
export const listRejectionsToRework = (projectId: number) =>
  getAll<Rejection>(`/api/projects/${projectId}/rejections/?rework=draft`);
