/** Review that tells the truth (issue 23): one annotator is "1 annotator", never agreement;
 * human ≠ machine steps are marked with a tooltip; m / M jump between marked steps; a key
 * explains the ∑ and fork marks. */
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReviewDetail } from "../api";
import { App } from "../App";
import { legendItems } from "../label/MarkLegend";
import { FakeApi } from "../test/fakeApi";
import { FakeReview, makeQueueItem, makeReviewDetail } from "../test/fakeReview";
import { makeProject } from "../test/fixtures";
import { nextMarked } from "./reviewState";

function setup(detail: ReviewDetail) {
  const api = new FakeApi([]);
  api.user = { id: 9, username: "rev", is_staff: false };
  api.project = makeProject({ role: "reviewer" });
  const review = new FakeReview();
  review.details.set(detail.solution.id, detail);
  review.queue = [makeQueueItem({ id: detail.solution.id, reasons: detail.reasons, reason: detail.reasons[0] ?? "rest" })];
  review.install(api);
  api.install();
  render(
    <MemoryRouter initialEntries={[`/projects/1/review/${detail.solution.id}`]}>
      <App />
    </MemoryRouter>,
  );
}

const key = (k: string) =>
  act(() => {
    fireEvent.keyDown(document.body, { key: k });
  });
const steps = () => screen.getAllByTestId("review-step");
const current = () => steps().findIndex((s) => s.getAttribute("data-current") === "true");

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("review truth", () => {
  it("shows one annotator as its own state, never as agreement", async () => {
    const detail = makeReviewDetail({ id: 60, ratings: [[1, 1, 1, 1]] });
    detail.reasons = ["auto_conflict", "single_annotator"];
    setup(detail);
    await screen.findAllByTestId("review-step");
    const state = screen.getByTestId("review-state");
    expect(within(state).getAllByTestId("reason-badge").map((b) => b.textContent)).toEqual(["Human vs auto", "1 annotator"]);
    expect(state.textContent).not.toContain("agree");
    const origins = screen.getAllByTestId("decision-origin").map((o) => o.textContent);
    expect(origins).toEqual(["1 annotator", "1 annotator", "1 annotator", "1 annotator"]);
    expect(document.body.textContent).not.toMatch(/all agree|annotators agree/i);
  });

  it("says annotators agree only when two or more do", async () => {
    const detail = makeReviewDetail({ id: 61, ratings: [[1, 1, 1, 1], [1, 1, 1, 1]] });
    detail.reasons = [];
    detail.steps.forEach((s) => (s.suggestions = []));
    setup(detail);
    await screen.findAllByTestId("review-step");
    expect(within(screen.getByTestId("review-state")).getByTestId("reason-badge").textContent).toBe("Annotators agree");
    expect(screen.getAllByTestId("decision-origin")[0].textContent).toBe("annotators agree");
  });

  it("marks human ≠ machine with a tooltip naming the source and the ratings", async () => {
    const detail = makeReviewDetail({ id: 62, ratings: [[1, 1, 1, 1]] });
    detail.reasons = ["single_annotator"];
    setup(detail);
    await screen.findAllByTestId("review-step");
    // Step 2: the annotator rated +1, the symbolic check says −1.
    expect(steps().map((s) => s.getAttribute("data-marked"))).toEqual([null, "true", null, null]);
    const mark = within(steps()[1]).getByTestId("mark-machine");
    expect(mark.textContent).toBe("human ≠ machine");
    expect(mark.getAttribute("title")).toBe("Human ≠ machine: Symbolic check says −, annotators rated +");
    expect(within(steps()[1]).queryByTestId("mark-humans")).toBeNull();
    expect(screen.getByTestId("machine-steps").textContent).toBe("1 human ≠ machine");
    // Each annotator's label and each machine source's label are on the row.
    expect(within(steps()[1]).getAllByTestId("review-cell").map((c) => c.getAttribute("data-rating"))).toEqual(["1"]);
    expect(within(steps()[1]).getByTestId("suggestion-chip").getAttribute("data-value")).toBe("-1");
  });

  it("jumps to the next and previous marked step with m and M", async () => {
    const detail = makeReviewDetail({ id: 63 }); // humans differ on steps 2 and 3
    detail.steps[3].suggestions = [{ source: "judge", agent: "gpt", value: -1, score: null, evidence: {} }];
    detail.steps[3].machine_differs = ["judge"];
    setup(detail);
    await screen.findAllByTestId("review-step");
    expect(steps().map((s) => s.getAttribute("data-marked"))).toEqual([null, "true", "true", "true"]);
    expect(within(steps()[3]).getByTestId("mark-machine").getAttribute("title")).toContain("LLM judge says −");
    expect(current()).toBe(1);
    key("m");
    expect(current()).toBe(2);
    key("m");
    expect(current()).toBe(3);
    key("m");
    expect(current()).toBe(1); // wraps around
    key("M");
    expect(current()).toBe(3);
  });

  it("explains the ∑ and fork marks in a key, and the fork mark has a tooltip", async () => {
    const detail = makeReviewDetail({ id: 64 });
    detail.steps[0].alternatives_count = 2;
    setup(detail);
    await screen.findAllByTestId("review-step");
    const legend = screen.getByTestId("mark-legend");
    expect(legend.textContent).toContain("∑ Symbolic check");
    expect(legend.textContent).toContain("other versions of the step in the data set");
    expect(legend.textContent).toContain("human ≠ machine a machine source differs from the annotators");
    expect(legend.textContent).toContain("Ratings differ annotators disagree");
    expect(within(steps()[0]).getByTestId("alternatives-count").getAttribute("title")).toBe("2 other versions of this step in the data set");
  });
});

describe("nextMarked and legendItems", () => {
  it("wraps around and answers null without a marked step", () => {
    expect(nextMarked([false, true, false, true], 1, 1)).toBe(3);
    expect(nextMarked([false, true, false, true], 3, 1)).toBe(1);
    expect(nextMarked([false, true, false, true], 1, -1)).toBe(3);
    expect(nextMarked([false, false], 0, 1)).toBeNull();
    expect(nextMarked([true], 0, 1)).toBe(0);
  });

  it("lists only the marks present", () => {
    expect(legendItems([{ alternatives_count: 0, suggestions: [] }])).toEqual([]);
    const items = legendItems([
      { alternatives_count: 1, suggestions: [{ source: "rollout", agent: "", value: 1, score: 0.5, evidence: {} }] },
    ]);
    expect(items.map((i) => i.key)).toEqual(["src-rollout", "fork"]);
  });
});
