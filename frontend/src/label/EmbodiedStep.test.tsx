import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Suggestion, TaskStep } from "../api";
import { SOURCES, sourcesForDomain } from "../admin/autolabel";
import { EmbodiedStepBody, EpisodeSummary, formatTimestamp, isEmbodiedStep } from "./EmbodiedStep";
import { StepRow } from "./StepRow";
import { describeSuggestion } from "./suggestions";

function step(text: string, meta: TaskStep["meta"] = {}, images: string[] = [], suggestions: Suggestion[] = []): TaskStep {
  return { id: 1, index: 0, text, alternatives_count: 0, suggestions, meta, images };
}

const noop = () => {};

function row(s: TaskStep) {
  return render(
    <StepRow
      step={s}
      label={{ step_id: 1, rating: null, unsure: false, comment: "", alternative_text: "" }}
      index={0}
      isCurrent
      dimmed={false}
      isFirstError={false}
      ratingValues={[-1, 0, 1]}
      showSuggestions
      editor={null}
      readOnly={false}
      onRate={noop}
      onAcceptSuggestion={noop}
      onSelect={noop}
      onToggleUnsure={noop}
      onOpenEditor={noop}
      onSaveEditor={noop}
      onCancelEditor={noop}
    />,
  );
}

describe("embodied timeline", () => {
  it("shows a step's kind, signal, time and predicates", () => {
    render(
      <EmbodiedStepBody
        step={step("grasp(mug)", {
          kind: "action",
          success: false,
          timestamp: 7.4,
          preconditions: ["hand_empty", "on(mug, table)"],
          effects: ["holding(mug)", "not hand_empty"],
        })}
      />,
    );
    const card = screen.getByTestId("embodied-step");
    expect(card.dataset.kind).toBe("action");
    expect(screen.getByTestId("emb-kind").textContent).toBe("Action");
    expect(screen.getByTestId("emb-signal").dataset.success).toBe("false");
    expect(screen.getByTestId("emb-signal").textContent).toContain("failed");
    expect(screen.getByTestId("emb-time").textContent).toBe("t = 7.4 s");
    expect(screen.getByTestId("emb-preconditions").textContent).toContain("on(mug, table)");
    const negated = within(screen.getByTestId("emb-effects")).getByText("not hand_empty");
    expect(negated.className).toContain("emb-pred-neg");
  });

  it("tells embodied steps from agent steps and formats times", () => {
    expect(isEmbodiedStep(step("x", { kind: "subgoal" }))).toBe(true);
    expect(isEmbodiedStep(step("x", { kind: "observation" }))).toBe(true);
    expect(isEmbodiedStep(step("x", { kind: "observation", role: "tool", tool_call_id: "c1" }))).toBe(false);
    expect(isEmbodiedStep(step("x", { kind: "tool_call" }))).toBe(false);
    expect(isEmbodiedStep(step("x", {}))).toBe(false);
    expect(formatTimestamp(3)).toBe("t = 3 s");
    expect(formatTimestamp(64.2)).toBe("t = 1 min 04 s");
    expect(formatTimestamp(undefined)).toBeNull();
  });

  it("renders in a step row with its frames, enlarged on click", () => {
    row(step("Mug in hand", { kind: "subgoal", success: true }, ["/api/projects/1/media/a.png"]));
    expect(screen.getByTestId("embodied-step").dataset.kind).toBe("subgoal");
    expect(screen.getByTestId("emb-signal").dataset.success).toBe("true");
    fireEvent.click(screen.getByTestId("image-thumb"));
    expect(screen.getByTestId("image-zoom")).toBeTruthy();
  });

  it("shows a subgoal −1 as a chip and its finding under the step; 'checks out' as evidence", () => {
    const minus: Suggestion = {
      source: "subgoal",
      agent: "subgoal-checker/v1",
      value: -1,
      score: null,
      evidence: { check: "precondition", message: "precondition open(drawer) not satisfied by the state reached so far" },
    };
    row(step("place(mug, drawer)", { kind: "action", success: true }, [], [minus]));
    expect(screen.getByTestId("checker-note").textContent).toContain("open(drawer) not satisfied");
    const checks = describeSuggestion({ ...minus, value: null, evidence: { kind: "checks out", check: "verified", message: "logged successful" } });
    expect(checks.evidence?.label).toBe("log checks out");
    expect(checks.title).toContain("A logged success does not make the step a good one");
    const flag = describeSuggestion({ ...minus, value: null, evidence: { kind: "contradicts outcome", message: "yet the episode is logged as failed" } });
    expect(flag.evidence?.label).toBe("contradicts the outcome");
    expect(flag.evidence?.items).toEqual(["yet the episode is logged as failed"]);
  });

  it("summarises the episode: outcome, goal and start", () => {
    render(<EpisodeSummary episode={{ goal: ["in(mug, drawer)"], initial_state: ["hand_empty"] }} success={false} />);
    expect(screen.getByTestId("episode-outcome").textContent).toBe("task failed");
    expect(screen.getByTestId("episode-goal").textContent).toContain("in(mug, drawer)");
  });

  it("offers the subgoal checker to embodied projects", () => {
    expect(sourcesForDomain(SOURCES, ["subgoal", "judge", "prm"]).map((s) => s.name)).toEqual(["subgoal", "judge", "prm"]);
  });
});
