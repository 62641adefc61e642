/** A solution of thousands of steps on the labeling page: only the rows near the view are in the
 * DOM, the keyboard still reaches every step, find goes to a step that is not rendered. jsdom has
 * no layout, so the window's scroll and the rows' boxes are stood in for (72 px a row). */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeApi } from "../test/fakeApi";
import { makeTask } from "../test/fixtures";
import { stubWindowLayout } from "../test/windowLayout";
import { cleanBrowserBetweenTests, pressKey as key, mountApp as mount, stepRows as rows } from "../test/labelPage";

cleanBrowserBetweenTests();

const STEPS = 3000;
const ROW = 72;
let layout: { scrollY: () => number };

beforeEach(() => {
  layout = stubWindowLayout((el) => {
    if (el.dataset.testid === "step-list") return { top: 0, height: ROW * STEPS };
    if (el.dataset.testid === "step-row") return { top: Number(el.dataset.index) * ROW, height: ROW };
    return null;
  });
});

afterEach(() => vi.restoreAllMocks());

const current = () => document.querySelector<HTMLElement>('[data-testid="step-row"][data-current="true"]');

describe("LabelPage with a long solution", { timeout: 20_000 }, () => {
  it("renders the steps near the view, each saying its place among all", async () => {
    mount(new FakeApi([makeTask({ steps: STEPS })]));
    await screen.findAllByTestId("step-row");
    const list = screen.getByTestId("step-list");
    expect(list.getAttribute("data-windowed")).toBe("true");
    expect(list.getAttribute("role")).toBe("list");
    expect(rows().length).toBeGreaterThan(5);
    expect(rows().length).toBeLessThan(60);
    expect(rows()[0].getAttribute("aria-setsize")).toBe(String(STEPS));
    expect(rows()[0].getAttribute("aria-posinset")).toBe("1");
    expect(screen.getByTestId("windowed-note").textContent).toContain("near the view");
    expect(screen.getByText(/3,000 steps/)).toBeTruthy();
  });

  it("goes to the last step with End, rates it, and keeps the DOM small", async () => {
    mount(new FakeApi([makeTask({ steps: STEPS })]));
    await screen.findAllByTestId("step-row");
    key("End");
    await waitFor(() => expect(current()?.getAttribute("aria-posinset")).toBe(String(STEPS)));
    expect(rows().length).toBeLessThan(60);
    expect(layout.scrollY()).toBeGreaterThan(ROW * (STEPS - 30));
    key("3");
    expect(screen.getByTestId("rated-count").textContent).toContain("1/3000");
    // The cursor goes on to the first unrated step, at the top: the list follows it there.
    await waitFor(() => expect(current()?.getAttribute("aria-posinset")).toBe("1"));
    expect(rows().length).toBeLessThan(60);
    expect(layout.scrollY()).toBeLessThan(ROW * 30);
  });

  it("n goes to the next unrated step", async () => {
    const labels = Array.from({ length: STEPS }, (_, i) => (i < 2000 ? 1 : null)) as (1 | null)[];
    labels[5] = null;
    mount(new FakeApi([makeTask({ steps: STEPS, labels })]));
    await screen.findAllByTestId("step-row");
    await waitFor(() => expect(current()?.getAttribute("aria-posinset")).toBe("6")); // opens on the first unrated
    key("n");
    await waitFor(() => expect(current()?.getAttribute("aria-posinset")).toBe("2001"));
  });

  it("finds a step that is not rendered (/ opens the find bar; Ctrl F too)", async () => {
    mount(new FakeApi([makeTask({ steps: STEPS })]));
    await screen.findAllByTestId("step-row");
    expect(screen.queryByText("Step text 2500")).toBeNull(); // not in the DOM
    key("f", { ctrlKey: true });
    const input = await screen.findByTestId("step-find-input");
    expect(document.activeElement).toBe(input);
    act(() => {
      fireEvent.change(input, { target: { value: "step text 2500" } });
    });
    await waitFor(() => expect(current()?.getAttribute("aria-posinset")).toBe("2500"));
    expect(screen.getByText("Step text 2500")).toBeTruthy();
    expect(screen.getByTestId("step-find-count").textContent).toBe("1 of 1 step");
    act(() => {
      fireEvent.change(input, { target: { value: "Step text 299" } }); // 299, 2990..2999
    });
    await waitFor(() => expect(current()?.getAttribute("aria-posinset")).toBe("2990"));
    act(() => {
      fireEvent.keyDown(input, { key: "Enter" });
    });
    await waitFor(() => expect(current()?.getAttribute("aria-posinset")).toBe("2991"));
    act(() => {
      fireEvent.keyDown(input, { key: "Escape" });
    });
    expect(screen.queryByTestId("step-find")).toBeNull();
    key("3"); // the step found is the one rated
    expect(document.querySelector('[aria-posinset="2991"]')?.getAttribute("data-rating")).toBe("1");
  });

  it("renders a short solution whole, and leaves Ctrl F to the browser there", async () => {
    mount(new FakeApi([makeTask({ steps: 150 })]));
    await screen.findAllByTestId("step-row");
    expect(rows()).toHaveLength(150);
    expect(screen.getByTestId("step-list").getAttribute("data-windowed")).toBeNull();
    expect(screen.queryByTestId("windowed-note")).toBeNull();
    const e = new KeyboardEvent("keydown", { key: "f", ctrlKey: true, bubbles: true, cancelable: true });
    act(() => {
      document.body.dispatchEvent(e);
    });
    expect(e.defaultPrevented).toBe(false);
    expect(screen.queryByTestId("step-find")).toBeNull();
    key("/"); // the page's own find is there for every solution
    expect(await screen.findByTestId("step-find")).toBeTruthy();
  });

  it("makes a long reasoning run's fold bar a row of the window", async () => {
    const task = makeTask({ steps: STEPS });
    task.solution.steps.forEach((s, i) => (s.thinking = i < 2000));
    mount(new FakeApi([task]));
    await screen.findAllByTestId("step-row");
    // Folded: the bar stands for 2,000 steps; the page opens on the first step after it.
    await waitFor(() => expect(current()?.getAttribute("aria-posinset")).toBe("2001"));
    expect(screen.getByTestId("thinking-fold").textContent).toContain("Reasoning · 2000 steps");
    expect(screen.getByTestId("step-list").firstElementChild?.nextElementSibling?.getAttribute("data-testid")).toBe("thinking-fold");
    expect(rows().length).toBeLessThan(60);
    key("r"); // open: the first reasoning step, its rows near the view
    await waitFor(() => expect(current()?.getAttribute("aria-posinset")).toBe("1"));
    expect(current()?.getAttribute("data-thinking")).toBe("true");
    expect(rows().length).toBeLessThan(60);
    key("End");
    await waitFor(() => expect(current()?.getAttribute("aria-posinset")).toBe(String(STEPS)));
    expect(rows().length).toBeLessThan(60);
  });

  it("renders every step when the annotator asks (the browser's find then sees them)", async () => {
    mount(new FakeApi([makeTask({ steps: 210 })]));
    await screen.findAllByTestId("step-row");
    expect(rows().length).toBeLessThan(60);
    act(() => {
      fireEvent.click(screen.getByTestId("render-all-toggle"));
    });
    expect(rows()).toHaveLength(210);
    expect(localStorage.getItem("steplab.renderAllSteps")).toBe("1");
  });
});
