/** Projects, their settings and members, and the solutions table. */
import { get, post, request, type Page } from "./client";
import { getAll } from "./pages";

export type Rating = -1 | 0 | 1;
export type Role = "annotator" | "reviewer" | "admin";
export type LabelScale = "prm800k" | "binary";
export type StepSplit = "line" | "paragraph" | "step_marker" | "regex" | "sentence" | "step_tags";

/** What a project's steps are: decides the labeling page's rendering and the checkers. */
export type Domain =
  | "math"
  | "code"
  | "agent"
  | "multimodal"
  | "text"
  | "graph"
  | "embodied"
  | "evidence"
  | "mixed";

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
  /** Annotators may split a step or merge it with the next while labeling. */
  allow_resegment?: boolean;
  step_split: StepSplit;
  step_split_regex: string;
  /** The step_tags rule's tag: <extra_0> (Qwen PRM), ки (Math-Shepherd), <step>, or any literal. */
  step_split_tag?: string;
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
  /** When `stats` were counted: null when now (a small project), else the time of the metrics
   * snapshot a large project's stats come from. */
  stats_computed_at: string | null;
  /** Set while a changed overlap is applied to the claim pool by a background job; null once
   * applied (older servers leave it out). */
  queue_refresh_since?: string | null;
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
  /** They still have the temporary password an admin made: not signed in yet. */
  temporary_password?: boolean;
  /** You may issue them a new temporary password (they still hold one, and every rule allows). */
  temporary_password_reissue?: boolean;
}

export interface SolutionRow {
  id: number;
  problem_text: string;
  generator: string;
  steps_count: number;
  submitted_count: number;
  answer_correct: boolean | null;
}

/** The caller's projects, by name (a paginated list: `usePagedList(projectsPath)`). */
export const projectsPath = "/api/projects/";
export const listProjects = () => get<Page<Project>>(projectsPath);
export const getProject = (id: number) => get<Project>(`/api/projects/${id}/`);
export const createProject = (data: Partial<ProjectSettings> & { name: string }) =>
  post<Project>("/api/projects/", data);
export const updateProject = (id: number, data: Partial<ProjectSettings>) =>
  request<Project>("PATCH", `/api/projects/${id}/`, data);

/** Marks the project deleted (202) and its rows go in the background; from then on it
 *  answers 410 `project_deleted` and leaves every list. */
export const deleteProject = (id: number) =>
  request<{ id: number; deleted_at: string }>("DELETE", `/api/projects/${id}/`);

/** The project's members, by username: a paginated list (a page at a time: usePagedList). */
export const membersPath = (projectId: number) => `/api/projects/${projectId}/members/`;
/** Every member, for a picker (the assignments form). */
export const listAllMembers = (projectId: number) => getAll<Member>(membersPath(projectId));
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
