import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Suggestion } from "../api";
import { SuggestionChip } from "./SuggestionChip";
import { legendItems } from "./MarkLegend";
import { describeSuggestion, orderSuggestions } from "./suggestions";

afterEach(cleanup);

const prediction: Suggestion = {
  source: "prediction",
  agent: "my-prm@v3",
  value: -1,
  score: 0.12,
  evidence: { upload: "preds.jsonl", line: 17, at: "2026-12-06T06:00:00+00:00" },
};

describe("uploaded predictions", () => {
  it("names the model and version, its score, and where it was uploaded", () => {
    const view = describeSuggestion(prediction);
    expect(view.badge).toBe("my-prm@v3");
    expect(view.detail).toBe("12%");
    expect(view.tone).toBe("neg");
    expect(view.title.split("\n")).toEqual([
      "Predictions · my-prm@v3: wrong (−1) (P(correct) 12%)",
      "Uploaded in preds.jsonl, line 17 (2026-12-06)",
    ]);
  });

  it("is a chip that accepts its value; a score without a value is not accepted", () => {
    const onAccept = vi.fn();
    render(<SuggestionChip suggestion={prediction} acceptable agrees={false} onAccept={onAccept} />);
    const chip = screen.getByTestId("suggestion-chip");
    expect(chip.textContent).toContain("my-prm@v3");
    expect(chip.className).toContain("chip-src-prediction");
    fireEvent.click(chip);
    expect(onAccept).toHaveBeenCalledWith(-1);
    cleanup();
    const scoreOnly = { ...prediction, value: null, score: 0.55 };
    render(<SuggestionChip suggestion={scoreOnly} acceptable agrees={false} onAccept={onAccept} />);
    fireEvent.click(screen.getByTestId("suggestion-chip"));
    expect(onAccept).toHaveBeenCalledTimes(1);
    expect(describeSuggestion(scoreOnly).title).toContain("no rating (P(correct) 55%)");
  });

  it("clips a long model name in the chip, never in the hover text", () => {
    const long = { ...prediction, agent: "Qwen2.5-Math-PRM-72B-finetuned@2026-12-06" };
    const view = describeSuggestion(long);
    expect(view.badge).toHaveLength(22);
    expect(view.badge.endsWith("…")).toBe(true);
    expect(view.title).toContain("Qwen2.5-Math-PRM-72B-finetuned@2026-12-06");
  });

  it("comes after the trained PRM and before the judge", () => {
    const of = (source: string): Suggestion => ({ ...prediction, source });
    const order = orderSuggestions([of("judge"), of("prediction"), of("prm")]).map((s) => s.source);
    expect(order).toEqual(["prm", "prediction", "judge"]);
  });

  it("has a key entry per model, named as its chips are", () => {
    const steps = [{ alternatives_count: 0, suggestions: [prediction, { ...prediction, agent: "other@1" }, { ...prediction, source: "import", agent: "x" }] }];
    expect(legendItems(steps).map((i) => [i.mark, i.text])).toEqual([
      ["import", "Imported label"],
      ["my-prm@v3", "uploaded predictions"],
      ["other@1", "uploaded predictions"],
    ]);
  });
});
