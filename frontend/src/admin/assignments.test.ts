import { describe, expect, it } from "vitest";
import { buildRequest, emptyForm, parseIds } from "./assignments";

describe("parseIds", () => {
  it("reads ids in any separator, drops duplicates and # marks, and lists the rest", () => {
    expect(parseIds("1, 2 3\n#4;2")).toEqual({ ids: [1, 2, 3, 4], invalid: [] });
    expect(parseIds("5 x7 0 -3")).toEqual({ ids: [5], invalid: ["x7", "0", "-3"] });
    expect(parseIds("  ")).toEqual({ ids: [], invalid: [] });
  });
});

describe("buildRequest", () => {
  const base = { ...emptyForm(), userIds: [2, 3] };

  it("needs annotators", () => {
    expect(buildRequest(emptyForm())).toEqual({ error: "Choose at least one annotator." });
  });

  it("sends the filter: source, open, unassigned and a count", () => {
    expect(buildRequest({ ...base, source: "math", count: "4" })).toEqual({
      request: { user_ids: [2, 3], strategy: "round_robin", source: "math", only_open: true, only_unassigned: true, limit: 4 },
    });
    expect(buildRequest({ ...base, count: "2.5" })).toEqual({ error: "How many must be a whole number from 1." });
    const all = buildRequest({ ...base, onlyOpen: false, onlyUnassigned: false });
    expect("request" in all && all.request).toEqual({ user_ids: [2, 3], strategy: "round_robin", only_open: false, only_unassigned: false });
  });

  it("sends a pasted list as solution_ids (open or not) and refuses junk", () => {
    const r = buildRequest({ ...base, mode: "list", idsText: "9 10 9" });
    expect("request" in r && r.request).toEqual({ user_ids: [2, 3], strategy: "round_robin", solution_ids: [9, 10], only_open: false });
    expect(buildRequest({ ...base, mode: "list", idsText: "9 ten" })).toEqual({ error: "Not solution ids: ten" });
    expect(buildRequest({ ...base, mode: "list", idsText: "" })).toEqual({ error: "Paste the solution ids to assign." });
  });

  it("sends one weight per annotator in their order (1 by default) and per_solution", () => {
    const r = buildRequest({ ...base, strategy: "weighted", weights: { 3: "2" }, perSolution: "1" });
    expect("request" in r && r.request.weights).toEqual([1, 2]);
    expect("request" in r && r.request.per_solution).toBe(1);
    expect(buildRequest({ ...base, strategy: "weighted", weights: { 2: "0" } })).toEqual({ error: "Every weight must be a positive number." });
    const each = buildRequest({ ...base, strategy: "each", perSolution: "1" });
    expect("request" in each && each.request.per_solution).toBeUndefined();
  });
});
