import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { FakeReview, makeMetrics, makeQueueItem } from "../test/fakeReview";
import { makeProject } from "../test/fixtures";

function setup(review = new FakeReview()) {
  const api = new FakeApi([]);
  api.project = makeProject({ role: "reviewer", stats: { problems: 3, solutions: 10, steps: 40, submitted_annotations: 8, complete_solutions: 4 } });
  review.queue = [makeQueueItem({ id: 1 }), makeQueueItem({ id: 2, resolution_id: 9, resolution_provenance: "reviewer" })];
  review.install(api);
  api.install();
  render(
    <MemoryRouter initialEntries={["/projects/1/dashboard"]}>
      <App />
    </MemoryRouter>,
  );
  return { api, review };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("DashboardPage", () => {
  it("shows the agreement numbers and draws the charts from the metrics", async () => {
    setup();
    expect((await screen.findByTestId("stat-alpha")).textContent).toContain("0.61");
    expect(screen.getByTestId("stat-fleiss").textContent).toContain("0.55");
    expect(screen.getByTestId("stat-fleiss").textContent).toContain("110 steps with 2 raters");
    expect(screen.getByTestId("stat-pairwise").textContent).toContain("80%");
    expect(screen.getByTestId("stat-first-error").textContent).toContain("0.44");
    // Pair heatmap: 3 annotators, 9 cells; alice-bob coloured both ways with κ, alice-carol negative.
    const cells = screen.getByTestId("pair-heatmap").querySelectorAll("[data-testid=heat-cell]");
    expect(cells).toHaveLength(9);
    expect([...cells].map((c) => c.getAttribute("data-value"))).toEqual(["", "0.62", "-0.1", "0.62", "", "", "-0.1", "", ""]);
    expect(screen.getByTestId("pair-heatmap").querySelector("title")?.textContent).toBeTruthy();
    // Switch to % agreement.
    fireEvent.click(screen.getByRole("button", { name: "% agree" }));
    expect(screen.getByTestId("pair-heatmap").textContent).toContain("81%");
    // Label distribution: one bar per part with a tooltip.
    const titles = [...screen.getByTestId("label-distribution").querySelectorAll("rect title")].map((t) => t.textContent);
    expect(titles).toContain("alice · Correct (+1): 60 steps (75%)");
    // Throughput: 3 days (one filled with 0) as grouped bars, and the per-annotator table.
    const bars = screen.getByTestId("throughput-chart").querySelectorAll("rect title");
    expect([...bars].map((t) => t.textContent)).toContain("bob · Jun 2: 40 steps");
    expect(screen.getByTestId("throughput-table").textContent).toContain("alice");
    // Review progress from the queue: 1 resolved, 1 to review.
    await waitFor(() => expect(screen.getByTestId("queue-progress").textContent).toContain("2"));
    const progress = [...screen.getByTestId("queue-progress").querySelectorAll("rect title")].map((t) => t.textContent);
    expect(progress).toContain("Review · Resolved: 1 solutions (50%)");
    expect(progress).toContain("Labeling · Complete (overlap reached): 4 solutions (40%)");
    expect(screen.getByTestId("gold-bars").textContent).toContain("90%");
    expect(screen.getByTestId("auto-heatmap").textContent).toContain("0.35");
  });

  it("shows each annotator's own totals and the coverage, one annotator counted apart", async () => {
    const review = new FakeReview();
    review.metrics = makeMetrics({
      coverage: { solutions: 10, none: 3, one: 5, two_plus: 2 },
      annotators: [
        { annotator: "alice", submitted: 6, skipped: 1, hours: 1.25, shared_steps: 8, agreement: 0.75 },
        { annotator: "bob", submitted: 2, skipped: 0, hours: 0.5, shared_steps: 0, agreement: null },
      ],
    });
    setup(review);
    const cards = await screen.findAllByTestId("annotator-card");
    expect(cards.map((c) => c.getAttribute("data-annotator"))).toEqual(["alice", "bob"]);
    const own = (i: number, id: string) => cards[i].querySelector(`[data-testid=${id}]`)?.textContent;
    // Their own numbers, not the project's 8 submitted annotations.
    expect([own(0, "annotator-submitted"), own(0, "annotator-skipped"), own(0, "annotator-agreement")]).toEqual(["6", "1", "75%"]);
    expect([own(1, "annotator-submitted"), own(1, "annotator-agreement")]).toEqual(["2", "no overlap"]);
    expect(cards[0].textContent).toContain("1.25 h");
    const counts = screen.getByTestId("coverage-counts").textContent;
    expect(counts).toContain("2+ annotators 2");
    expect(counts).toContain("1 annotator 5");
    expect(counts).toContain("Not labeled 3");
    expect(screen.getByTestId("coverage-note").textContent).toBe("5 solutions have one annotator: counted apart, never as agreement.");
    // The queue's one-annotator state is its own count beside the reasons.
    expect((await screen.findByTestId("queue-reasons")).textContent).toContain("1 annotator");
  });

  it("draws the review progress from the metrics when they carry it, without asking the queue", async () => {
    const review = new FakeReview();
    review.metrics = makeMetrics({
      review: {
        unresolved: { total: 1500, disagreement: 1200, unsure: 0, gold_failure: 0, auto_conflict: 0, single_annotator: 300, rest: 0 },
        resolved: 500,
      },
    });
    const { api } = setup(review);
    await waitFor(() => expect(screen.getByTestId("queue-reasons").textContent).toContain("1,200"));
    const progress = [...screen.getByTestId("queue-progress").querySelectorAll("rect title")].map((t) => t.textContent);
    expect(progress).toContain("Review · Resolved: 500 solutions (25%)");
    expect(api.callsTo("GET", "/review/queue/")).toHaveLength(0);
  });

  it("shows no annotator cards or coverage from an older snapshot without them", async () => {
    setup();
    await screen.findByTestId("stat-alpha");
    expect(screen.queryByTestId("annotator-cards")).toBeNull();
    expect(screen.queryByTestId("coverage")).toBeNull();
  });

  it("waits while a large project's first snapshot is computed (202), then shows it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const review = new FakeReview();
    review.metrics = { status: "computing" };
    review.metricsAfter = makeMetrics({ cached: true });
    const { api } = setup(review);
    expect(await screen.findByText("Computing the metrics of a large project…")).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2100);
    });
    expect(await screen.findByTestId("stat-alpha")).toBeTruthy();
    expect(screen.getByTestId("metrics-computed").textContent).toContain("snapshot");
    expect(api.callsTo("GET", "/metrics/")).toHaveLength(2);
  });

  it("says how old a snapshot served while people label is, and shows the refreshed one", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const review = new FakeReview();
    review.metrics = makeMetrics({ cached: true, changes_since: 1234, refreshing: true });
    review.metricsAfter = makeMetrics({ cached: true, changes_since: 0, refreshing: false });
    const { api } = setup(review);
    await screen.findByTestId("stat-alpha");
    const age = screen.getByTestId("metrics-computed").textContent;
    expect(age).toContain("As of");
    expect(age).toContain("1,234 changes since, refreshing…");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2100);
    });
    await waitFor(() => expect(screen.getByTestId("metrics-computed").textContent).toContain("Computed"));
    expect(screen.getByTestId("metrics-computed").textContent).not.toContain("since");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4100); // not refreshing: no more polls
    });
    expect(api.callsTo("GET", "/metrics/")).toHaveLength(2);
  });

  it("backs off while the same snapshot is still refreshing: 2 s, then 4 s, then 8 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const review = new FakeReview();
    review.metrics = makeMetrics({ cached: true, changes_since: 12, refreshing: true });
    const { api } = setup(review);
    await screen.findByTestId("stat-alpha");
    const polls = () => api.callsTo("GET", "/metrics/").length;
    const after = async (ms: number) => {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(ms);
      });
    };
    expect(polls()).toBe(1);
    await after(2100); // 2 s
    expect(polls()).toBe(2);
    await after(3000); // the next one 4 s after the second, not 2
    expect(polls()).toBe(2);
    await after(1000);
    expect(polls()).toBe(3);
    await after(7000); // then 8 s
    expect(polls()).toBe(3);
    await after(1100);
    expect(polls()).toBe(4);
  });
});
