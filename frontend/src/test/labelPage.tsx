/** What the app-level page tests share (the labeling page's above all): the app mounted at a
 * path over a FakeApi, a key pressed on the page, the step rows with their ratings and the
 * current one, and a clean browser between tests. */
import { act, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, vi } from "vitest";
import { App } from "../App";
import type { FakeApi } from "./fakeApi";

export function mountApp(api: FakeApi, path = "/projects/1/label") {
  api.install();
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>,
  );
}

export const pressKey = (k: string, opts: Record<string, unknown> = {}) =>
  act(() => {
    fireEvent.keyDown(document.body, { key: k, ...opts });
  });

export const stepRows = () => screen.getAllByTestId("step-row");
export const ratingsShown = () => stepRows().map((r) => r.getAttribute("data-rating"));
export const currentIndex = () => stepRows().findIndex((r) => r.getAttribute("data-current") === "true");

/** Call at a test file's top: the fetch stub goes after each test, and a draft an earlier test
 * left unsaved in localStorage (the page's last save on unmount) is not restored. */
export function cleanBrowserBetweenTests(): void {
  afterEach(() => vi.unstubAllGlobals());
  beforeEach(() => localStorage.clear());
}
