/** Assigning solutions to annotators (admins). */
import { post, request, type Page, type RequestOptions } from "./client";
import { getAll, getAllPages } from "./pages";

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

/** The sources with their counts. A large project's are stored (counted in the background):
 * `as_of` says when they were counted if anything changed since (null: exact), `refreshing`
 * that a count is under way (a project never counted yet has no sources until it is done). */
export interface ProblemSources {
  sources: ProblemSource[];
  as_of: string | null;
  refreshing: boolean;
}
type ProblemSourcePage = Page<ProblemSource> & { as_of?: string | null; refreshing?: boolean };
export async function listProblemSources(projectId: number): Promise<ProblemSources> {
  const { rows, last } = await getAllPages<ProblemSource, ProblemSourcePage>(`/api/projects/${projectId}/problem-sources/`);
  return { sources: rows, as_of: last?.as_of ?? null, refreshing: last?.refreshing ?? false };
}
