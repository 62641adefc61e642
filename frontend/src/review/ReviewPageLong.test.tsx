/** A solution of thousands of steps on the review page: only the rows near the view are in the
 * DOM (a table's rows saying their place), the keyboard reaches every step, find goes to a step
 * that is not rendered. jsdom has no layout: the window's scroll and the rows' boxes are stood in
 * for (90 px a row), as in LabelPageLong.test.tsx. */
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import type { Rating } from "../api";
import { FakeApi } from "../test/fakeApi";
import { FakeReview, makeQueueItem, makeReviewDetail } from "../test/fakeReview";
import { makeProject } from "../test/fixtures";
import { stubWindowLayout } from "../test/windowLayout";

const ROW = 90;
let layout: { scrollY: () => number };

beforeEach(() => {
  layout = stubWindowLayout((el) => {
    if (el.dataset.testid === "review-rows") return { top: 0, height: ROW * Number(el.dataset.rows ?? 0) };
    if (el.dataset.testid === "review-step") return { top: Number(el.dataset.index) * ROW, height: ROW };
    return null;
  });
});

afterEach(() => vi.restoreAllMocks());

function mount(steps: number) {
  const api = new FakeApi([]);
  api.project = makeProject({ role: "reviewer" });
  const review = new FakeReview();
  const alice = Array.from({ length: steps }, () => 1 as Rating);
  const bob = alice.map((r, i) => (i === steps - 1 ? (-1 as Rating) : r));
  review.details.set(70, makeReviewDetail({ id: 70, ratings: [alice, bob] }));
  review.queue = [makeQueueItem({ id: 70 })];
  review.install(api);
  api.install();
  render(
    <MemoryRouter initialEntries={["/projects/1/review/70"]}>
      <App />
    </MemoryRouter>,
  );
}

const key = (k: string, opts: Record<string, unknown> = {}) =>
  act(() => {
    fireEvent.keyDown(document.body, { key: k, ...opts });
  });
const rows = () => screen.getAllByTestId("review-step");
const current = () => document.querySelector<HTMLElement>('[data-testid="review-step"][data-current="true"]');

describe("ReviewPage with a long solution", { timeout: 20_000 }, () => {
  it("renders the rows near the view; End reaches the last step; find reaches one not rendered", async () => {
    mount(2000);
    await screen.findAllByTestId("review-step");
    const group = screen.getByTestId("review-rows");
    group.dataset.rows = "2000";
    expect(group.getAttribute("data-windowed")).toBe("true");
    expect(group.getAttribute("role")).toBe("rowgroup");
    expect(screen.getByTestId("review-grid").getAttribute("aria-rowcount")).toBe("2001");
    expect(rows().length).toBeGreaterThan(5);
    expect(rows().length).toBeLessThan(60);
    for (const row of rows()) expect(row.getAttribute("aria-rowindex")).toBe(String(Number(row.dataset.index) + 2));
    expect(screen.getByTestId("windowed-note").textContent).toContain("near the view");
    // The page opens on the first step still to decide: the last, where bob differs.
    await waitFor(() => expect(current()?.getAttribute("data-index")).toBe("1999"));
    expect(current()?.getAttribute("data-disagrees")).toBe("true");
    expect(layout.scrollY()).toBeGreaterThan(ROW * (2000 - 30));

    key("Home");
    await waitFor(() => expect(current()?.getAttribute("data-index")).toBe("0"));
    expect(rows().length).toBeLessThan(60);
    expect(layout.scrollY()).toBeLessThan(ROW * 30);
    key("End");
    await waitFor(() => expect(current()?.getAttribute("data-index")).toBe("1999"));
    key("Home");
    await waitFor(() => expect(current()?.getAttribute("data-index")).toBe("0"));
    expect(screen.queryByText("Step text 1500")).toBeNull();
    key("f", { ctrlKey: true });
    const input = await screen.findByTestId("step-find-input");
    act(() => {
      fireEvent.change(input, { target: { value: "step text 1500" } });
    });
    await waitFor(() => expect(current()?.getAttribute("data-index")).toBe("1499"));
    expect(screen.getByText("Step text 1500")).toBeTruthy();
    act(() => {
      fireEvent.keyDown(input, { key: "Escape" });
    });
    expect(screen.queryByTestId("step-find")).toBeNull();
  });

  it("renders a short solution whole and leaves Ctrl F to the browser", async () => {
    mount(40);
    await screen.findAllByTestId("review-step");
    expect(rows()).toHaveLength(40);
    expect(screen.getByTestId("review-rows").getAttribute("data-windowed")).toBeNull();
    expect(screen.queryByTestId("windowed-note")).toBeNull();
    const e = new KeyboardEvent("keydown", { key: "f", ctrlKey: true, bubbles: true, cancelable: true });
    act(() => {
      document.body.dispatchEvent(e);
    });
    expect(e.defaultPrevented).toBe(false);
    key("/");
    expect(await screen.findByTestId("step-find")).toBeTruthy();
  });
});
