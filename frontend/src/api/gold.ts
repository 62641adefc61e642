/** Gold questions: marking a solution gold, and how annotators score on gold. */
import { request } from "./client";
import type { Rating } from "./projects";
import type { RatingLabel } from "./review";

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

export const setGold = (solutionId: number, labels: RatingLabel[]) =>
  request<{ solution_id: number; is_gold: boolean }>("PUT", `/api/solutions/${solutionId}/gold/`, { labels });
export const unsetGold = (solutionId: number) =>
  request<{ solution_id: number; is_gold: boolean }>("DELETE", `/api/solutions/${solutionId}/gold/`);

/** The project's gold questions, oldest first: a paginated list (usePagedList). */
export const goldPath = (projectId: number) => `/api/projects/${projectId}/gold/`;
