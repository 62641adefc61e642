import { describe, expect, it } from "vitest";
import { makeReviewDetail } from "../test/fakeReview";
import {
  adjudicationLabels,
  initialState,
  missingDecisions,
  reviewColumns,
  reviewReducer,
  stepFacts,
  type ReviewState,
} from "./reviewState";

const run = (s: ReviewState, ...actions: Parameters<typeof reviewReducer>[1][]) => actions.reduce(reviewReducer, s);

describe("stepFacts", () => {
  it("finds the steps submitted annotations disagree on, unsure ones and split first errors", () => {
    const facts = stepFacts(makeReviewDetail());
    expect(facts.map((f) => f.disagrees)).toEqual([false, true, true, false]);
    expect(facts.map((f) => f.agreed)).toEqual([1, null, null, 1]);
    expect(facts.map((f) => f.unsure)).toEqual([false, false, true, false]);
    // alice has no wrong step, bob's first error is step 2: a first-error split on step 2 only
    expect(facts.map((f) => f.firstErrorSplit)).toEqual([false, true, false, false]);
  });

  it("ignores rejected annotations and unrated cells", () => {
    const detail = makeReviewDetail({ ratings: [[1, null, 1], [-1, 1, 1]], statuses: ["submitted", "rejected"] });
    const facts = stepFacts(detail);
    expect(facts.map((f) => f.disagrees)).toEqual([false, false, false]);
    expect(facts.map((f) => f.rated)).toEqual([true, false, true]);
    expect(reviewColumns(detail).map((a) => a.status)).toEqual(["submitted", "rejected"]);
  });
});

describe("initialState", () => {
  it("pre-fills the agreed steps and starts on the first disagreement", () => {
    const s = initialState(makeReviewDetail());
    expect(s.decisions).toEqual([1, null, null, 1]);
    expect(s.origins).toEqual(["agreed", null, null, "agreed"]);
    expect(s.current).toBe(1);
    expect(s.column).toBe(0);
    expect(missingDecisions(s)).toEqual([1, 2]);
  });

  it("starts from the current resolution when there is one", () => {
    const detail = makeReviewDetail({
      resolution: {
        id: 5,
        provenance: "reviewer",
        first_error_index: 1,
        resolved_by: "rev",
        annotation_ids: [10, 11],
        is_current: true,
        created_at: "2025-06-01T10:00:00Z",
        labels: [200, 201, 202, 203].map((step_id, i) => ({ step_id, rating: i === 1 ? -1 : 1 })),
      },
    });
    const s = initialState(detail);
    expect(s.decisions).toEqual([1, -1, 1, 1]);
    expect(s.origins.every((o) => o === "resolution")).toBe(true);
  });
});

describe("reviewReducer", () => {
  it("rating the current step moves to the next undecided one", () => {
    const s = run(initialState(makeReviewDetail()), { type: "rate", value: -1 });
    expect(s.decisions[1]).toBe(-1);
    expect(s.origins[1]).toBe("reviewer");
    expect(s.current).toBe(2);
    expect(missingDecisions(s)).toEqual([2]);
  });

  it("refuses a rating off the scale (0 in a binary project)", () => {
    const s0 = initialState(makeReviewDetail({ ratingValues: [-1, 1], ratings: [[1, 1], [1, -1]] }));
    expect(run(s0, { type: "rate", value: 0 })).toBe(s0);
  });

  it("picks the selected annotator's rating per step, or their whole column", () => {
    let s = initialState(makeReviewDetail());
    s = run(s, { type: "selectColumn", delta: 1 }, { type: "take" });
    expect(s.decisions[1]).toBe(-1);
    expect(s.current).toBe(2);
    s = run(s, { type: "selectColumn", delta: 5 }); // clamped to the last column
    expect(s.column).toBe(1);
    s = run(s, { type: "setColumn", column: 0 }, { type: "takeColumn" });
    expect(s.decisions).toEqual([1, 1, 1, 1]);
    s = run(s, { type: "takeColumn", annotationId: 11 });
    expect(s.decisions).toEqual([1, -1, 0, 1]);
  });

  it("sends unrated steps after the adjudicated first error in first-error mode", () => {
    let s = initialState(makeReviewDetail({ firstErrorMode: true, ratings: [[1, 1, 1, 1], [1, -1, null, null]] }));
    expect(missingDecisions(s)).toEqual([1]);
    s = run(s, { type: "rate", value: -1 });
    expect(missingDecisions(s)).toEqual([]);
    expect(adjudicationLabels(s)).toEqual([
      { step_id: 200, rating: 1 },
      { step_id: 201, rating: -1 },
      { step_id: 202, rating: null },
      { step_id: 203, rating: null },
    ]);
  });

  it("keeps the cursor and column when the same solution reloads", () => {
    const detail = makeReviewDetail();
    let s = run(initialState(detail), { type: "goto", index: 3 }, { type: "setColumn", column: 1 });
    s = run(s, { type: "load", detail, keepCursor: true });
    expect([s.current, s.column]).toEqual([3, 1]);
    s = run(s, { type: "load", detail });
    expect([s.current, s.column]).toEqual([1, 0]);
  });

  it("clears a decision and moves within bounds", () => {
    let s = initialState(makeReviewDetail());
    s = run(s, { type: "goto", index: 0 }, { type: "clear" }, { type: "move", delta: -3 });
    expect(s.decisions[0]).toBeNull();
    expect(s.current).toBe(0);
    expect(run(s, { type: "move", delta: 10 }).current).toBe(3);
  });
});

describe("step dependencies (uses)", () => {
  /** makeReviewDetail with step 3 detected to use step 2, and marks per annotation. */
  function withUses(marks: Record<number, Record<number, number[]>>, resolutionUses?: Record<number, number[] | null>) {
    const detail = makeReviewDetail({
      resolution: resolutionUses
        ? {
            id: 9,
            provenance: "reviewer",
            first_error_index: null,
            resolved_by: "rev",
            annotation_ids: [10, 11],
            is_current: true,
            created_at: "2025-06-01T11:00:00Z",
            labels: [0, 1, 2, 3].map((i) => ({ step_id: 200 + i, rating: 1, uses: resolutionUses[i] ?? null })),
          }
        : undefined,
    });
    detail.steps[3].uses = [2];
    detail.steps[3].uses_source = "detected";
    for (const step of detail.steps) {
      for (const cell of step.labels) cell.uses = marks[cell.annotation_id]?.[step.index] ?? null;
    }
    return detail;
  }

  it("starts from the resolution's, else from marks every submitted annotation agrees on", () => {
    expect(initialState(withUses({}, { 2: [0, 1] })).uses).toEqual([null, null, [0, 1], null]);
    // Both mark step 2 as using step 0: decided. On step 3 only alice marks (bob keeps its own [2]): not.
    const s = initialState(withUses({ 10: { 2: [0], 3: [1] }, 11: { 2: [0] } }));
    expect(s.uses).toEqual([null, null, [0], null]);
    expect(s.stepUses).toEqual([[], [], [], [2]]);
    // Marks equal to the step's own are nothing to decide.
    expect(initialState(withUses({ 10: { 3: [2] }, 11: { 3: [2] } })).uses).toEqual([null, null, null, null]);
  });

  it("toggles with d, takes a column's marks with its rating, and sends only decided ones", () => {
    const s0 = initialState(withUses({ 10: { 3: [0, 2] } }));
    const toggled = run(s0, { type: "toggleUse", index: 3, target: 1 });
    expect(toggled.uses[3]).toEqual([1, 2]);
    expect(toggled.revision).toBe(s0.revision + 1);
    // Back to the step's own: nothing decided.
    expect(run(toggled, { type: "toggleUse", index: 3, target: 1 }).uses[3]).toBeNull();
    // A forward or self reference is refused.
    expect(run(s0, { type: "toggleUse", index: 1, target: 1 })).toBe(s0);
    // Taking alice's step 3 takes her marks; bob's (unmarked) puts the step's own back.
    const alice = run(s0, { type: "take", index: 3, annotationId: 10 });
    expect(alice.uses[3]).toEqual([0, 2]);
    expect(run(alice, { type: "take", index: 3, annotationId: 11 }).uses[3]).toBeNull();
    expect(run(s0, { type: "takeColumn", annotationId: 10 }).uses).toEqual([null, null, null, [0, 2]]);
    const labels = adjudicationLabels(run(alice, { type: "toggleUse", index: 2, target: 0 }));
    expect(labels.map((l) => l.uses)).toEqual([undefined, undefined, [0], [0, 2]]);
  });
});
