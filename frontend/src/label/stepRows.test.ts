import { describe, expect, it } from "vitest";
import { listRows } from "./stepRows";
import { thinkingRuns } from "./thinkingRuns";

const steps = [1, 2, 3, 4, 5, 6, 7].map((id) => ({ id, thinking: id >= 2 && id <= 4 }));
const ids = steps.map((s) => s.id);
const runs = thinkingRuns(steps); // steps 1..3 (0-based): one run keyed 2

describe("listRows", () => {
  it("is one row a step without reasoning", () => {
    const { rows, rowOf } = listRows(ids, [], new Set());
    expect(rows.map((r) => r.key)).toEqual(ids);
    expect(Array.from(rowOf)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("shows a folded run as its bar alone, and its steps point at the bar", () => {
    const { rows, rowOf } = listRows(ids, runs, new Set());
    expect(rows.map((r) => r.key)).toEqual([1, "fold-2", 5, 6, 7]);
    expect(Array.from(rowOf)).toEqual([0, 1, 1, 1, 2, 3, 4]);
  });

  it("leads an open run with its bar, then its steps", () => {
    const { rows, rowOf } = listRows(ids, runs, new Set([2]));
    expect(rows.map((r) => r.key)).toEqual([1, "fold-2", 2, 3, 4, 5, 6, 7]);
    expect(Array.from(rowOf)).toEqual([0, 2, 3, 4, 5, 6, 7]);
  });

  it("folds a long trace's reasoning into a few rows", () => {
    const long = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, thinking: i < 4990 }));
    const { rows, rowOf } = listRows(
      long.map((s) => s.id),
      thinkingRuns(long),
      new Set(),
    );
    expect(rows).toHaveLength(11);
    expect(rowOf[4989]).toBe(0);
    expect(rowOf[4999]).toBe(10);
  });
});
