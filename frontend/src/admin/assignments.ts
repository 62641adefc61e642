/** The Assignments tab's form, as pure functions: ids from pasted text, the API request. */
import type { AssignStrategy, AssignmentRequest } from "../api";

export interface AssignForm {
  mode: "filter" | "list";
  source: string; // "" = every source
  onlyOpen: boolean;
  onlyUnassigned: boolean;
  count: string; // "" = all matching
  idsText: string;
  userIds: number[];
  strategy: AssignStrategy;
  weights: Record<number, string>;
  perSolution: string; // "" = the project's overlap
}

export const STRATEGIES: Array<{ value: AssignStrategy; label: string; help: string }> = [
  { value: "round_robin", label: "Round robin", help: "Solutions are dealt out in turn: everyone gets the same share." },
  { value: "weighted", label: "Weighted", help: "Shares follow the weights (2 gets twice as many as 1)." },
  { value: "each", label: "Everyone", help: "Every chosen annotator gets every solution." },
];

export function emptyForm(): AssignForm {
  return {
    mode: "filter",
    source: "",
    onlyOpen: true,
    onlyUnassigned: true,
    count: "",
    idsText: "",
    userIds: [],
    strategy: "round_robin",
    weights: {},
    perSolution: "",
  };
}

/** Solution ids from text pasted in any shape ("1, 2 3\n4", "#5"); `invalid` lists the rest. */
export function parseIds(text: string): { ids: number[]; invalid: string[] } {
  const ids: number[] = [];
  const invalid: string[] = [];
  for (const token of text.split(/[\s,;]+/)) {
    if (!token) continue;
    const clean = token.replace(/^#/, "");
    if (/^\d+$/.test(clean) && Number(clean) > 0) {
      if (!ids.includes(Number(clean))) ids.push(Number(clean));
    } else invalid.push(token);
  }
  return { ids, invalid };
}

/** The request for POST .../assignments/ (and its preview), or the reason it cannot be sent. */
export function buildRequest(form: AssignForm): { request: AssignmentRequest } | { error: string } {
  if (form.userIds.length === 0) return { error: "Choose at least one annotator." };
  const request: AssignmentRequest = { user_ids: form.userIds, strategy: form.strategy };
  if (form.mode === "list") {
    const { ids, invalid } = parseIds(form.idsText);
    if (invalid.length) return { error: `Not solution ids: ${invalid.slice(0, 5).join(", ")}` };
    if (ids.length === 0) return { error: "Paste the solution ids to assign." };
    request.solution_ids = ids;
    request.only_open = false;
  } else {
    if (form.source) request.source = form.source;
    request.only_open = form.onlyOpen;
    request.only_unassigned = form.onlyUnassigned;
    if (form.count.trim()) {
      const n = Number(form.count);
      if (!Number.isInteger(n) || n < 1) return { error: "How many must be a whole number from 1." };
      request.limit = n;
    }
  }
  if (form.strategy === "weighted") {
    const weights = form.userIds.map((id) => Number(form.weights[id] ?? "1"));
    if (weights.some((w) => !Number.isFinite(w) || w <= 0)) return { error: "Every weight must be a positive number." };
    request.weights = weights;
  }
  if (form.strategy !== "each" && form.perSolution.trim()) {
    const k = Number(form.perSolution);
    if (!Number.isInteger(k) || k < 1) return { error: "Annotators per solution must be a whole number from 1." };
    request.per_solution = k;
  }
  return { request };
}
