/**
 * The labeling page's state: one label per step, the current step, and an undo history.
 *
 * Pure reducer + selectors, no React: the page, the keyboard and the autosaver all go through it.
 * `revision` goes up on every change to the labels, which is what autosave watches.
 *
 * First-error mode (PRM800K phase 2): the annotator stops at the first wrong step. Steps after
 * the first −1 are dimmed, cannot be rated and are not required; submitting then finishes with
 * `found_error`.
 */
import type { FinishReason, Rating, StepLabel, Task } from "../api";
import { effectiveUses, toggleUse } from "./dependencies";
import { orderSuggestions } from "./suggestions";

export interface Snapshot {
  labels: StepLabel[];
  /** The step the change touched: undo puts the cursor back there. */
  current: number;
}

export interface LabelState {
  stepIds: number[];
  labels: StepLabel[];
  /** Per step, the first suggestion (in `orderSuggestions` order) that fits the scale; null when none or hidden. */
  suggested: (Rating | null)[];
  current: number;
  firstErrorMode: boolean;
  ratingValues: Rating[];
  /** Per step, the earlier steps it uses as imported or detected (the annotator's marks go in its label). */
  stepUses?: number[][];
  history: Snapshot[];
  revision: number;
}

export type LabelAction =
  | { type: "load"; task: Task }
  | { type: "rate"; value: Rating; index?: number }
  | { type: "clearRating"; index?: number }
  | { type: "move"; delta: number }
  | { type: "goto"; index: number }
  | { type: "toggleUnsure"; index?: number }
  | { type: "setComment"; index: number; text: string }
  | { type: "setAlternative"; index: number; text: string }
  | { type: "acceptSuggestions" }
  /** One suggestion, clicked: rates that step like a rating button does (undoable). */
  | { type: "acceptSuggestion"; index: number; value: Rating }
  /** `d` then a step number: the step at `index` (default: current) uses `target` (0-based), or no longer. */
  | { type: "toggleUse"; target: number; index?: number }
  | { type: "undo" };

export const HISTORY_LIMIT = 200;

export function emptyLabel(stepId: number): StepLabel {
  return { step_id: stepId, rating: null, unsure: false, comment: "", alternative_text: "" };
}

export function initialState(task: Task): LabelState {
  const steps = [...task.solution.steps].sort((a, b) => a.index - b.index);
  const saved = new Map(task.annotation.labels.map((l) => [l.step_id, l]));
  const ratingValues = (task.project.rating_values?.length ? task.project.rating_values : [-1, 0, 1]) as Rating[];
  const labels = steps.map((s) => {
    const l = saved.get(s.id);
    return l
      ? {
          step_id: s.id,
          rating: l.rating ?? null,
          unsure: !!l.unsure,
          comment: l.comment ?? "",
          alternative_text: l.alternative_text ?? "",
          ...(l.uses != null ? { uses: [...l.uses] } : {}),
        }
      : emptyLabel(s.id);
  });
  const suggested = steps.map((s) => {
    if (!task.project.show_suggestions) return null;
    const hit = orderSuggestions(s.suggestions ?? []).find((g) => g.value !== null && ratingValues.includes(g.value));
    return hit ? (hit.value as Rating) : null;
  });
  const state: LabelState = {
    stepIds: steps.map((s) => s.id),
    labels,
    suggested,
    current: 0,
    firstErrorMode: !!task.project.first_error_mode,
    ratingValues,
    stepUses: steps.map((s) => s.uses ?? []),
    history: [],
    revision: 0,
  };
  const unrated = firstUnrated(state);
  return { ...state, current: unrated >= 0 ? unrated : 0 };
}

// --- selectors --------------------------------------------------------------------------------

/** The earlier steps step `index` uses: the annotator's marks, else the step's own. */
export function usesOf(state: Pick<LabelState, "labels" | "stepUses">, index: number): number[] {
  return effectiveUses(state.labels[index]?.uses, state.stepUses?.[index]);
}

/** Index of the first step rated −1 in first-error mode, else −1. */
export function firstErrorIndex(state: Pick<LabelState, "labels" | "firstErrorMode">): number {
  if (!state.firstErrorMode) return -1;
  return state.labels.findIndex((l) => l.rating === -1);
}

/** Steps after the first error (first-error mode only): shown dimmed, not required. */
export function isDimmed(state: LabelState, index: number): boolean {
  const fe = firstErrorIndex(state);
  return fe >= 0 && index > fe;
}

/** How many steps need a rating before a normal submit: all, or up to the first error. */
export function requiredCount(state: LabelState): number {
  const fe = firstErrorIndex(state);
  return fe >= 0 ? fe + 1 : state.labels.length;
}

/** The first required step without a rating, or −1 when every required step is rated. */
export function firstUnrated(state: LabelState): number {
  const n = requiredCount(state);
  for (let i = 0; i < n; i++) if (state.labels[i].rating === null) return i;
  return -1;
}

/** Complete = ready for a "solution"/"found_error" submit (give up / bad problem never need it). */
export function isComplete(state: LabelState): boolean {
  return state.labels.length > 0 && firstUnrated(state) < 0;
}

/** `n`: the first required step without a rating after `from`, wrapping round; −1 when every
 * required step is rated. */
export function nextUnrated(state: LabelState, from: number): number {
  const n = requiredCount(state);
  for (let k = 1; k <= n; k++) {
    const i = (from + k) % n;
    if (state.labels[i].rating === null) return i;
  }
  return -1;
}

export function ratedCount(state: LabelState): number {
  const n = requiredCount(state);
  return state.labels.slice(0, n).filter((l) => l.rating !== null).length;
}

export function finishReasonFor(state: LabelState): FinishReason {
  return firstErrorIndex(state) >= 0 ? "found_error" : "solution";
}

/** Labels as autosaved: everything, including ratings hidden behind a first error (for undo). */
export function labelsForDraft(state: LabelState): StepLabel[] {
  return state.labels.map((l) => ({ ...l }));
}

/** Labels as submitted: in first-error mode, ratings after the first error are dropped. */
export function labelsForSubmit(state: LabelState): StepLabel[] {
  const fe = firstErrorIndex(state);
  return state.labels.map((l, i) => (fe >= 0 && i > fe ? { ...l, rating: null } : { ...l }));
}

// --- reducer ----------------------------------------------------------------------------------

function clamp(i: number, n: number): number {
  return Math.max(0, Math.min(n - 1, i));
}

/** Where the cursor goes after rating step `from`: the next unrated step, else the next step. */
function advanceFrom(state: LabelState, from: number): number {
  const n = requiredCount(state);
  for (let i = from + 1; i < n; i++) if (state.labels[i].rating === null) return i;
  const anyUnrated = firstUnrated(state);
  if (anyUnrated >= 0) return anyUnrated;
  return clamp(Math.min(from + 1, n - 1), state.labels.length);
}

function withChange(
  state: LabelState,
  labels: StepLabel[],
  current: number,
  changed: number = current,
): LabelState {
  const history = [...state.history, { labels: state.labels, current: changed }];
  if (history.length > HISTORY_LIMIT) history.splice(0, history.length - HISTORY_LIMIT);
  return { ...state, labels, current, history, revision: state.revision + 1 };
}

function update(state: LabelState, index: number, patch: Partial<StepLabel>): StepLabel[] {
  return state.labels.map((l, i) => (i === index ? { ...l, ...patch } : l));
}

export function labelReducer(state: LabelState, action: LabelAction): LabelState {
  const n = state.labels.length;
  if (action.type === "load") return initialState(action.task);
  if (n === 0) return state;

  switch (action.type) {
    case "acceptSuggestion":
    case "rate": {
      const index = action.index ?? state.current;
      if (index < 0 || index >= n || !state.ratingValues.includes(action.value)) return state;
      if (isDimmed(state, index)) return { ...state, current: index };
      if (state.labels[index].rating === action.value) {
        return { ...state, current: advanceFrom(state, index) };
      }
      const labels = update(state, index, { rating: action.value });
      const next = { ...state, labels };
      const stop = state.firstErrorMode && action.value === -1;
      return withChange(state, labels, stop ? index : advanceFrom(next, index), index);
    }
    case "clearRating": {
      const index = action.index ?? state.current;
      if (state.labels[index]?.rating == null) return state;
      return withChange(state, update(state, index, { rating: null }), index);
    }
    case "move":
      return { ...state, current: clamp(state.current + action.delta, n) };
    case "goto":
      return { ...state, current: clamp(action.index, n) };
    case "toggleUnsure": {
      const index = action.index ?? state.current;
      if (!state.labels[index]) return state;
      return withChange(state, update(state, index, { unsure: !state.labels[index].unsure }), index);
    }
    case "setComment": {
      const label = state.labels[action.index];
      if (!label || label.comment === action.text) return state;
      return withChange(state, update(state, action.index, { comment: action.text }), action.index);
    }
    case "setAlternative": {
      const label = state.labels[action.index];
      if (!label || label.alternative_text === action.text) return state;
      return withChange(
        state,
        update(state, action.index, { alternative_text: action.text }),
        action.index,
      );
    }
    case "acceptSuggestions": {
      const labels = state.labels.map((l) => ({ ...l }));
      let changed = -1;
      for (let i = 0; i < n; i++) {
        // Stops after the first −1 (first-error mode): the steps before i were looked at already,
        // so one look at step i−1 says it (no rescan of them all: thousands of steps).
        if (state.firstErrorMode && i > 0 && labels[i - 1].rating === -1) break;
        const value = state.suggested[i];
        if (labels[i].rating === null && value !== null) {
          labels[i].rating = value;
          if (changed < 0) changed = i;
        }
      }
      if (changed < 0) return state;
      const next = { ...state, labels };
      const unrated = firstUnrated(next);
      const fe = firstErrorIndex(next);
      const cursor = unrated >= 0 ? unrated : fe >= 0 ? fe : state.current;
      return withChange(state, labels, cursor, changed);
    }
    case "toggleUse": {
      const index = action.index ?? state.current;
      if (!state.labels[index]) return state;
      const uses = toggleUse(usesOf(state, index), action.target, index);
      if (uses === null) return state;
      return withChange(state, update(state, index, { uses }), index);
    }
    case "undo": {
      const last = state.history[state.history.length - 1];
      if (!last) return state;
      return {
        ...state,
        labels: last.labels,
        current: clamp(last.current, n),
        history: state.history.slice(0, -1),
        revision: state.revision + 1,
      };
    }
    default:
      return state;
  }
}
