import { describe, expect, it } from "vitest";
import { commandForKey } from "./keyboard";
import { firstVisible, isFolded, moveSkippingFolded, runOf, thinkingRuns } from "./thinkingRuns";

// Steps 0-2 and 5 are reasoning; 3, 4 and 6 the answer's.
const steps = [true, true, true, false, false, true, false].map((thinking, i) => ({ id: 100 + i, thinking }));

describe("thinkingRuns", () => {
  it("finds each run of consecutive reasoning steps, keyed by its first step's id", () => {
    const runs = thinkingRuns(steps);
    expect(runs).toEqual([
      { start: 0, end: 3, key: 100 },
      { start: 5, end: 6, key: 105 },
    ]);
    expect(runOf(runs, 2)?.key).toBe(100);
    expect(runOf(runs, 3)).toBeUndefined();
    expect(thinkingRuns([{ id: 1 }, { id: 2, thinking: false }])).toEqual([]);
  });

  it("skips folded steps when moving, and stays put with nowhere to go", () => {
    const runs = thinkingRuns(steps);
    const none = new Set<number>();
    expect(isFolded(runs, none, 1)).toBe(true);
    expect(moveSkippingFolded(runs, none, 7, 4, 1)).toBe(6); // over the folded step 5
    expect(moveSkippingFolded(runs, none, 7, 6, -1)).toBe(4);
    expect(moveSkippingFolded(runs, none, 7, 3, -1)).toBe(3); // only folded steps above
    const open = new Set([100]);
    expect(moveSkippingFolded(runs, open, 7, 3, -1)).toBe(2);
    expect(firstVisible(runs, none, 7)).toBe(3);
    expect(firstVisible(runs, none, 7, true)).toBe(6);
    const allThinking = thinkingRuns([{ id: 1, thinking: true }]);
    expect(firstVisible(allThinking, none, 1)).toBe(-1);
  });

  it("maps r to the reasoning toggle", () => {
    expect(commandForKey({ key: "r" })).toEqual({ type: "toggleReasoning" });
    expect(commandForKey({ key: "r", ctrlKey: true })).toBeNull(); // reload stays the browser's
  });
});
