/** The annotator's own work: My work (submitted and skipped), Back, reopen and resubmit. */
import { get, post, type Page } from "./client";
import type { Annotation, DraftPayload, FinishReason, Task } from "./labeling";

export interface MyWorkRow {
  annotation_id: number;
  solution_id: number;
  status: "submitted" | "skipped";
  finish_reason: FinishReason | "";
  /** A current resolution rests on it: resubmitting sends it back to review. */
  reviewed: boolean;
  /** When it was last submitted or skipped. */
  at: string;
  /** The problem's text (its first 600 characters). */
  problem_text: string;
  problem_source: string;
}

export interface MyWorkQuery {
  q?: string;
  status?: "submitted" | "skipped" | "";
  limit?: number;
  offset?: number;
}

/** The most rows one page asks for (the server's bound). */
export const MY_WORK_MAX_LIMIT = 100;

export function listMyWork(projectId: number, query: MyWorkQuery = {}): Promise<Page<MyWorkRow>> {
  const params = new URLSearchParams();
  if (query.q?.trim()) params.set("q", query.q.trim().slice(0, 200));
  if (query.status) params.set("status", query.status);
  params.set("limit", String(Math.min(MY_WORK_MAX_LIMIT, Math.max(1, query.limit ?? 20))));
  params.set("offset", String(Math.max(0, query.offset ?? 0)));
  return get<Page<MyWorkRow>>(`/api/projects/${projectId}/my-work/?${params}`);
}

/** Back: reopen what the user submitted or skipped last (null: nothing yet). */
export const myWorkBack = async (projectId: number): Promise<Task | null> =>
  (await post<Task | undefined>(`/api/projects/${projectId}/my-work/back/`)) ?? null;

/** Open a submitted annotation (the same one, status "submitted") or a skipped one again (claimed anew: a draft). */
export const reopenAnnotation = (annotationId: number) => post<Task>(`/api/annotations/${annotationId}/reopen/`);

export interface ResubmitPayload extends DraftPayload {
  finish_reason: FinishReason;
  finish_reason_text: string;
}

/** Replace a submitted annotation's labels (a new version in the label history). */
export const resubmitAnnotation = (annotationId: number, payload: ResubmitPayload) =>
  post<Annotation>(`/api/annotations/${annotationId}/resubmit/`, payload, { idempotencyKey: payload.request_id });
