/** Assigning solutions to annotators (admins). */
import { post, request, type RequestOptions } from "./client";
import { getAll } from "./pages";

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

/** Every assigned user's counts (paginated on the server: one row per user, read whole here). */
export const listAssignments = (projectId: number) =>
  getAll<AssignmentSummaryRow>(`/api/projects/${projectId}/assignments/`);
export const previewAssignments = (projectId: number, data: AssignmentRequest, options?: RequestOptions) =>
  post<{ solutions: number; new: Record<string, number> }>(`/api/projects/${projectId}/assignments/preview/`, data, options);
export const createAssignments = (projectId: number, data: AssignmentRequest) =>
  post<{ created: Record<string, number> }>(`/api/projects/${projectId}/assignments/`, data);
export const clearAssignments = (projectId: number, data: { user_ids?: number[]; solution_ids?: number[] } = {}) =>
  request<{ deleted: number }>("DELETE", `/api/projects/${projectId}/assignments/`, data);
export const listProblemSources = (projectId: number) => getAll<ProblemSource>(`/api/projects/${projectId}/problem-sources/`);
