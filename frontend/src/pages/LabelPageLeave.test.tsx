/** Changes to a reopened submission live only in the page until Resubmit (they are never
 * autosaved): a reload or a closed tab lost them without a word. The page now asks first. */
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Task } from "../api";
import { FakeApi } from "../test/fakeApi";
import { FakeMyWork } from "../test/fakeMyWork";
import { makeTask } from "../test/fixtures";
import { cleanBrowserBetweenTests, pressKey as key, mountApp as mount, ratingsShown, stepRows as rows } from "../test/labelPage";

function submitted(): Task {
  const task = makeTask({ steps: 2, labels: [1, 1], version: 2 });
  return { ...task, annotation: { ...task.annotation, status: "submitted" }, lock_expires_at: null as unknown as string };
}

/** What the browser does before a reload: true when the page asks to stay. */
function leaving(): boolean {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

cleanBrowserBetweenTests();

describe("Leaving the labeling page", () => {
  it("asks before a reload loses changes to a reopened submission, and only then", async () => {
    const api = new FakeApi([makeTask({ steps: 3, annotationId: 8 })]);
    const mw = new FakeMyWork(api);
    mount(api);
    await screen.findAllByTestId("step-row");
    key("3"); // a draft: autosaved, nothing to ask
    expect(leaving()).toBe(false);
    mw.back = submitted();
    key("o");
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(leaving()).toBe(false); // reopened, unchanged
    key("1");
    expect(ratingsShown()).toEqual(["-1", "1"]);
    expect(leaving()).toBe(true);
    key("Enter"); // resubmitted: nothing left to lose
    await waitFor(() => expect(api.callsTo("POST", "/annotations/7/resubmit/")).toHaveLength(1));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(leaving()).toBe(false);
  });
});
