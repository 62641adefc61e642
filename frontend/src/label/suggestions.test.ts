import { describe, expect, it } from "vitest";
import type { Suggestion } from "../api";
import { calibrationText, describeSuggestion, doubtfulClaims, doubtText, looksLikeTex, orderSuggestions, refutedClaim, texSource, valuesText } from "./suggestions";

const sug = (o: Partial<Suggestion>): Suggestion => ({ source: "import", agent: "", value: null, score: null, evidence: {}, ...o });

describe("describeSuggestion", () => {
  it("symbolic: ∑ ✓ when verified, ∑ ✗ with the refuted claim", () => {
    const ok = describeSuggestion(sug({ source: "symbolic", agent: "sympy", value: 1, evidence: { checked: 2 } }));
    expect(ok).toMatchObject({ badge: "∑", mark: "✓", tone: "pos", detail: null, refuted: null });
    expect(ok.title).toContain("Verified 2 claims");
    const bad = describeSuggestion(
      sug({ source: "symbolic", value: -1, evidence: { failed: [{ claim: "3 \\cdot 7 = 20", lhs: "3 \\cdot 7", rhs: "20", lhs_value: 21, rhs_value: 20 }] } }),
    );
    expect(bad).toMatchObject({ badge: "∑", mark: "✗", tone: "neg" });
    expect(bad.refuted).toEqual({ claim: "3 \\cdot 7 = 20", lhs: "3 \\cdot 7", lhsValue: "21", rhsValue: "20" });
    expect(bad.title).toContain("Refuted: 3 \\cdot 7 = 20 — 3 \\cdot 7 = 21 ≠ 20");
  });

  it("a plug-in's evidence: its name as the badge, its summary, a caveat that fits any engine", () => {
    const view = describeSuggestion(
      sug({ source: "hedges", agent: "hedges:v1", evidence: { kind: "hedge", summary: "Hedges: probably, I think", hits: 2 } }),
    );
    expect(view).toMatchObject({ badge: "hedges", mark: "", tone: "none" });
    expect(view.evidence).toMatchObject({ label: "hedge", items: ["Hedges: probably, I think"] });
    expect(view.title).toContain("hedges · hedges:v1: hedge: evidence, not a rating");
    expect(view.title).toContain("A note from an engine plug-in, not a rating");
    expect(view.title).not.toContain("arithmetic");
  });

  it("evidence-only suggestions: a label and the checked claims, no mark, no tone", () => {
    const view = describeSuggestion(
      sug({
        source: "symbolic",
        agent: "sympy/symbolic-1.0",
        evidence: {
          kind: "checks out",
          checked: 2,
          claims: [
            { text: "2 + 3 = 5", lhs: "2 + 3", rhs: "5", lhs_value: "5", holds: true },
            { text: "x = 21 / 3", lhs: "x", rhs: "21 / 3", lhs_value: "7", holds: true },
            { text: "y = 2", holds: null },
          ],
        },
      }),
    );
    expect(view).toMatchObject({ badge: "∑", mark: "", tone: "none", refuted: null });
    expect(view.evidence).toEqual({ label: "arithmetic checks out", items: ["2 + 3 = 5", "x = 21 / 3  (= 7)"], checked: 2, measured: null });
    expect(view.title).toContain("arithmetic checks out: evidence, not a rating");
    expect(view.title).toContain("Checked 2 claims");
    const tests = describeSuggestion(sug({ source: "code", evidence: { kind: "tests pass", check: "tests", summary: "3/3 tests passed" } }));
    expect(tests.evidence).toEqual({ label: "tests pass", items: ["3/3 tests passed"], checked: null, measured: null });
    // A value makes it a rating, whatever the evidence says; no kind, no evidence view.
    expect(describeSuggestion(sug({ source: "symbolic", value: -1, evidence: { kind: "checks out" } })).evidence).toBeNull();
    expect(describeSuggestion(sug({ source: "judge", evidence: { rationale: "?" } })).evidence).toBeNull();
  });

  it("calibrated verdicts say how often they were right, and on what", () => {
    const refuted = sug({
      source: "symbolic",
      value: -1,
      score: 0.8,
      evidence: { failed: [{ text: "5 * 4 = 21" }], calibration: { right: 0.8, n: 25, on: "ProcessBench sample" } },
    });
    const view = describeSuggestion(refuted);
    expect(calibrationText(refuted)).toBe("refutes: right 80% of 25 times on ProcessBench sample");
    expect(view.detail).toBe("80%");
    expect(view.title.split("\n")[1]).toBe("refutes: right 80% of 25 times on ProcessBench sample");
    const checks = sug({
      source: "symbolic",
      evidence: { kind: "checks out", claims: [], calibration: { step_correct: 0.908, base_rate: 0.916, n: 499, on: "the public samples" } },
    });
    expect(describeSuggestion(checks).title).toContain(
      "arithmetic checks out: the step was correct 91% of 499 times (all steps: 92%) on the public samples",
    );
    // Not measured: nothing claimed.
    expect(calibrationText(sug({ source: "judge", value: -1, score: 0.67 }))).toBeNull();
    expect(describeSuggestion(sug({ source: "symbolic", value: -1, evidence: { failed: ["x"] } })).detail).toBeNull();
  });

  it("model scores: the measured bin's rate, or the model's own estimate marked unmeasured", () => {
    const measured = sug({
      source: "prm",
      agent: "prm:my-prm",
      value: 1,
      score: 0.83,
      evidence: { probability: 0.93, raw_score: 0.93, calibration: { right: 0.83, n: 120, lo: 0.8, hi: 1, raw: 0.93, on: "the public samples" } },
    });
    expect(calibrationText(measured)).toBe("supports: right 83% of 120 times at model scores 0.8–1 on the public samples (model's own: 0.93)");
    const view = describeSuggestion(measured);
    expect(view.detail).toBe("83%");
    expect(view.title.split("\n")[1]).toBe(calibrationText(measured));
    const unmeasured = sug({ source: "prm", value: -1, score: 0.3, evidence: { raw_score: 0.3, calibration: { measured: false } } });
    expect(calibrationText(unmeasured)).toBe("refutes: score 0.30 is the model's own estimate, not measured");
    expect(describeSuggestion(unmeasured).detail).toBe("0.30");
    expect(describeSuggestion(unmeasured).title).toContain("the model's own estimate, not measured");
    // Rollouts keep their counts as the detail; the measured rate is in the hover text.
    const rollout = sug({
      source: "rollout",
      value: -1,
      score: 0.91,
      evidence: { correct: 0, total: 8, raw_score: 0, calibration: { right: 0.91, n: 57, lo: 0, hi: 0.1, raw: 0, on: "PRM800K" } },
    });
    const mc = describeSuggestion(rollout);
    expect(mc.detail).toBe("0/8");
    expect(mc.title).toContain("refutes: right 91% of 57 times at model scores 0–0.1 on PRM800K (model's own: 0.00)");
    // A judge verdict measured without a raw score (none given): the kind's rate alone.
    const judge = sug({ source: "judge", value: 1, score: 0.7, evidence: { calibration: { right: 0.7, n: 40, on: "d", raw: null } } });
    expect(calibrationText(judge)).toBe("supports: right 70% of 40 times on d");
    expect(describeSuggestion(judge).detail).toBe("70%");
  });

  it("rollout: MC correct/total, else the score as a percentage", () => {
    expect(describeSuggestion(sug({ source: "rollout", value: 1, score: 0.375, evidence: { correct: 3, total: 8 } }))).toMatchObject({
      badge: "MC",
      detail: "3/8",
      mark: "+",
    });
    expect(describeSuggestion(sug({ source: "rollout", value: 0, score: 0.5 })).detail).toBe("50%");
    // Calibrated without counts: the share is the raw score, not the calibrated one.
    expect(describeSuggestion(sug({ source: "rollout", value: 1, score: 0.9, evidence: { raw_score: 0.25 } })).detail).toBe("25%");
    expect(describeSuggestion(sug({ source: "rollout", value: null, score: null, evidence: { total: 0 } })).detail).toBeNull();
  });

  it("code: tests passed n/m, or the crash with the traceback's last line", () => {
    const passed = describeSuggestion(
      sug({ source: "code", agent: "sandbox/python", value: 1, score: 1, evidence: { check: "tests", verdict: "passed", summary: "2/2 tests passed", failures: [] } }),
    );
    expect(passed).toMatchObject({ badge: "code", detail: "2/2", mark: "+", tone: "pos" });
    const failed = describeSuggestion(
      sug({ source: "code", value: -1, evidence: { check: "tests", verdict: "failed", summary: "0/1 tests passed", failures: [{ reason: "wrong output", expected: "9", stdout: "6\n" }] } }),
    );
    expect(failed.title).toContain("First failure: wrong output");
    expect(failed.title).toContain("Printed: 6");
    const crash = describeSuggestion(
      sug({ source: "code", value: -1, evidence: { check: "prefix", verdict: "crash", summary: "the code up to this step ends in KeyError", traceback: "Traceback:\n  File \"main.py\", line 3\nKeyError: 3\n", error_in_step: 1 } }),
    );
    expect(crash).toMatchObject({ detail: "crash", mark: "−", tone: "neg" });
    expect(crash.title).toContain("KeyError: 3");
  });

  it("judge: the rationale in the title and in the view", () => {
    const v = describeSuggestion(sug({ source: "judge", agent: "gpt-4o", value: -1, evidence: { rationale: "Sign error." } }));
    expect(v).toMatchObject({ badge: "judge", rationale: "Sign error.", mark: "−" });
    expect(v.title).toBe("LLM judge · gpt-4o: wrong (−1)\nSign error.");
  });

  it("prm, import, consensus and unknown sources", () => {
    expect(describeSuggestion(sug({ source: "prm", value: 1, score: 0.823 }))).toMatchObject({ badge: "PRM", detail: "0.82" });
    expect(describeSuggestion(sug({ source: "import", value: 0, evidence: { message: "from PRM800K" } })).title).toContain("from PRM800K");
    expect(describeSuggestion(sug({ source: "consensus", value: 1 })).badge).toBe("✓✓");
    expect(describeSuggestion(sug({ source: "weird", value: null })).badge).toBe("weird");
    expect(describeSuggestion(sug({ source: "weird", value: null }))).toMatchObject({ mark: "?", tone: "none" });
  });
});

describe("refutedClaim", () => {
  it("is defensive about the evidence's shape", () => {
    expect(refutedClaim(null)).toBeNull();
    expect(refutedClaim({})).toBeNull();
    expect(refutedClaim({ failed: [] })).toBeNull();
    expect(refutedClaim({ failed: ["2+2=5"] })).toEqual({ claim: "2+2=5", lhs: null, lhsValue: null, rhsValue: null });
    expect(refutedClaim({ failed: [{ text: "48/6 = 7", lhs: "48/6", rhs: "7", lhs_value: "8" }] })).toEqual({
      claim: "48/6 = 7",
      lhs: "48/6",
      lhsValue: "8",
      rhsValue: "7",
    });
    expect(refutedClaim({ failed: [{ lhs: "a", rhs: "b" }] })).toEqual({ claim: "a = b", lhs: null, lhsValue: null, rhsValue: null });
    expect(refutedClaim({ failed: [{ lhs_value: 3, rhs_value: 4 }] })).toEqual({ claim: null, lhs: null, lhsValue: "3", rhsValue: "4" });
    expect(refutedClaim({ failed: [{ nothing: true }] })).toBeNull();
    expect(refutedClaim({ failed: { claim: "x = 1" } })?.claim).toBe("x = 1");
  });

  it("writes lhs = a ≠ b", () => {
    expect(valuesText({ claim: null, lhs: "48/6", lhsValue: "8", rhsValue: "7" })).toBe("48/6 = 8 ≠ 7");
    expect(valuesText({ claim: null, lhs: null, lhsValue: "8", rhsValue: "7" })).toBe("8 ≠ 7");
    expect(valuesText({ claim: "x", lhs: null, lhsValue: null, rhsValue: null })).toBeNull();
  });
});

describe("order and TeX", () => {
  it("puts people first, then exact checks, then estimates; stable within a source", () => {
    const list = ["judge", "rollout", "symbolic", "prm", "import", "consensus", "other"].map((source) => sug({ source }));
    expect(orderSuggestions(list).map((s) => s.source)).toEqual(["consensus", "import", "symbolic", "rollout", "prm", "judge", "other"]);
    const a = sug({ source: "rollout", agent: "a" });
    const b = sug({ source: "rollout", agent: "b" });
    expect(orderSuggestions([a, b])).toEqual([a, b]);
  });

  it("recognises TeX", () => {
    expect(looksLikeTex("\\frac{3}{4} = 1")).toBe(true);
    expect(looksLikeTex("x^{2} = 4")).toBe(true);
    expect(looksLikeTex("48 / 6 = 7")).toBe(false);
    expect(texSource("x^{2}")).toBe("\\(x^{2}\\)");
    expect(texSource("$x$ = 2")).toBe("$x$ = 2");
  });
});

describe("doubtful symbolic evidence", () => {
  const failed = [
    { text: "2 + 3 = 6", lhs: "2 + 3", rhs: "6", lhs_value: "5", rhs_value: "6", holds: false, kind: "arithmetic" },
    { text: "x = 4 \\text{ or } x = 5", holds: false, kind: "substitution" },
  ];
  const gate = { kinds: [{ kind: "arithmetic", measured: true, precision: 0.9, n: 20 }, { kind: "substitution", measured: false }] };

  it("lists every failed claim with its kind's measured precision, or says it was never measured", () => {
    expect(doubtfulClaims({ kind: "doubtful", failed, gate })).toEqual([
      { claim: "2 + 3 = 6", kind: "arithmetic", precision: 0.9, n: 20 },
      { claim: "x = 4 \\text{ or } x = 5", kind: "substitution", precision: null, n: null },
    ]);
    const [arith, subst] = doubtfulClaims({ kind: "doubtful", failed, gate });
    expect(doubtText(arith)).toBe("looks wrong (kind arithmetic, 90% precision), not refuted");
    expect(doubtText(subst)).toBe("looks wrong (kind substitution, precision not measured), not refuted");
  });

  it("is evidence without a value: no mark, no tone, the failed claims as its items", () => {
    const view = describeSuggestion(sug({ source: "symbolic", evidence: { kind: "doubtful", failed, gate } }));
    expect(view).toMatchObject({ mark: "", tone: "none", refuted: null });
    expect(view.evidence?.label).toBe("looks wrong, not refuted");
    expect(view.evidence?.items).toEqual(["2 + 3 = 6", "x = 4 \\text{ or } x = 5"]);
    expect(view.doubtful).toHaveLength(2);
    expect(view.title).toContain("evidence, not a rating");
  });

  it("a −1 or another evidence kind is not doubtful", () => {
    expect(doubtfulClaims({ kind: "checks out", failed, gate })).toEqual([]);
    expect(describeSuggestion(sug({ source: "symbolic", value: -1, evidence: { failed, gate } })).doubtful ?? null).toBeNull();
  });
});
