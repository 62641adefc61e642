import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Task } from "../api";
import { FakeApi } from "../test/fakeApi";
import { FakeMyWork, makeMyWorkRow } from "../test/fakeMyWork";
import { makeProject, makeTask } from "../test/fixtures";
import { cleanBrowserBetweenTests, mountApp } from "../test/labelPage";

const mount = (api: FakeApi, path = "/projects/1/my-work") => mountApp(api, path);

function setup(rows = 3) {
  const api = new FakeApi([makeTask({ steps: 3, annotationId: 8 })]);
  api.project = makeProject({ id: 1, name: "Demo project" });
  const mw = new FakeMyWork(api);
  mw.rows = [
    makeMyWorkRow({ annotation_id: 11, status: "skipped", finish_reason: "", problem_text: "Compute the area of a circle of radius $r$" }),
    makeMyWorkRow({ annotation_id: 7, problem_text: "What is $\\frac{14}{2}$?", reviewed: true }),
    makeMyWorkRow({ annotation_id: 5, finish_reason: "found_error", problem_text: "Prove that 7 is prime" }),
  ].slice(0, rows);
  return { api, mw };
}

const shown = () => screen.getAllByTestId("my-work-row").map((r) => Number(r.getAttribute("data-annotation")));

cleanBrowserBetweenTests();

describe("MyWorkPage", () => {
  it("lists submitted and skipped work with status, time and the problem rendered with KaTeX", async () => {
    const { api } = setup();
    mount(api);
    await waitFor(() => expect(shown()).toEqual([11, 7, 5]));
    const [skipped, submitted] = screen.getAllByTestId("my-work-row");
    expect(within(skipped).getByTestId("my-work-status").textContent).toBe("Skipped");
    expect(within(submitted).getByTestId("my-work-status").textContent).toBe("Submitted");
    expect(submitted.textContent).toContain("reviewed");
    expect(submitted.querySelector(".katex")).not.toBeNull();
    expect(screen.getByTestId("my-work-range").textContent).toContain("1–3 of 3");
    expect(api.callsTo("GET", "/my-work/")[0].path).toContain("limit=20&offset=0");
  });

  it("searches the problem text and filters by status on the server", async () => {
    const { api } = setup();
    mount(api);
    await waitFor(() => expect(shown()).toHaveLength(3));
    fireEvent.change(screen.getByTestId("my-work-search"), { target: { value: "circle" } });
    fireEvent.click(screen.getByTestId("my-work-search-button"));
    await waitFor(() => expect(shown()).toEqual([11]));
    expect(api.callsTo("GET", "/my-work/").at(-1)!.path).toContain("q=circle");
    fireEvent.click(screen.getByTestId("my-work-status-submitted"));
    await waitFor(() => expect(screen.getByTestId("my-work-empty")).toBeTruthy());
    expect(api.callsTo("GET", "/my-work/").at(-1)!.path).toContain("status=submitted");
  });

  it("pages with Next and Previous", async () => {
    const { api, mw } = setup();
    mw.rows = Array.from({ length: 25 }, (_, i) => makeMyWorkRow({ annotation_id: 100 + i, problem_text: `Problem ${i}` }));
    mount(api);
    await waitFor(() => expect(shown()).toHaveLength(20));
    fireEvent.click(screen.getByTestId("my-work-next"));
    await waitFor(() => expect(shown()).toEqual([120, 121, 122, 123, 124]));
    expect(screen.getByTestId("my-work-range").textContent).toContain("21–25 of 25");
    expect((screen.getByTestId("my-work-next") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId("my-work-previous"));
    await waitFor(() => expect(shown()).toHaveLength(20));
  });

  it("Open reopens the item on the labeling page", async () => {
    const { api, mw } = setup();
    const task = makeTask({ steps: 2, labels: [1, 1], version: 2 });
    mw.reopened.set(7, { ...task, annotation: { ...task.annotation, status: "submitted" } } as Task);
    mount(api);
    await waitFor(() => expect(shown()).toHaveLength(3));
    fireEvent.click(within(screen.getAllByTestId("my-work-row")[1]).getByTestId("my-work-open"));
    await waitFor(() => expect(screen.getAllByTestId("step-row")).toHaveLength(2));
    expect(api.callsTo("POST", "/annotations/7/reopen/")).toHaveLength(1);
    expect(screen.getByTestId("editing-banner")).toBeTruthy();
  });

  it("is linked from the labeling page's top bar", async () => {
    const { api } = setup();
    mount(api, "/projects/1/label");
    await screen.findAllByTestId("step-row");
    fireEvent.click(screen.getByTestId("my-work-link"));
    await waitFor(() => expect(shown()).toHaveLength(3));
  });
});
