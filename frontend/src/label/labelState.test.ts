import { describe, expect, it } from "vitest";
import { makeTask, suggestion } from "../test/fixtures";
import {
  finishReasonFor,
  firstErrorIndex,
  firstUnrated,
  initialState,
  isComplete,
  isDimmed,
  labelReducer,
  labelsForSubmit,
  ratedCount,
  requiredCount,
  type LabelAction,
  type LabelState,
} from "./labelState";

function run(state: LabelState, ...actions: LabelAction[]): LabelState {
  return actions.reduce(labelReducer, state);
}
const ratings = (s: LabelState) => s.labels.map((l) => l.rating);

describe("loading", () => {
  it("starts empty at the first step", () => {
    const s = initialState(makeTask());
    expect(s.labels).toHaveLength(4);
    expect(ratings(s)).toEqual([null, null, null, null]);
    expect(s.current).toBe(0);
    expect(s.revision).toBe(0);
  });

  it("restores a draft and starts at its first unrated step", () => {
    const s = initialState(makeTask({ labels: [1, 1, null, null] }));
    expect(ratings(s)).toEqual([1, 1, null, null]);
    expect(s.current).toBe(2);
  });

  it("orders steps by index and keeps only scale-valid suggestions", () => {
    const task = makeTask({
      ratingValues: [-1, 1],
      suggestions: [[suggestion(0), suggestion(1, "symbolic")], [suggestion(null)], [], [suggestion(-1)]],
    });
    task.solution.steps.reverse();
    const s = initialState(task);
    expect(s.stepIds).toEqual([100, 101, 102, 103]);
    expect(s.suggested).toEqual([1, null, null, -1]);
  });
});

describe("rating and moving", () => {
  it("rates the current step and advances to the next unrated step", () => {
    let s = initialState(makeTask());
    s = run(s, { type: "rate", value: 1 });
    expect(ratings(s)).toEqual([1, null, null, null]);
    expect(s.current).toBe(1);
    s = run(s, { type: "goto", index: 3 }, { type: "rate", value: 0 });
    expect(ratings(s)).toEqual([1, null, null, 0]);
    expect(s.current).toBe(1); // wraps to the first step still unrated
  });

  it("skips already-rated steps when advancing", () => {
    const s = run(initialState(makeTask({ labels: [null, 1, 1, null] })), { type: "rate", value: -1 });
    expect(s.current).toBe(3);
  });

  it("when everything is rated, moves on by one (and stays on the last step)", () => {
    let s = initialState(makeTask({ labels: [1, 1, 1, 1] }));
    s = run(s, { type: "goto", index: 1 }, { type: "rate", value: 0 });
    expect(s.current).toBe(2);
    s = run(s, { type: "goto", index: 3 }, { type: "rate", value: -1 });
    expect(s.current).toBe(3);
  });

  it("rates a given row without the cursor (mouse)", () => {
    const s = run(initialState(makeTask()), { type: "rate", index: 2, value: -1 });
    expect(ratings(s)).toEqual([null, null, -1, null]);
  });

  it("ignores a value that is not on the scale (no neutral on binary)", () => {
    const s0 = initialState(makeTask({ ratingValues: [-1, 1] }));
    const s = run(s0, { type: "rate", value: 0 });
    expect(s).toBe(s0);
  });

  it("re-rating with the same value changes nothing but moves on", () => {
    const s1 = run(initialState(makeTask()), { type: "rate", value: 1 }, { type: "goto", index: 0 });
    const s2 = run(s1, { type: "rate", value: 1 });
    expect(s2.revision).toBe(s1.revision);
    expect(s2.current).toBe(1);
  });

  it("moves with clamping", () => {
    let s = initialState(makeTask());
    s = run(s, { type: "move", delta: -1 });
    expect(s.current).toBe(0);
    s = run(s, { type: "move", delta: 1 }, { type: "move", delta: 1 }, { type: "move", delta: 9 });
    expect(s.current).toBe(3);
    expect(s.revision).toBe(0); // moving is not a change
  });

  it("clears a rating", () => {
    const s = run(initialState(makeTask()), { type: "rate", value: 1 }, { type: "clearRating", index: 0 });
    expect(ratings(s)).toEqual([null, null, null, null]);
    expect(s.current).toBe(0);
  });
});

describe("unsure, comments, alternatives", () => {
  it("toggles unsure on the current step", () => {
    let s = run(initialState(makeTask()), { type: "goto", index: 2 }, { type: "toggleUnsure" });
    expect(s.labels[2].unsure).toBe(true);
    s = run(s, { type: "toggleUnsure" });
    expect(s.labels[2].unsure).toBe(false);
    expect(s.revision).toBe(2);
  });

  it("sets comment and alternative text; an unchanged text is not a change", () => {
    let s = run(
      initialState(makeTask()),
      { type: "setComment", index: 1, text: "sign error" },
      { type: "setAlternative", index: 1, text: "So $x = \\pm 2$." },
    );
    expect(s.labels[1].comment).toBe("sign error");
    expect(s.labels[1].alternative_text).toBe("So $x = \\pm 2$.");
    const rev = s.revision;
    s = run(s, { type: "setComment", index: 1, text: "sign error" });
    expect(s.revision).toBe(rev);
  });
});

describe("undo", () => {
  it("undoes the last label change and puts the cursor on that step", () => {
    let s = run(initialState(makeTask()), { type: "rate", value: 1 }, { type: "rate", value: -1 });
    expect(ratings(s)).toEqual([1, -1, null, null]);
    expect(s.current).toBe(2);
    s = run(s, { type: "undo" });
    expect(ratings(s)).toEqual([1, null, null, null]);
    expect(s.current).toBe(1);
    s = run(s, { type: "undo" });
    expect(ratings(s)).toEqual([null, null, null, null]);
    expect(s.current).toBe(0);
  });

  it("undoes unsure, comments and accepted suggestions; with no history it does nothing", () => {
    const s0 = initialState(makeTask({ suggestions: [[suggestion(1)], [suggestion(1)], [], []] }));
    let s = run(s0, { type: "toggleUnsure", index: 3 }, { type: "setComment", index: 0, text: "hm" }, { type: "acceptSuggestions" });
    s = run(s, { type: "undo" });
    expect(ratings(s)).toEqual([null, null, null, null]);
    expect(s.labels[0].comment).toBe("hm");
    s = run(s, { type: "undo" }, { type: "undo" });
    expect(s.labels).toEqual(s0.labels);
    const again = run(s, { type: "undo" });
    expect(again.labels).toBe(s.labels);
  });

  it("every undo is a change for autosave", () => {
    const s = run(initialState(makeTask()), { type: "rate", value: 1 }, { type: "undo" });
    expect(s.revision).toBe(2);
  });
});

describe("first-error mode", () => {
  const fe = () => initialState(makeTask({ firstErrorMode: true, steps: 5 }));

  it("stops at the first −1: later steps dimmed and not required, finish found_error", () => {
    let s = run(fe(), { type: "rate", value: 1 }, { type: "rate", value: -1 });
    expect(firstErrorIndex(s)).toBe(1);
    expect(s.current).toBe(1); // no advance past the error
    expect([0, 1, 2, 3, 4].map((i) => isDimmed(s, i))).toEqual([false, false, true, true, true]);
    expect(requiredCount(s)).toBe(2);
    expect(isComplete(s)).toBe(true);
    expect(finishReasonFor(s)).toBe("found_error");
    // dimmed steps cannot be rated
    s = run(s, { type: "rate", index: 3, value: 1 });
    expect(s.labels[3].rating).toBeNull();
  });

  it("an earlier −1 moves the stop; changing the −1 re-enables the steps after it", () => {
    let s = run(fe(), { type: "rate", value: 1 }, { type: "rate", value: 1 }, { type: "rate", value: -1 });
    expect(firstErrorIndex(s)).toBe(2);
    s = run(s, { type: "rate", index: 2, value: 1 });
    expect(firstErrorIndex(s)).toBe(-1);
    expect(isComplete(s)).toBe(false);
    expect(finishReasonFor(s)).toBe("solution");
    expect(s.current).toBe(3);
  });

  it("editing an earlier step moves the first error to it, and back when the edit is undone", () => {
    let s = run(fe(), { type: "rate", value: 1 }, { type: "rate", value: 1 }, { type: "rate", value: -1 });
    s = run(s, { type: "rate", index: 0, value: -1 });
    expect(firstErrorIndex(s)).toBe(0);
    expect(s.current).toBe(0);
    expect(labelsForSubmit(s).map((l) => l.rating)).toEqual([-1, null, null, null, null]);
    expect(finishReasonFor(s)).toBe("found_error");
    s = run(s, { type: "rate", index: 0, value: 0 });
    expect(firstErrorIndex(s)).toBe(2); // the −1 the annotator gave step 3 stands again
    expect(labelsForSubmit(s).map((l) => l.rating)).toEqual([0, 1, -1, null, null]);
    s = run(s, { type: "rate", index: 1, value: -1 });
    expect(firstErrorIndex(s)).toBe(1);
    expect(labelsForSubmit(s).map((l) => l.rating)).toEqual([0, -1, null, null, null]);
  });

  it("drops ratings after the first error from the submitted labels", () => {
    let s = initialState(makeTask({ firstErrorMode: true, steps: 4, labels: [1, 1, 1, 1] }));
    s = run(s, { type: "rate", index: 1, value: -1 });
    expect(labelsForSubmit(s).map((l) => l.rating)).toEqual([1, -1, null, null]);
  });

  it("without first-error mode a −1 changes nothing about completeness", () => {
    const s = run(initialState(makeTask()), { type: "rate", value: -1 });
    expect(firstErrorIndex(s)).toBe(-1);
    expect(s.current).toBe(1);
    expect(isComplete(s)).toBe(false);
    expect(finishReasonFor(s)).toBe("solution");
  });

  it("accepting suggestions stops after the first −1", () => {
    const s0 = initialState(
      makeTask({ firstErrorMode: true, suggestions: [[suggestion(1)], [suggestion(-1)], [suggestion(1)], [suggestion(1)]] }),
    );
    const s = run(s0, { type: "acceptSuggestions" });
    expect(ratings(s)).toEqual([1, -1, null, null]);
    expect(s.current).toBe(1);
    expect(isComplete(s)).toBe(true);
  });
});

describe("complete", () => {
  it("needs every step rated (outside first-error mode)", () => {
    let s = initialState(makeTask({ steps: 3 }));
    expect(isComplete(s)).toBe(false);
    expect(firstUnrated(s)).toBe(0);
    s = run(s, { type: "rate", value: 1 }, { type: "rate", value: 0 });
    expect(isComplete(s)).toBe(false);
    expect(firstUnrated(s)).toBe(2);
    expect(ratedCount(s)).toBe(2);
    s = run(s, { type: "rate", value: -1 });
    expect(isComplete(s)).toBe(true);
    expect(firstUnrated(s)).toBe(-1);
  });

  it("unsure or a comment does not count as a rating", () => {
    const s = run(initialState(makeTask({ steps: 1 })), { type: "toggleUnsure" }, { type: "setComment", index: 0, text: "?" });
    expect(isComplete(s)).toBe(false);
  });

  it("accept suggestions fills only unrated steps", () => {
    const s0 = initialState(makeTask({ labels: [-1, null, null, null], suggestions: [[suggestion(1)], [suggestion(0)], [], [suggestion(1)]] }));
    const s = run(s0, { type: "acceptSuggestions" });
    expect(ratings(s)).toEqual([-1, 0, null, 1]);
    expect(s.current).toBe(2);
  });

  it("accept suggestions ignores evidence: a symbolic 'checks out' is not a +1", () => {
    const checksOut = { ...suggestion(null, "symbolic"), evidence: { kind: "checks out", claims: [] } };
    const s0 = initialState(makeTask({ suggestions: [[checksOut], [checksOut, suggestion(-1, "judge")], [], []] }));
    expect(s0.suggested).toEqual([null, -1, null, null]);
    const s = run(s0, { type: "acceptSuggestions" });
    expect(ratings(s)).toEqual([null, -1, null, null]);
  });

  it("suggestions are not offered when the project hides them", () => {
    const s0 = initialState(makeTask({ showSuggestions: false, suggestions: [[suggestion(1)], [], [], []] }));
    expect(run(s0, { type: "acceptSuggestions" })).toBe(s0);
  });
});

describe("one suggestion", () => {
  it("accepting a clicked suggestion rates that step, advances and undoes", () => {
    const s0 = initialState(makeTask({ suggestions: [[], [suggestion(-1, "symbolic")], [], []] }));
    const s = run(s0, { type: "acceptSuggestion", index: 1, value: -1 });
    expect(ratings(s)).toEqual([null, -1, null, null]);
    expect(s.current).toBe(2);
    expect(s.revision).toBe(1);
    const u = run(s, { type: "undo" });
    expect(ratings(u)).toEqual([null, null, null, null]);
    expect(u.current).toBe(1);
  });

  it("ignores a value off the scale and steps behind the first error", () => {
    const binary = initialState(makeTask({ ratingValues: [-1, 1] }));
    expect(run(binary, { type: "acceptSuggestion", index: 0, value: 0 })).toBe(binary);
    const fe = run(initialState(makeTask({ firstErrorMode: true })), { type: "rate", index: 0, value: -1 });
    expect(ratings(run(fe, { type: "acceptSuggestion", index: 2, value: 1 }))).toEqual([-1, null, null, null]);
  });

  it("A takes the first suggestion by source priority, not the server's order", () => {
    const s0 = initialState(
      makeTask({ suggestions: [[suggestion(-1, "judge"), suggestion(1, "symbolic")], [suggestion(0, "rollout"), suggestion(1, "consensus")], [], []] }),
    );
    expect(s0.suggested).toEqual([1, 1, null, null]);
  });
});
