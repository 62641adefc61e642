import { describe, expect, it } from "vitest";
import { ApiError } from "../api";
import { makeRun } from "../test/fakeApi";
import {
  DEFAULT_PARAMS,
  DEFAULT_PRM,
  buildRunRequest,
  duration,
  errorLines,
  groupErrors,
  paramsProblem,
  percent,
  countText,
  processed,
  etaText,
  isActive,
  rateText,
  runFraction,
  shownStatus,
  solutionsText,
  verdictCounts,
} from "./autolabel";

const params = { rollout: { ...DEFAULT_PARAMS }, judge: { ...DEFAULT_PARAMS } };

describe("buildRunRequest", () => {
  it("sends a public PRM's convention with its registered model, and none for one trained here", () => {
    const prm = { ...DEFAULT_PRM, model_id: 3, convention: "qwen" as const };
    expect(buildRunRequest(new Set(["prm"]), { ...params, prm }, false).params).toEqual({
      prm: { model_id: 3, threshold: 0.5, convention: "qwen" },
    });
    const trained = { ...DEFAULT_PRM, model_id: 3 };
    expect(buildRunRequest(new Set(["prm"]), { ...params, prm: trained }, false).params).toEqual({
      prm: { model_id: 3, threshold: 0.5 },
    });
  });

  it("keeps the catalogue's order and sends params only for chosen sources", () => {
    expect(buildRunRequest(new Set(["symbolic", "answer"]), params, false)).toEqual({
      sources: ["answer", "symbolic"],
      filter: { only_unlabeled: false },
    });
  });

  it("puts consensus after the sources it combines, and code runs without params", () => {
    const req = buildRunRequest(new Set(["consensus", "code", "symbolic"]), params, false);
    expect(req.sources).toEqual(["symbolic", "code", "consensus"]);
    expect(req.params).toBeUndefined();
  });

  it("builds the rollout and judge params, leaving out blank fields", () => {
    const req = buildRunRequest(
      new Set(["rollout", "judge"]),
      {
        rollout: { ...DEFAULT_PARAMS, base_url: " http://gpu:8000/v1 ", model: "qwen", method: "binary_search", n: 4 },
        judge: { ...DEFAULT_PARAMS, model: "gpt-4o-mini" },
      },
      true,
    );
    expect(req).toEqual({
      sources: ["rollout", "judge"],
      params: {
        rollout: { backend: { kind: "openai", base_url: "http://gpu:8000/v1", model: "qwen" }, method: "binary_search", k: 4 },
        judge: { backend: { kind: "openai", model: "gpt-4o-mini" } },
      },
      filter: { only_unlabeled: true },
    });
  });

  it("sends a local transformers backend for rollouts only", () => {
    const local = { ...DEFAULT_PARAMS, kind: "transformers" as const, path: "/models/q", gguf_file: "q4.gguf", base_url: "x" };
    const req = buildRunRequest(new Set(["rollout", "judge"]), { rollout: local, judge: local }, false);
    expect(req.params?.rollout).toEqual({ backend: { kind: "transformers", path: "/models/q", gguf_file: "q4.gguf" }, method: "mc", n: 8 });
    expect(req.params?.judge).toEqual({ backend: { kind: "openai", base_url: "x" } });
  });

  it("hints at missing backend fields", () => {
    expect(paramsProblem("judge", DEFAULT_PARAMS)).toMatch(/URL/);
    expect(paramsProblem("judge", { ...DEFAULT_PARAMS, base_url: "u", model: "m" })).toBeNull();
    expect(paramsProblem("rollout", { ...DEFAULT_PARAMS, kind: "transformers" })).toMatch(/path/);
  });
});

describe("run arithmetic", () => {
  it("counts done and failed solutions, never past the total", () => {
    expect(countText(makeRun({ total: 10 }), "5", "10")).toBe("5 / 10 solutions");
    // Created over the API: total 0 until its start task lists the solutions, not "0 / 0".
    expect(countText(makeRun({ total: 0, prepared: false }), "0", "0")).toBe("listing the solutions…");
    // Its items written in batches: chunks run while the start still lists the rest.
    expect(countText(makeRun({ total: 20000, prepared: false }), "1,200", "20,000")).toBe(
      "1,200 / 20,000 so far, listing the solutions…",
    );
    expect(processed(makeRun({ total: 10, done: 3, failed: 2 }))).toBe(5);
    expect(processed(makeRun({ total: 10, done: 10, failed: 2 }))).toBe(10);
  });

  it("uses the server's progress, full once done, and never shows 100% early", () => {
    expect(runFraction(makeRun({ status: "running", progress: 0.42 }))).toBe(0.42);
    expect(runFraction(makeRun({ status: "done", progress: 0.9 }))).toBe(1);
    expect(runFraction(makeRun({ status: "running", progress: 7 }))).toBe(1);
    expect(runFraction(makeRun({ status: "running", progress: undefined as unknown as number, total: 4, done: 1 }))).toBe(0.25);
    expect(percent(0.996)).toBe("99%");
    expect(percent(1)).toBe("100%");
    expect(percent(0.5)).toBe("50%");
  });

  it("formats durations", () => {
    expect(duration(null, null)).toBe("—");
    expect(duration("2025-01-01T00:00:00Z", "2025-01-01T00:00:14Z")).toBe("14s");
    expect(duration("2025-01-01T00:00:00Z", "2025-01-01T00:02:05Z")).toBe("2m 05s");
    expect(duration("2025-01-01T00:00:00Z", "2025-01-01T01:03:00Z")).toBe("1h 03m");
  });

  it("lists a validation error's field messages", () => {
    const err = new ApiError(400, "validation_error", "Invalid input.", { sources: ['"judge" is not available yet.'], non_field_errors: ["x"] });
    expect(errorLines(err)).toEqual(["Invalid input.", 'sources: "judge" is not available yet.', "x"]);
  });

  it("names a source the server does not offer yet, without repeating what the message says", () => {
    const err = new ApiError(400, "validation_error", 'sources: 0: "judge" is not a valid choice.', {
      sources: { "0": ['"judge" is not a valid choice.'] },
    });
    expect(errorLines(err)).toEqual(["LLM judge (judge) is not available on this server yet.", 'sources: 0: "judge" is not a valid choice.']);
    const other = new ApiError(400, "validation_error", "sources: Ensure this field has at least 1 elements.", {
      sources: ["Ensure this field has at least 1 elements."],
    });
    expect(errorLines(other)).toEqual(["sources: Ensure this field has at least 1 elements."]);
  });
});

describe("errors", () => {
  it("groups identical errors and names their solutions", () => {
    const down = "Backend down: connection refused";
    const groups = groupErrors([
      { solution_id: 1, error: down },
      { solution_id: 2, error: "sympy timed out" },
      { solution_id: 3, error: down },
      { solution_id: null, error: down },
      { solution_id: 4, error: "" },
    ]);
    expect(groups).toEqual([
      { error: down, count: 3, solutionIds: [1, 3], unattributed: 1 },
      { error: "sympy timed out", count: 1, solutionIds: [2], unattributed: 0 },
      { error: "Unknown error", count: 1, solutionIds: [4], unattributed: 0 },
    ]);
    expect(groupErrors(undefined)).toEqual([]);
    expect(solutionsText([7])).toBe("Solution 7");
    expect(solutionsText([1, 2])).toBe("Solutions 1 and 2");
    expect(solutionsText([1, 2, 3])).toBe("Solutions 1, 2 and 3");
    expect(solutionsText([1, 2, 3, 4, 5])).toBe("Solutions 1, 2, 3 and 2 more");
  });
});

describe("server error groups", () => {
  it("counts every failure by message and names the solutions of the first errors kept", () => {
    const down = "Backend down: connection refused";
    const groups = groupErrors(
      [
        { solution_id: 1, error: down },
        { solution_id: 2, error: "ValueError: no parse\nTraceback ..." },
        { solution_id: 3, error: "a message counted under Other errors" },
      ],
      [
        { error: down, count: 1200 },
        { error: "ValueError: no parse", count: 3 },
        { error: "Other errors", count: 40 },
      ],
    );
    expect(groups).toEqual([
      { error: down, count: 1200, solutionIds: [1], unattributed: 0 },
      { error: "ValueError: no parse", count: 3, solutionIds: [2], unattributed: 0 },
      { error: "Other errors", count: 40, solutionIds: [], unattributed: 0 },
    ]);
  });
});

describe("progress people can plan with", () => {
  it("reads Queued only while nothing has started", () => {
    expect(shownStatus(makeRun({ status: "pending" }))).toBe("pending");
    expect(shownStatus(makeRun({ status: "pending", done: 3 }))).toBe("running");
    expect(shownStatus(makeRun({ status: "pending", started_at: "2025-06-01T10:00:01Z" }))).toBe("running");
    expect(shownStatus(makeRun({ status: "paused", done: 3 }))).toBe("paused");
    expect(isActive(makeRun({ status: "paused" }))).toBe(true);
    expect(isActive(makeRun({ status: "cancelled" }))).toBe(false);
  });

  it("writes the rate per second, or per minute for slow engines", () => {
    expect(rateText(null)).toBeNull();
    expect(rateText(0)).toBeNull();
    expect(rateText(1234.4)).toBe("1,234 solutions/s");
    expect(rateText(42.4)).toBe("42 solutions/s");
    expect(rateText(2.46)).toBe("2.5 solutions/s");
    expect(rateText(0.05)).toBe("3.0 solutions/min");
    expect(rateText(0.005)).toBe("0.30 solutions/min");
  });

  it("writes the time left", () => {
    expect(etaText(null)).toBeNull();
    expect(etaText(0.4)).toBe("under a second left");
    expect(etaText(14)).toBe("about 14s left");
    expect(etaText(125)).toBe("about 2m 05s left");
    expect(etaText(3 * 3600 + 600)).toBe("about 3h 10m left");
    expect(etaText(2 * 86400 + 5 * 3600)).toBe("about 2d 5h left");
    expect(etaText(1e12)).toBe("more than a year left");
  });

  it("lists the verdicts written, leaving out those it wrote none of", () => {
    expect(verdictCounts({ plus: 0, zero: 0, minus: 4, doubtful: 2, evidence: 9 })).toEqual([
      { key: "minus", label: "−1", count: 4 },
      { key: "doubtful", label: "doubtful", count: 2 },
      { key: "evidence", label: "evidence", count: 9 },
    ]);
    expect(verdictCounts(undefined)).toEqual([]);
  });
});
