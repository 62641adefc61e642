/** A reviewer's step decisions live only in the page until Submit decision: a reload lost them
 * without a word. The page now asks first (lib/useLeaveGuard). */
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { FakeReview, makeQueueItem, makeReviewDetail } from "../test/fakeReview";
import { makeProject } from "../test/fixtures";

const key = (k: string) =>
  act(() => {
    fireEvent.keyDown(document.body, { key: k });
  });

function leaving(): boolean {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

afterEach(() => vi.unstubAllGlobals());

describe("Leaving the review page", () => {
  it("asks before a reload loses decisions not sent yet, and not once they are sent", async () => {
    const api = new FakeApi([]);
    api.user = { id: 9, username: "rev", is_staff: false };
    api.project = makeProject({ role: "reviewer" });
    const review = new FakeReview();
    review.details.set(55, makeReviewDetail({ id: 55 }));
    review.details.set(56, makeReviewDetail({ id: 56, ratings: [[1, 1, 1, 1], [1, 1, 1, 1]] }));
    review.queue = [makeQueueItem({ id: 55 }), makeQueueItem({ id: 56, reasons: [], reason: "rest" })];
    review.install(api);
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1/review/55"]}>
        <App />
      </MemoryRouter>,
    );
    await screen.findAllByTestId("review-step");
    expect(leaving()).toBe(false); // opened, nothing decided
    key("-");
    key("0");
    expect(leaving()).toBe(true);
    key("Enter");
    await waitFor(() => expect(api.callsTo("POST", "/adjudicate/")).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId("notice").textContent).toContain("Resolved #55"));
    await waitFor(() => expect(leaving()).toBe(false)); // the next solution, untouched
  });
});
