/** The labeling page's Back (`o`, the top bar's button), editing a reopened submission, and
 * its small things: the unrated-step toast that goes once the step is rated, keys documented
 * where they differ between pages. */
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Task } from "../api";
import { FakeApi } from "../test/fakeApi";
import { FakeMyWork } from "../test/fakeMyWork";
import { makeTask } from "../test/fixtures";
import { cleanBrowserBetweenTests, pressKey as key, mountApp as mount, ratingsShown, stepRows as rows } from "../test/labelPage";

/** Annotation 7 as the server has it once submitted: all steps +1, version 2. */
function submitted(): Task {
  const task = makeTask({ steps: 2, labels: [1, 1], version: 2 });
  return { ...task, annotation: { ...task.annotation, status: "submitted" }, lock_expires_at: null as unknown as string };
}

cleanBrowserBetweenTests();

describe("Back and editing a submission", () => {
  it("o reopens the last submission; a change is resubmitted with its version, never autosaved", async () => {
    const api = new FakeApi([makeTask({ steps: 2 }), makeTask({ steps: 3, annotationId: 8 })]);
    const mw = new FakeMyWork(api);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("3");
    key("3");
    key("Enter");
    await waitFor(() => expect(rows()).toHaveLength(3)); // the next task, annotation 8
    mw.back = submitted();
    key("o");
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.callsTo("POST", "/my-work/back/")).toHaveLength(1);
    expect(screen.getByTestId("editing-banner")).toBeTruthy();
    expect(ratingsShown()).toEqual(["1", "1"]);
    expect(screen.getByTestId("submit-button").textContent).toContain("Resubmit");
    key("1"); // step 1 becomes wrong
    expect(ratingsShown()).toEqual(["-1", "1"]);
    await new Promise((r) => setTimeout(r, 800)); // past the autosave's debounce
    expect(api.callsTo("PUT", "/annotations/7/draft/")).toHaveLength(0);
    key("Enter");
    await waitFor(() => expect(api.callsTo("POST", "/annotations/7/resubmit/")).toHaveLength(1));
    const body = api.callsTo("POST", "/annotations/7/resubmit/")[0].body;
    expect(body.version).toBe(2);
    expect(body.labels.map((l: { rating: number }) => l.rating)).toEqual([-1, 1]);
    expect(body.next).toBeUndefined();
    await waitFor(() => expect(screen.getByTestId("notice").textContent).toBe("Resubmitted"));
    await waitFor(() => expect(rows()).toHaveLength(3)); // back to the queue's draft
    expect(screen.queryByTestId("editing-banner")).toBeNull();
  });

  it("the top bar's Back button does the same, and says when there is nothing to go back to", async () => {
    const api = new FakeApi([makeTask({ steps: 3, annotationId: 8 })]);
    const mw = new FakeMyWork(api);
    mount(api);
    await screen.findAllByTestId("step-row");
    fireEvent.click(screen.getByTestId("back-button"));
    await waitFor(() => expect(screen.getByTestId("notice").textContent).toContain("Nothing to go back to"));
    expect(rows()).toHaveLength(3);
    mw.back = submitted();
    fireEvent.click(screen.getByTestId("back-button"));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getByTestId("editing-banner")).toBeTruthy();
  });

  it("a resubmit over a change made in another tab shows the conflict banner", async () => {
    const api = new FakeApi([makeTask({ steps: 3, annotationId: 8 })]);
    const mw = new FakeMyWork(api);
    mw.reopened.set(7, submitted());
    mount(api, "/projects/1/label?open=7");
    await waitFor(() => expect(rows()).toHaveLength(2));
    api.version.set(7, 3); // another tab resubmitted meanwhile
    key("1");
    key("Enter");
    await waitFor(() => expect(screen.getByTestId("conflict-banner")).toBeTruthy());
    expect(api.callsTo("POST", "/annotations/7/resubmit/")).toHaveLength(1);
    expect(rows()).toHaveLength(2); // nothing was replaced: the page stays on it
  });

  it("opens the annotation My work names (?open=), and the queue when it is gone", async () => {
    const api = new FakeApi([makeTask({ steps: 3, annotationId: 8 })]);
    const mw = new FakeMyWork(api);
    mw.reopened.set(7, submitted());
    mount(api, "/projects/1/label?open=7");
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.callsTo("POST", "/annotations/7/reopen/")).toHaveLength(1);
    expect(api.callsTo("POST", "/queue/next/")).toHaveLength(0);
    expect(screen.getByTestId("editing-banner")).toBeTruthy();
  });

  it("falls back to the queue with a message when the reopen is refused", async () => {
    const api = new FakeApi([makeTask({ steps: 3, annotationId: 8 })]);
    new FakeMyWork(api);
    mount(api, "/projects/1/label?open=9");
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByTestId("notice").textContent).toContain("no longer available");
  });
});

describe("Labeling page small things", () => {
  it("clears the 'Step N has no rating' toast once that step is rated", async () => {
    mount(new FakeApi([makeTask({ steps: 3 })]));
    await screen.findAllByTestId("step-row");
    key("3");
    key("Enter");
    expect(screen.getByTestId("notice").textContent).toContain("Step 2 has no rating");
    key("3"); // rates step 2 (the cursor went there)
    await waitFor(() => expect(screen.queryByTestId("notice")).toBeNull());
  });

  it("the shortcuts overlay lists o and says what n, a, m, r and l do on the review page", async () => {
    mount(new FakeApi([makeTask()]));
    await screen.findAllByTestId("step-row");
    key("?");
    const overlay = screen.getByTestId("shortcuts-overlay");
    expect(overlay.textContent).toContain("Back: reopen what you submitted or skipped last");
    const notes = screen.getAllByTestId("shortcut-elsewhere").map((n) => n.textContent?.trim());
    expect(notes).toEqual([
      "(on the review page: next item)",
      "(on the review page: accept)",
      "(on the review page: next marked step)",
      "(on the review page: reject)",
      "(on the review page: next annotator)",
    ]);
  });
});
