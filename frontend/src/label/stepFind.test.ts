import { describe, expect, it } from "vitest";
import { findMatches, firstMatchFrom, matchCountText, nextMatch } from "./stepFind";

const texts = ["Let $x = 2$.", "Then x^2 = 4.", "So the answer is 4.", "Check: \\frac{4}{2} = 2"].map((t) => t.toLowerCase());

describe("findMatches", () => {
  it("finds the steps whose text has the query, ignoring case and outer space", () => {
    expect(findMatches(texts, "  ANSWER ")).toEqual([2]);
    expect(findMatches(texts, "4")).toEqual([1, 2, 3]);
    expect(findMatches(texts, "\\frac")).toEqual([3]); // the LaTeX source
    expect(findMatches(texts, "")).toEqual([]);
    expect(findMatches(texts, "   ")).toEqual([]);
  });

  it("searches the annotator's corrected step and comment too", () => {
    const notes = (i: number) => (i === 0 ? "Corrected: x = 3\nTypo here" : "");
    expect(findMatches(texts, "typo", notes)).toEqual([0]);
  });

  it("scans thousands of steps", () => {
    const many = Array.from({ length: 5000 }, (_, i) => `step ${i} of the trace`);
    expect(findMatches(many, "step 4999 ")).toEqual([4999]);
    expect(findMatches(many, "trace")).toHaveLength(5000);
  });
});

describe("nextMatch", () => {
  const matches = [3, 10, 40];
  it("goes to the next and previous match, round the ends", () => {
    expect(nextMatch(matches, 0, 1)).toBe(3);
    expect(nextMatch(matches, 3, 1)).toBe(10);
    expect(nextMatch(matches, 40, 1)).toBe(3);
    expect(nextMatch(matches, 10, -1)).toBe(3);
    expect(nextMatch(matches, 3, -1)).toBe(40);
    expect(nextMatch([7], 7, 1)).toBe(7);
    expect(nextMatch([], 7, 1)).toBe(-1);
  });

  it("typing goes to the first match at or after the current step", () => {
    expect(firstMatchFrom(matches, 10)).toBe(10);
    expect(firstMatchFrom(matches, 11)).toBe(40);
    expect(firstMatchFrom(matches, 41)).toBe(3);
    expect(firstMatchFrom([], 0)).toBe(-1);
  });
});

describe("matchCountText", () => {
  it("says where the current step is among the matches", () => {
    expect(matchCountText([3, 10, 40], 10, "x")).toBe("2 of 3 steps");
    expect(matchCountText([3, 10, 40], 11, "x")).toBe("3 steps");
    expect(matchCountText([1200, 2400], 2400, "x")).toBe("2 of 2 steps");
    expect(matchCountText([], 0, "x")).toBe("No step has it");
    expect(matchCountText([], 0, " ")).toBe("");
  });
});
