import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeApi } from "../test/fakeApi";
import { makeTask } from "../test/fixtures";
import { cleanBrowserBetweenTests, pressKey as key, mountApp as mount, stepRows as rows } from "../test/labelPage";

cleanBrowserBetweenTests();

/** A task whose first three steps are the model's reasoning. */
function reasoningTask() {
  const task = makeTask({ steps: 5 });
  task.solution.steps.forEach((s, i) => (s.thinking = i < 3));
  return task;
}

const shown = () => rows().map((r) => Number(r.getAttribute("data-index")));
const current = () => Number(rows().find((r) => r.getAttribute("data-current") === "true")?.getAttribute("data-index"));

describe("LabelPage reasoning steps", () => {
  it("folds the reasoning into one bar and starts on the answer", async () => {
    mount(new FakeApi([reasoningTask()]));
    const bar = await screen.findByTestId("thinking-fold");
    expect(bar.textContent).toContain("Reasoning · 3 steps");
    expect(bar.textContent).toContain("0 of 3 rated");
    expect(shown()).toEqual([3, 4]);
    await waitFor(() => expect(current()).toBe(3));
  });

  it("opens and folds with a click or r; j/k skip folded steps", async () => {
    mount(new FakeApi([reasoningTask()]));
    await screen.findByTestId("thinking-fold");
    await waitFor(() => expect(current()).toBe(3));
    key("k");
    expect(current()).toBe(3);
    fireEvent.click(screen.getByTestId("thinking-toggle"));
    expect(shown()).toEqual([0, 1, 2, 3, 4]);
    key("k");
    expect(current()).toBe(2);
    key("r"); // all open: fold them, and the current step leaves the folded run
    expect(shown()).toEqual([3, 4]);
    expect(current()).toBe(3);
    key("r");
    expect(shown()).toEqual([0, 1, 2, 3, 4]);
    expect(current()).toBe(0);
    expect(rows()[0].getAttribute("data-thinking")).toBe("true");
  });

  it("opens the reasoning when rating moves on to an unrated reasoning step", async () => {
    mount(new FakeApi([reasoningTask()]));
    await screen.findByTestId("thinking-fold");
    await waitFor(() => expect(current()).toBe(3));
    key("3");
    key("3");
    await waitFor(() => expect(shown()).toEqual([0, 1, 2, 3, 4]));
    expect(current()).toBe(0);
    key("1");
    expect(rows()[0].getAttribute("data-rating")).toBe("-1");
    expect(screen.getByTestId("thinking-fold").textContent).toContain("1 of 3 rated");
  });

  it("shows no bar for a solution without reasoning", async () => {
    mount(new FakeApi([makeTask()]));
    await screen.findAllByTestId("step-row");
    expect(screen.queryByTestId("thinking-fold")).toBeNull();
    expect(shown()).toEqual([0, 1, 2, 3]);
  });
});
