import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { FakeReview, makeQueueItem, makeReviewDetail } from "../test/fakeReview";
import { makeProject } from "../test/fixtures";

let location = "";
function Where() {
  const l = useLocation();
  location = l.pathname + l.search;
  return null;
}

function setup(role: "admin" | "reviewer" = "reviewer", path = "/projects/1/review") {
  const api = new FakeApi([]);
  api.user = { id: 9, username: "rev", is_staff: false };
  api.project = makeProject({ role });
  const review = new FakeReview();
  review.queue = [
    makeQueueItem({ id: 55, reasons: ["disagreement", "unsure"], reason: "disagreement" }),
    makeQueueItem({ id: 57, reasons: ["auto_conflict"], reason: "auto_conflict", problem_source: "GSM8K" }),
    makeQueueItem({ id: 56, reasons: [], reason: "rest" }),
    makeQueueItem({ id: 58, reasons: ["single_annotator"], reason: "single_annotator", annotations_submitted: 1 }),
    makeQueueItem({ id: 40, reasons: [], reason: "rest", resolution_id: 3, resolution_provenance: "human_consensus" }),
  ];
  review.details.set(55, makeReviewDetail({ id: 55 }));
  review.install(api);
  api.install();
  render(
    <MemoryRouter initialEntries={[path]}>
      <App />
      <Where />
    </MemoryRouter>,
  );
  return { api, review };
}

const rows = () => screen.getAllByTestId("queue-row");

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("ReviewQueuePage", () => {
  it("lists the unresolved items in the server's order with their reasons and counts", async () => {
    const { api } = setup();
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(rows().map((r) => r.getAttribute("data-solution"))).toEqual(["55", "57", "56", "58"]);
    expect(within(rows()[0]).getAllByTestId("reason-badge").map((b) => b.getAttribute("data-reason"))).toEqual(["disagreement", "unsure"]);
    expect(within(rows()[2]).getByTestId("reason-badge").textContent).toBe("Annotators agree");
    // One annotator is its own state, never agreement.
    expect(within(rows()[3]).getByTestId("reason-badge").textContent).toBe("1 annotator");
    expect(screen.getByTestId("count-disagreement").textContent).toContain("1");
    expect(screen.getByTestId("count-rest").textContent).toContain("1");
    expect(screen.getByTestId("count-single_annotator").textContent).toContain("1");
    expect(screen.getByTestId("count-total").textContent).toContain("4");
    expect(api.callsTo("GET", "/review/queue/")[0].path).toContain("state=unresolved");
    // The members list is for admins; reviewers get the annotators from the queue itself.
    expect(api.callsTo("GET", "/members/")).toHaveLength(0);
  });

  it("shows the counts the server stopped at as N+ and keeps paging past them", async () => {
    const api = new FakeApi([]);
    api.user = { id: 9, username: "rev", is_staff: false };
    api.project = makeProject({ role: "reviewer" });
    const review = new FakeReview();
    review.countCap = 2;
    review.queue = [1, 2, 3, 4].map((id) => makeQueueItem({ id, reasons: ["disagreement"], reason: "disagreement" }));
    review.queue.push(makeQueueItem({ id: 5, reasons: [], reason: "rest" }));
    review.install(api);
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1/review?offset=0"]}>
        <App />
      </MemoryRouter>,
    );
    await waitFor(() => expect(rows()).toHaveLength(5));
    // limit 100 counts to the page's end: all 5 exact; the per-reason counts stop at 2.
    expect(screen.getByTestId("count-disagreement").textContent).toContain("2+");
    expect(screen.getByTestId("count-total").textContent).toContain("2+");
    expect(screen.getByTestId("count-rest").textContent).toContain("1");
    expect(screen.getByTestId("count-rest").textContent).not.toContain("+");
    expect(screen.getByTestId("queue-range").textContent).toContain("1–5 of 5 ");
  });

  it("filters the one-annotator solutions apart from the agreeing ones", async () => {
    setup();
    await waitFor(() => expect(rows()).toHaveLength(4));
    fireEvent.click(screen.getByTestId("count-single_annotator"));
    await waitFor(() => expect(rows().map((r) => r.getAttribute("data-solution"))).toEqual(["58"]));
    expect(location).toBe("/projects/1/review?reason=single_annotator");
    const select = screen.getByTestId("filter-reason") as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toContain("1 annotator");
    fireEvent.click(screen.getByTestId("count-single_annotator"));
    fireEvent.click(screen.getByTestId("count-rest"));
    await waitFor(() => expect(rows().map((r) => r.getAttribute("data-solution"))).toEqual(["56"]));
  });

  it("filters by reason from the count cards and by state, keeping them in the URL", async () => {
    const { api } = setup();
    await waitFor(() => expect(rows()).toHaveLength(4));
    fireEvent.click(screen.getByTestId("count-auto_conflict"));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0].getAttribute("data-solution")).toBe("57");
    expect(location).toBe("/projects/1/review?reason=auto_conflict");
    expect(api.calls.at(-1)?.path).toContain("reason=auto_conflict");
    fireEvent.click(screen.getByTestId("count-auto_conflict"));
    fireEvent.click(screen.getByTestId("state-resolved"));
    await waitFor(() => expect(rows().map((r) => r.getAttribute("data-solution"))).toEqual(["40"]));
    expect(rows()[0].textContent).toContain("Human consensus");
  });

  it("filters by annotator, named by the queue (reviewers cannot list members)", async () => {
    const { api } = setup("reviewer");
    const select = (await screen.findByTestId("filter-annotator")) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(["Anyone", "alice", "bob"]);
    fireEvent.change(select, { target: { value: "101" } });
    await waitFor(() => expect(api.calls.at(-1)?.path).toContain("annotator=101"));
    expect(location).toBe("/projects/1/review?annotator=101");
  });

  it("opens the highlighted item with j/k and Enter, carrying the filters", async () => {
    setup("reviewer", "/projects/1/review?reason=disagreement");
    await waitFor(() => expect(rows()).toHaveLength(1));
    act(() => {
      fireEvent.keyDown(document.body, { key: "j" });
    });
    expect(rows()[0].getAttribute("aria-selected")).toBe("true");
    act(() => {
      fireEvent.keyDown(document.body, { key: "Enter" });
    });
    await waitFor(() => expect(location).toBe("/projects/1/review/55?reason=disagreement"));
    expect(await screen.findAllByTestId("review-step")).toHaveLength(4);
  });

  it("says so when there is nothing to review", async () => {
    const api = new FakeApi([]);
    api.project = makeProject({ role: "reviewer" });
    new FakeReview().install(api);
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1/review"]}>
        <App />
      </MemoryRouter>,
    );
    expect(await screen.findByTestId("queue-empty")).toBeTruthy();
  });
});
