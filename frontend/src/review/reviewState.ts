/**
 * The review page's state, pure: which annotations are shown as columns, where they disagree,
 * the reviewer's decision per step (the adjudicated rating, and the earlier steps it uses where
 * decided), the step cursor and the selected annotator column. The page wires it to the
 * keyboard and the API.
 */
import type { Rating, ResolvedLabel, ReviewAnnotation, ReviewDetail, ReviewStep } from "../api";
import { sameUses, toggleUse } from "../label/dependencies";

/** Annotations shown side by side: submitted ones and rejected ones (greyed), oldest first. */
export function reviewColumns(detail: ReviewDetail): ReviewAnnotation[] {
  return detail.annotations.filter((a) => a.status === "submitted" || a.status === "rejected");
}

/** Drafts still being labeled (first time or rework after a rejection). */
export function inProgress(detail: ReviewDetail): ReviewAnnotation[] {
  return detail.annotations.filter((a) => a.status === "draft");
}

function submittedIds(detail: ReviewDetail): Set<number> {
  return new Set(detail.annotations.filter((a) => a.status === "submitted").map((a) => a.id));
}

/** The distinct ratings submitted annotations gave a step (nulls left out). */
export function stepRatings(step: ReviewStep, submitted: Set<number>): Rating[] {
  const seen = new Set<Rating>();
  for (const cell of step.labels) {
    if (submitted.has(cell.annotation_id) && cell.rating !== null) seen.add(cell.rating);
  }
  return [...seen].sort();
}

export interface StepFacts {
  /** Submitted annotations rated this step differently. */
  disagrees: boolean;
  /** Some submitted annotation marked the step unsure. */
  unsure: boolean;
  /** At least one submitted annotation rated it. */
  rated: boolean;
  /** The one rating every submitted annotation that rated it gave, if they agree. */
  agreed: Rating | null;
  /** The step is some submitted annotation's first error while another's differs. */
  firstErrorSplit: boolean;
  /** How many submitted annotations rated it: one rating is not agreement. */
  raters: number;
  /** Machine sources whose value differs from a submitted human rating (the API's). */
  machineDiffers: string[];
  /** A disagreement to look at: humans differ (ratings or first errors) or human ≠ machine. */
  marked: boolean;
}

export function stepFacts(detail: ReviewDetail): StepFacts[] {
  const submitted = submittedIds(detail);
  const firstErrors = detail.annotations
    .filter((a) => submitted.has(a.id))
    .map((a) => a.first_error_index);
  const split = new Set(firstErrors).size > 1;
  return detail.steps.map((step) => {
    const ratings = stepRatings(step, submitted);
    const disagrees = ratings.length > 1 || !!step.humans_differ;
    const firstErrorSplit = split && firstErrors.includes(step.index);
    const machineDiffers = step.machine_differs ?? [];
    return {
      disagrees,
      unsure: step.labels.some((c) => submitted.has(c.annotation_id) && c.unsure),
      rated: ratings.length > 0,
      agreed: ratings.length === 1 ? ratings[0] : null,
      firstErrorSplit,
      raters: step.labels.filter((c) => submitted.has(c.annotation_id) && c.rating !== null).length,
      machineDiffers,
      marked: disagrees || firstErrorSplit || machineDiffers.length > 0,
    };
  });
}

/** "agreed": two or more annotators gave the step the same rating; "single": one did (not
 * agreement: nobody checked it). */
export type DecisionOrigin = "resolution" | "agreed" | "single" | "reviewer" | null;

export interface ReviewState {
  stepIds: number[];
  decisions: Array<Rating | null>;
  /** Where each decision came from: the current resolution, the annotators' agreement, you. */
  origins: DecisionOrigin[];
  /** Steps someone rated: these need a decision before an adjudication can be sent. */
  needed: boolean[];
  current: number;
  /** Index into the columns (reviewColumns), -1 when there are none. */
  column: number;
  columnIds: number[];
  /** annotation id -> its rating per step (by position). */
  columnRatings: Record<number, Array<Rating | null>>;
  /** Per step, the earlier steps (0-based) it uses as imported or detected (Step.uses). */
  stepUses: number[][];
  /** Per step, the dependencies decided with the resolution; null: not decided, the step's
   * own stand. From the current resolution, else the annotators' marks where all agree. */
  uses: Array<number[] | null>;
  /** annotation id -> the earlier steps it marked each step as using (null: not marked). */
  columnUses: Record<number, Array<number[] | null>>;
  ratingValues: Rating[];
  firstErrorMode: boolean;
  /** Per step: marked as a disagreement (StepFacts.marked); `m` jumps between them. */
  marked: boolean[];
  /** Bumped on every change the reviewer makes. */
  revision: number;
}

export const EMPTY_REVIEW: ReviewState = {
  stepIds: [],
  decisions: [],
  origins: [],
  needed: [],
  current: 0,
  column: -1,
  columnIds: [],
  columnRatings: {},
  stepUses: [],
  uses: [],
  columnUses: {},
  ratingValues: [-1, 0, 1],
  firstErrorMode: false,
  marked: [],
  revision: 0,
};

export type ReviewAction =
  /** `keepCursor`: the same solution reloaded; keep the current step and column. */
  | { type: "load"; detail: ReviewDetail; keepCursor?: boolean }
  | { type: "move"; delta: number }
  /** To the next (delta 1) or previous (-1) marked step, wrapping around. */
  | { type: "nextMarked"; delta: 1 | -1 }
  | { type: "goto"; index: number }
  | { type: "rate"; value: Rating; index?: number }
  | { type: "clear"; index?: number }
  | { type: "selectColumn"; delta: number }
  | { type: "setColumn"; column: number }
  /** Take the selected column's rating for the current step (or `index`). */
  | { type: "take"; index?: number; annotationId?: number }
  /** Take every rating of the selected column (or `annotationId`). */
  | { type: "takeColumn"; annotationId?: number }
  /** `d` then a step number: the step at `index` (default: current) uses `target`, or no longer. */
  | { type: "toggleUse"; target: number; index?: number };

/** The dependencies every submitted annotation gives a step (its marks, else the step's own),
 * when they all agree and differ from the step's own; else null (nothing to decide). */
function agreedUses(step: ReviewStep, submitted: Set<number>): number[] | null {
  const own = step.uses ?? [];
  const given = step.labels.filter((c) => submitted.has(c.annotation_id)).map((c) => c.uses ?? own);
  if (!given.length || given.some((u) => !sameUses(u, given[0]))) return null;
  return sameUses(given[0], own) ? null : [...given[0]];
}

/** The earlier steps step `i` uses: the decision, else the step's own. */
export function usesOf(s: Pick<ReviewState, "uses" | "stepUses">, i: number): number[] {
  return s.uses[i] ?? s.stepUses[i] ?? [];
}

/** Decisions to start from: the current resolution, else the steps the annotators agree on. */
export function initialState(detail: ReviewDetail): ReviewState {
  const columns = reviewColumns(detail);
  const facts = stepFacts(detail);
  const resolved = detail.resolution ? new Map<number, ResolvedLabel>(detail.resolution.labels.map((l) => [l.step_id, l])) : null;
  const submitted = submittedIds(detail);
  const decisions: Array<Rating | null> = [];
  const origins: DecisionOrigin[] = [];
  const uses: Array<number[] | null> = [];
  detail.steps.forEach((step, i) => {
    if (resolved) {
      const label = resolved.get(step.id);
      const r = label?.rating ?? null;
      decisions.push(r);
      origins.push(r === null ? null : "resolution");
      // Decided as the step's own: nothing to show or send.
      uses.push(label?.uses && !sameUses(label.uses, step.uses ?? []) ? [...label.uses] : null);
    } else {
      decisions.push(facts[i].agreed);
      origins.push(facts[i].agreed === null ? null : facts[i].raters > 1 ? "agreed" : "single");
      uses.push(agreedUses(step, submitted));
    }
  });
  const columnRatings: Record<number, Array<Rating | null>> = {};
  const columnUses: Record<number, Array<number[] | null>> = {};
  for (const a of columns) {
    const cells = detail.steps.map((s) => s.labels.find((c) => c.annotation_id === a.id));
    columnRatings[a.id] = cells.map((c) => c?.rating ?? null);
    columnUses[a.id] = cells.map((c) => (c?.uses ? [...c.uses] : null));
  }
  const firstDisagreement = facts.findIndex((f) => f.disagrees);
  const firstMarked = facts.findIndex((f) => f.marked);
  const firstSubmitted = columns.findIndex((a) => a.status === "submitted");
  return {
    stepIds: detail.steps.map((s) => s.id),
    decisions,
    origins,
    needed: facts.map((f) => f.rated),
    current: firstDisagreement >= 0 ? firstDisagreement : Math.max(firstMarked, 0),
    column: columns.length ? Math.max(firstSubmitted, 0) : -1,
    columnIds: columns.map((a) => a.id),
    columnRatings,
    stepUses: detail.steps.map((st) => [...(st.uses ?? [])]),
    uses,
    columnUses,
    ratingValues: detail.project.rating_values,
    firstErrorMode: detail.project.first_error_mode,
    marked: facts.map((f) => f.marked),
    revision: 0,
  };
}

const clamp = (i: number, n: number) => Math.max(0, Math.min(n - 1, i));

/** The marked step after (delta 1) or before (-1) `from`, wrapping around; null if none. */
export function nextMarked(marked: boolean[], from: number, delta: 1 | -1): number | null {
  const n = marked.length;
  for (let k = 1; k <= n; k++) {
    const i = (((from + delta * k) % n) + n) % n;
    if (marked[i]) return i;
  }
  return null;
}

/** In first-error mode, the adjudicated first wrong step (-1 when none). */
export function decidedFirstError(s: ReviewState): number {
  return s.firstErrorMode ? s.decisions.indexOf(-1) : -1;
}

/** Steps after the adjudicated first error in first-error mode: sent as unrated. */
export function isAfterFirstError(s: ReviewState, i: number): boolean {
  const fe = decidedFirstError(s);
  return fe >= 0 && i > fe;
}

/** Steps that still need a decision (someone rated them; not after the first error). */
export function missingDecisions(s: ReviewState): number[] {
  const out: number[] = [];
  s.decisions.forEach((d, i) => {
    if (d === null && s.needed[i] && !isAfterFirstError(s, i)) out.push(i);
  });
  return out;
}

/** The gold request's labels: every step once; after a first error, unrated. */
export function decidedRatings(s: ReviewState): Array<{ step_id: number; rating: Rating | null }> {
  return s.stepIds.map((id, i) => ({ step_id: id, rating: isAfterFirstError(s, i) ? null : s.decisions[i] }));
}

/** The adjudication request's labels: the ratings, with `uses` on the steps whose
 * dependencies were decided. */
export function adjudicationLabels(s: ReviewState): ResolvedLabel[] {
  return decidedRatings(s).map((label, i) => (s.uses[i] ? { ...label, uses: s.uses[i] } : label));
}

function nextOpen(s: ReviewState, from: number): number {
  for (let i = from + 1; i < s.decisions.length; i++) {
    if (s.decisions[i] === null && s.needed[i] && !isAfterFirstError(s, i)) return i;
  }
  return clamp(from + 1, s.decisions.length);
}

function withDecision(s: ReviewState, i: number, value: Rating | null): ReviewState {
  const decisions = s.decisions.slice();
  const origins = s.origins.slice();
  decisions[i] = value;
  origins[i] = value === null ? null : "reviewer";
  return { ...s, decisions, origins, revision: s.revision + 1 };
}

/** Step `i` decided to use `uses` (null: the step's own); a decision equal to the step's own
 * is stored as null, so nothing is sent for it. */
function withUses(s: ReviewState, i: number, uses: number[] | null): ReviewState {
  const next = s.uses.slice();
  next[i] = uses === null || sameUses(uses, s.stepUses[i] ?? []) ? null : uses;
  return { ...s, uses: next };
}

function columnOf(s: ReviewState, annotationId?: number): number | null {
  const id = annotationId ?? s.columnIds[s.column];
  return id === undefined ? null : id;
}

export function reviewReducer(s: ReviewState, a: ReviewAction): ReviewState {
  const n = s.decisions.length;
  switch (a.type) {
    case "load": {
      const next = initialState(a.detail);
      if (!a.keepCursor || next.stepIds.join() !== s.stepIds.join()) return next;
      const column = next.columnIds.indexOf(s.columnIds[s.column]);
      return { ...next, current: clamp(s.current, n), column: column >= 0 ? column : next.column };
    }
    case "move":
      return n ? { ...s, current: clamp(s.current + a.delta, n) } : s;
    case "goto":
      return n ? { ...s, current: clamp(a.index, n) } : s;
    case "nextMarked": {
      const at = nextMarked(s.marked, s.current, a.delta);
      return at === null ? s : { ...s, current: at };
    }
    case "rate": {
      if (!n || !s.ratingValues.includes(a.value)) return s;
      const i = a.index ?? s.current;
      const next = withDecision(s, i, a.value);
      return a.index === undefined ? { ...next, current: nextOpen(next, i) } : next;
    }
    case "clear":
      return n ? withDecision(s, a.index ?? s.current, null) : s;
    case "selectColumn":
      return s.columnIds.length ? { ...s, column: clamp(s.column + a.delta, s.columnIds.length) } : s;
    case "setColumn":
      return s.columnIds.length ? { ...s, column: clamp(a.column, s.columnIds.length) } : s;
    case "take": {
      const id = columnOf(s, a.annotationId);
      const i = a.index ?? s.current;
      if (id === null || !n) return s;
      const rating = s.columnRatings[id]?.[i] ?? null;
      const next = withUses(withDecision(s, i, rating), i, s.columnUses[id]?.[i] ?? null);
      return a.index === undefined ? { ...next, current: clamp(i + 1, n) } : next;
    }
    case "takeColumn": {
      const id = columnOf(s, a.annotationId);
      if (id === null || !n) return s;
      const ratings = s.columnRatings[id] ?? [];
      return {
        ...s,
        decisions: s.decisions.map((_, i) => ratings[i] ?? null),
        origins: s.decisions.map((_, i) => (ratings[i] == null ? null : "reviewer")),
        uses: s.decisions.map((_, i) => s.columnUses[id]?.[i] ?? null),
        revision: s.revision + 1,
      };
    }
    case "toggleUse": {
      const i = a.index ?? s.current;
      if (!n) return s;
      const uses = toggleUse(usesOf(s, i), a.target, i);
      return uses === null ? s : { ...withUses(s, i, uses), revision: s.revision + 1 };
    }
    default:
      return s;
  }
}

export const REASON_LABEL: Record<string, string> = {
  disagreement: "Disagreement",
  unsure: "Unsure",
  gold_failure: "Gold failure",
  auto_conflict: "Human vs auto",
  single_annotator: "1 annotator",
  rest: "Annotators agree",
};

export const REASON_HELP: Record<string, string> = {
  disagreement: "Annotators rated a step differently or chose different first errors",
  unsure: "An annotator marked a step unsure",
  gold_failure: "A gold solution's known label differs from a submitted one",
  auto_conflict: "A submitted +1 on a step a symbolic check refuted",
  single_annotator: "Only one annotator submitted: nobody agreed or disagreed with them yet",
  rest: "Two or more annotators agree and nothing is flagged; review when the rest is done",
};

export const PROVENANCE_LABEL: Record<string, string> = {
  reviewer: "Reviewer",
  human_consensus: "Human consensus",
  auto_consensus: "Auto consensus",
};
