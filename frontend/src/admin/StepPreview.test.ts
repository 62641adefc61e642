import { describe, expect, it } from "vitest";
import { firstRow } from "./StepPreview";
import { ruleSummary } from "./StepRuleFields";

describe("the Import tab's step preview", () => {
  it("reads the first JSON line's one-string solution, or its step count", () => {
    expect(firstRow('{"problem": "p", "solution": "a. b."}\n{"x": 1}')).toEqual({ solution: "a. b." });
    expect(firstRow('{"problem": "p", "steps": ["a", "b"]}')).toEqual({ steps: 2 });
    expect(firstRow("problem,solution\np,a")).toBeNull(); // CSV: no preview
    expect(firstRow('{"problem": "p", "solution": "cut')).toBeNull(); // a line cut short
    expect(firstRow("")).toBeNull();
  });

  it("says a rule in a few words", () => {
    expect(ruleSummary({ step_split: "sentence" })).toBe("One step per sentence");
    expect(ruleSummary({ step_split: "step_tags", step_split_tag: "<extra_0>" })).toBe("A model's step tags <extra_0>");
    expect(ruleSummary({ step_split: "" })).toBe("");
  });
});
