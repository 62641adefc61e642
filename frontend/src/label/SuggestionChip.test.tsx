import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Suggestion } from "../api";
import { SuggestionChip, SuggestionNotes } from "./SuggestionChip";

afterEach(cleanup);

const checksOut: Suggestion = {
  source: "symbolic",
  agent: "sympy/symbolic-1.0",
  value: null,
  score: null,
  evidence: {
    kind: "checks out",
    verdict: "verified",
    checked: 2,
    claims: [
      { text: "2 + 3 = 5", lhs: "2 + 3", rhs: "5", lhs_value: "5", rhs_value: "5", holds: true },
      { text: "5 \\cdot 4 = 20", lhs: "5 \\cdot 4", rhs: "20", lhs_value: "20", rhs_value: "20", holds: true },
      { text: "let x = 3", holds: null },
    ],
  },
};

describe("SuggestionChip", () => {
  it("shows a symbolic 'checks out' as evidence: no value mark, never accepted, claims on click", () => {
    const onAccept = vi.fn();
    render(<SuggestionChip suggestion={checksOut} acceptable agrees={false} onAccept={onAccept} />);
    expect(screen.queryByTestId("suggestion-chip")).toBeNull();
    const chip = screen.getByTestId("evidence-chip");
    expect(chip.textContent).toContain("arithmetic checks out");
    expect(chip.className).toContain("chip-evidence");
    expect(chip.className).not.toMatch(/chip-(pos|neg|neu)\b/);
    expect(chip.querySelector(".chip-value")).toBeNull();
    expect(chip.getAttribute("title")).toContain("2 + 3 = 5");
    expect(chip.getAttribute("title")).toContain("not a rating");
    expect(chip.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(chip);
    expect(onAccept).not.toHaveBeenCalled();
    expect(chip.getAttribute("aria-expanded")).toBe("true");
    const items = screen.getByTestId("evidence-items").querySelectorAll("li");
    expect(items).toHaveLength(2); // only the claims that hold
    fireEvent.click(chip);
    expect(screen.queryByTestId("evidence-items")).toBeNull();
  });

  it("a rating chip still accepts its value", () => {
    const onAccept = vi.fn();
    const refuted: Suggestion = { ...checksOut, value: -1, evidence: { verdict: "refuted", failed: [{ text: "5 * 4 = 21" }] } };
    render(<SuggestionChip suggestion={refuted} acceptable agrees={false} onAccept={onAccept} />);
    fireEvent.click(screen.getByTestId("suggestion-chip"));
    expect(onAccept).toHaveBeenCalledWith(-1);
  });
});

const doubtful: Suggestion = {
  source: "symbolic",
  agent: "sympy/symbolic-1.0",
  value: null,
  score: null,
  evidence: {
    kind: "doubtful",
    verdict: "refuted",
    kinds: ["arithmetic"],
    failed: [{ text: "3 \\cdot 4 = 13", lhs: "3 \\cdot 4", rhs: "13", lhs_value: "12", rhs_value: "13", holds: false, kind: "arithmetic" }],
    gate: { checker_version: "symbolic-1.0", kinds: [{ kind: "arithmetic", measured: true, precision: 0.9143, n: 35, earned: false }] },
  },
};

describe("a symbolic 'doubtful' (a failed claim of a kind that has not earned −1)", () => {
  it("is an evidence chip, never accepted, saying it is not refuted", () => {
    const onAccept = vi.fn();
    render(<SuggestionChip suggestion={doubtful} acceptable agrees={false} onAccept={onAccept} />);
    expect(screen.queryByTestId("suggestion-chip")).toBeNull();
    const chip = screen.getByTestId("evidence-chip");
    expect(chip.textContent).toContain("looks wrong, not refuted");
    expect(chip.getAttribute("data-kind")).toBe("doubtful");
    expect(chip.getAttribute("title")).toContain("3 \\cdot 4 = 13 looks wrong (kind arithmetic, 91% precision), not refuted");
    fireEvent.click(chip);
    expect(onAccept).not.toHaveBeenCalled();
  });

  it("is readable under the step: the claim, its kind and the kind's measured precision", () => {
    render(<SuggestionNotes suggestions={[doubtful]} />);
    const note = screen.getByTestId("symbolic-doubtful");
    expect(note.textContent).toContain("looks wrong (kind arithmetic, 91% precision), not refuted");
    expect(note.querySelector("[data-kind='arithmetic']")).not.toBeNull();
    expect(screen.queryByTestId("symbolic-refuted")).toBeNull();
  });
});
