import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { FakeReview, makeQueueItem, makeReviewDetail } from "../test/fakeReview";
import { makeProject } from "../test/fixtures";

let location = "";
function Where() {
  location = useLocation().pathname;
  return null;
}

function setup(role: "admin" | "reviewer" = "reviewer") {
  const api = new FakeApi([]);
  api.user = { id: 9, username: "rev", is_staff: false };
  api.project = makeProject({ role });
  const review = new FakeReview();
  review.details.set(55, makeReviewDetail({ id: 55 }));
  review.details.set(56, makeReviewDetail({ id: 56, ratings: [[1, 1, 1, 1], [1, 1, 1, 1]] }));
  review.queue = [makeQueueItem({ id: 55 }), makeQueueItem({ id: 56, reasons: [], reason: "rest" })];
  review.install(api);
  api.install();
  render(
    <MemoryRouter initialEntries={["/projects/1/review/55"]}>
      <App />
      <Where />
    </MemoryRouter>,
  );
  return { api, review };
}

const key = (k: string, opts: Record<string, unknown> = {}) =>
  act(() => {
    fireEvent.keyDown(document.body, { key: k, ...opts });
  });
const steps = () => screen.getAllByTestId("review-step");
const decisions = () => steps().map((s) => s.getAttribute("data-decision"));
const current = () => steps().findIndex((s) => s.getAttribute("data-current") === "true");

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("ReviewPage", () => {
  it("shows every annotation side by side with the disagreements marked", async () => {
    setup();
    expect(await screen.findAllByTestId("review-step")).toHaveLength(4);
    expect(screen.getAllByTestId("annotator-column").map((c) => c.textContent)).toEqual(["alicesubmitted", "bobsubmitted"]);
    expect(steps().map((s) => s.getAttribute("data-disagrees"))).toEqual([null, "true", "true", null]);
    // Cells carry each annotator's rating; bob's comment and unsure flag are shown.
    expect(within(steps()[1]).getAllByTestId("review-cell").map((c) => c.getAttribute("data-rating"))).toEqual(["1", "-1"]);
    expect(steps()[1].textContent).toContain("x could be -2 too");
    expect(within(steps()[2]).getByText("Unsure")).toBeTruthy();
    // The symbolic suggestion with its refuted equation (evidence).
    expect(within(steps()[1]).getByTestId("suggestion-chip").getAttribute("data-source")).toBe("symbolic");
    expect(within(steps()[1]).getByTestId("symbolic-refuted").textContent).toContain("-2");
    expect(decisions()).toEqual(["1", "", "", "1"]);
    expect(current()).toBe(1);
    expect(document.querySelector(".problem-text .katex")).not.toBeNull();
  });

  it("adjudicates from the keyboard, sends the resolution it saw and opens the next item", async () => {
    const { api } = setup();
    await screen.findAllByTestId("review-step");
    key("Enter"); // step 2 and 3 undecided: refused
    expect(screen.getByTestId("notice").textContent).toContain("Step 2 has no decision");
    expect(api.callsTo("POST", "/adjudicate/")).toHaveLength(0);
    key("-");
    expect(current()).toBe(2);
    // The notice was about step 2, now decided: it goes (it stayed up, stale, before).
    expect(screen.queryByTestId("notice")).toBeNull();
    key("l"); // bob's column
    key("p"); // bob's rating for step 3: 0
    expect(decisions()).toEqual(["1", "-1", "0", "1"]);
    key("Enter");
    await waitFor(() => expect(api.callsTo("POST", "/adjudicate/")).toHaveLength(1));
    expect(api.callsTo("POST", "/adjudicate/")[0].body).toEqual({
      labels: [
        { step_id: 200, rating: 1 },
        { step_id: 201, rating: -1 },
        { step_id: 202, rating: 0 },
        { step_id: 203, rating: 1 },
      ],
      comment: "",
      expected_resolution_id: null,
    });
    await waitFor(() => expect(location).toBe("/projects/1/review/56"));
    expect(screen.getByTestId("notice").textContent).toContain("Resolved #55");
  });

  it("shows a banner on 409 and sends nothing more", async () => {
    const { api, review } = setup();
    await screen.findAllByTestId("review-step");
    review.failNext = {
      status: 409,
      body: { error: { code: "conflict", message: "Another reviewer resolved this solution while you were looking at it. Reload.", details: {} } },
    };
    key("a"); // accept alice's
    expect(await screen.findByTestId("conflict-banner")).toBeTruthy();
    expect(screen.getByTestId("conflict-banner").textContent).toContain("Another reviewer");
    expect(api.callsTo("POST", "/accept/")).toHaveLength(1);
    key("3");
    key("Enter");
    expect(api.callsTo("POST", "/adjudicate/")).toHaveLength(0);
    expect(location).toBe("/projects/1/review/55");
    fireEvent.click(screen.getByTestId("conflict-reload"));
    await waitFor(() => expect(screen.queryByTestId("conflict-banner")).toBeNull());
  });

  it("rejects the selected annotation with a required comment and stays", async () => {
    const { api } = setup();
    await screen.findAllByTestId("review-step");
    key("ArrowRight");
    expect(screen.getByTestId("selected-annotation").textContent).toContain("bob");
    key("r");
    const dialog = await screen.findByTestId("reject-dialog");
    const input = within(dialog).getByTestId("reject-comment");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(dialog.textContent).toContain("needs a comment");
    fireEvent.change(input, { target: { value: "Step 2 is right: x = 2 is given." } });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(api.callsTo("POST", "/annotations/11/reject/")).toHaveLength(1));
    expect(api.callsTo("POST", "/annotations/11/reject/")[0].body).toEqual({ comment: "Step 2 is right: x = 2 is given." });
    await waitFor(() => expect(screen.getAllByTestId("annotator-column")[1].getAttribute("data-status")).toBe("rejected"));
    // Still on this solution, bob's column still selected.
    expect(location).toBe("/projects/1/review/55");
    expect(screen.getByTestId("selected-annotation").textContent).toContain("bob");
  });

  it("accepts with the keyboard and sends the resolution it saw", async () => {
    const { api } = setup();
    await screen.findAllByTestId("review-step");
    key("a");
    await waitFor(() => expect(api.callsTo("POST", "/annotations/10/accept/")).toHaveLength(1));
    expect(api.callsTo("POST", "/annotations/10/accept/")[0].body).toEqual({ comment: "", expected_resolution_id: null });
    await waitFor(() => expect(location).toBe("/projects/1/review/56"));
  });

  it("lets admins mark a solution gold with the decisions, not reviewers", async () => {
    const { api } = setup("admin");
    await screen.findAllByTestId("review-step");
    await screen.findByTestId("gold-card");
    key("G"); // steps 2 and 3 undecided: refused
    expect(screen.getByTestId("notice").textContent).toContain("Decide step 2 first");
    key("1");
    key("1");
    key("G");
    await waitFor(() => expect(api.callsTo("PUT", "/gold/")).toHaveLength(1));
    expect(api.callsTo("PUT", "/gold/")[0].body.labels.map((l: { rating: number }) => l.rating)).toEqual([1, -1, -1, 1]);
    await waitFor(() => expect(screen.getByTestId("gold-unset")).toBeTruthy());
    vi.unstubAllGlobals();
  });

  it("has no gold card for reviewers", async () => {
    setup("reviewer");
    await screen.findAllByTestId("review-step");
    expect(screen.queryByTestId("gold-card")).toBeNull();
  });

  it("posts a comment on the current step with c", async () => {
    const { api } = setup();
    await screen.findAllByTestId("review-step");
    key("c");
    const input = screen.getByTestId("comment-input") as HTMLTextAreaElement;
    expect(document.activeElement).toBe(input);
    expect(input.placeholder).toContain("step 2");
    fireEvent.change(input, { target: { value: "Both roots count here." } });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(api.callsTo("POST", "/comments/")).toHaveLength(1));
    expect(api.callsTo("POST", "/comments/")[0].body).toEqual({ body: "Both roots count here.", step_id: 201 });
    expect(await screen.findByText("Both roots count here.")).toBeTruthy();
  });
});

describe("ReviewPage: step dependencies", () => {
  it("marks what a step uses with d and a step number, and sends it with the adjudication", async () => {
    const { api } = setup();
    await screen.findAllByTestId("review-step");
    key("-"); // step 2: −1
    key("0"); // step 3: 0, the cursor moves on to step 4
    expect(current()).toBe(3);
    key("d");
    expect(screen.getByTestId("uses-prompt").textContent).toContain("Step 4 uses step");
    key("3"); // a digit in the prompt is a step number, not a decision
    expect(screen.queryByTestId("uses-prompt")).toBeNull();
    expect(decisions()).toEqual(["1", "-1", "0", "1"]);
    const chips = within(steps()[3]).getByTestId("uses-chips");
    expect(chips.getAttribute("data-uses")).toBe("2");
    expect(chips.textContent).toContain("decision");
    key("d");
    key("4"); // not an earlier step: refused, nothing changes
    expect(screen.getByTestId("notice").textContent).toContain("Step 4 can only use earlier steps (1–3)");
    key("Enter");
    await waitFor(() => expect(api.callsTo("POST", "/adjudicate/")).toHaveLength(1));
    expect(api.callsTo("POST", "/adjudicate/")[0].body.labels).toEqual([
      { step_id: 200, rating: 1 },
      { step_id: 201, rating: -1 },
      { step_id: 202, rating: 0 },
      { step_id: 203, rating: 1, uses: [2] },
    ]);
  });
});

describe("ReviewPage: skipping with n", () => {
  it("goes to the item after this one, wrapping around", async () => {
    const api = new FakeApi([]);
    api.project = makeProject({ role: "reviewer" });
    const review = new FakeReview();
    for (const id of [55, 56, 57]) review.details.set(id, makeReviewDetail({ id }));
    review.queue = [55, 56, 57].map((id) => makeQueueItem({ id }));
    review.install(api);
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1/review/56"]}>
        <App />
        <Where />
      </MemoryRouter>,
    );
    // `n` is ignored while a solution loads: press it once the page shows the item, idle.
    const shown = (id: number) =>
      waitFor(() => {
        expect(screen.getByTestId("solution-head").textContent).toContain(`Solution #${id}`);
        expect(document.querySelector(".is-loading")).toBeNull();
      });
    await shown(56);
    key("n");
    await waitFor(() => expect(location).toBe("/projects/1/review/57"));
    await shown(57);
    key("n");
    await waitFor(() => expect(location).toBe("/projects/1/review/55"));
    expect(api.callsTo("POST", "/adjudicate/")).toHaveLength(0);
  });
});

describe("ReviewPage: many annotators", () => {
  it("gives the steps the full width from four columns on", async () => {
    const api = new FakeApi([]);
    api.project = makeProject({ role: "reviewer" });
    const review = new FakeReview();
    review.details.set(60, makeReviewDetail({ id: 60, ratings: [[1, 1], [1, -1], [1, 0], [-1, 1]] }));
    review.queue = [makeQueueItem({ id: 60 })];
    review.install(api);
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1/review/60"]}>
        <App />
      </MemoryRouter>,
    );
    await screen.findAllByTestId("review-step");
    expect(screen.getAllByTestId("annotator-column")).toHaveLength(4);
    expect(document.querySelector(".review-layout-wide")).not.toBeNull();
    expect(within(steps()[0]).getAllByTestId("review-cell").map((c) => c.getAttribute("data-rating"))).toEqual(["1", "1", "1", "-1"]);
  });
});
