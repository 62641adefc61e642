import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { FakeReview, makeQueueItem, makeReviewDetail } from "../test/fakeReview";
import { makeProject, makeTask } from "../test/fixtures";
import { ConflictBanner, Toast } from "./PageNotices";
import { ProblemPanel, SolutionPanel, answerSource } from "./SolutionHeader";

afterEach(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => localStorage.clear());

describe("answerSource", () => {
  it("typesets math-looking answers and leaves prose and delimited math alone", () => {
    expect(answerSource("14")).toBe("$14$");
    expect(answerSource("\\frac{1}{2}")).toBe("$\\frac{1}{2}$");
    expect(answerSource("x")).toBe("$x$");
    expect(answerSource("$x+1$")).toBe("$x+1$");
    expect(answerSource("the empty set")).toBe("the empty set");
    expect(answerSource("  ")).toBe("");
  });
});

describe("ProblemPanel", () => {
  it("shows the problem and, once asked, the reference answer against this solution's", () => {
    const task = makeTask();
    const onToggle = vi.fn();
    const { rerender } = render(<ProblemPanel task={task} showAnswer={false} onToggleAnswer={onToggle} />);
    const panel = screen.getByRole("region", { name: "Problem" });
    expect(within(panel).getByText("MATH")).toBeTruthy();
    expect(panel.querySelector(".problem-text .katex")).not.toBeNull();
    expect(screen.queryByTestId("answer")).toBeNull();
    fireEvent.click(screen.getByTestId("answer-toggle"));
    expect(onToggle).toHaveBeenCalledTimes(1);

    rerender(<ProblemPanel task={task} showAnswer onToggleAnswer={onToggle} />);
    const answer = screen.getByTestId("answer");
    expect(answer.textContent).toContain("Reference answer");
    expect(answer.textContent).toContain("This solution’s answer");
    expect(within(answer).getByText("does not match")).toBeTruthy();
    expect(screen.getByTestId("answer-toggle").getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByTestId("answer-toggle").textContent).toContain("Hide answer");
  });

  it("says when there is no reference answer and leaves out a missing solution answer", () => {
    const task = makeTask();
    render(
      <ProblemPanel
        task={{ problem: { ...task.problem, answer: "", tools: ["search"] }, solution: { final_answer: "", answer_correct: null } }}
        showAnswer
        onToggleAnswer={() => undefined}
      />,
    );
    const answer = screen.getByTestId("answer");
    expect(answer.textContent).toContain("none given");
    expect(answer.textContent).not.toContain("This solution");
    expect(screen.getByTestId("problem-tools").textContent).toContain("search");
  });
});

describe("SolutionPanel", () => {
  it("puts the title, the generator, lead and trail in the head and the steps below", () => {
    render(
      <SolutionPanel label="Steps" title="Solution #9" generator="gpt-4" lead={<b>lead</b>} trail={<i>trail</i>}>
        <p>the steps</p>
      </SolutionPanel>,
    );
    const section = screen.getByRole("region", { name: "Steps" });
    const head = screen.getByTestId("solution-head");
    expect(Array.from(head.children).map((c) => c.textContent)).toEqual(["Solution #9", "gpt-4", "lead", "", "trail"]);
    expect(section.lastElementChild?.textContent).toBe("the steps");
  });

  it("leaves out an empty generator", () => {
    render(
      <SolutionPanel label="Steps" title="Solution" generator="">
        <p>x</p>
      </SolutionPanel>,
    );
    expect(screen.getByTestId("solution-head").querySelector(".tag")).toBeNull();
  });
});

describe("PageNotices", () => {
  it("a conflict banner shows the server's detail and reloads", () => {
    const onReload = vi.fn();
    render(
      <ConflictBanner title="Changed elsewhere." detail="version 3 is newer" onReload={onReload}>
        Reload to see it.
      </ConflictBanner>,
    );
    const banner = screen.getByTestId("conflict-banner");
    expect(banner.getAttribute("role")).toBe("alert");
    expect(banner.textContent).toContain("Changed elsewhere. Reload to see it.");
    expect(banner.textContent).toContain("version 3 is newer");
    fireEvent.click(screen.getByTestId("conflict-reload"));
    expect(onReload).toHaveBeenCalledTimes(1);
  });

  it("an error toast is an alert with a close button; others are status, with their link", () => {
    const onDismiss = vi.fn();
    const { rerender } = render(
      <MemoryRouter>
        <Toast notice={{ tone: "error", text: "Not saved" }} onDismiss={onDismiss} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId("notice").getAttribute("role")).toBe("alert");
    fireEvent.click(screen.getByLabelText("Dismiss"));
    expect(onDismiss).toHaveBeenCalledTimes(1);

    rerender(
      <MemoryRouter>
        <Toast notice={{ tone: "success", text: "Resolved", link: { to: "/projects/1/review/5", label: "View" } }} onDismiss={onDismiss} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId("notice").getAttribute("role")).toBe("status");
    expect(screen.queryByLabelText("Dismiss")).toBeNull();
    expect(screen.getByRole("link", { name: "View" }).getAttribute("href")).toBe("/projects/1/review/5");

    rerender(
      <MemoryRouter>
        <Toast notice={{ tone: "pending", text: "Checking…" }} onDismiss={onDismiss} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId("notice").querySelector(".toast-spinner")).not.toBeNull();
  });
});

describe("the labeling and review pages share the header", () => {
  const toggleAnswer = () =>
    act(() => {
      fireEvent.keyDown(document.body, { key: "t" });
    });

  it("on the labeling page", async () => {
    const api = new FakeApi([makeTask()]);
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1/label"]}>
        <App />
      </MemoryRouter>,
    );
    await screen.findAllByTestId("step-row");
    expect(screen.getByTestId("solution-head").textContent).toContain("Solution");
    expect(screen.getByTestId("solution-head").textContent).toContain("4 steps");
    toggleAnswer();
    expect(within(screen.getByTestId("answer")).getByText("does not match")).toBeTruthy();
  });

  it("on the review page", async () => {
    const api = new FakeApi([]);
    api.user = { id: 9, username: "rev", is_staff: false };
    api.project = makeProject({ role: "reviewer" });
    const review = new FakeReview();
    review.details.set(55, makeReviewDetail({ id: 55 }));
    review.queue = [makeQueueItem({ id: 55 })];
    review.install(api);
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects/1/review/55"]}>
        <App />
      </MemoryRouter>,
    );
    await screen.findAllByTestId("review-step");
    expect(screen.getByTestId("solution-head").textContent).toContain("Solution #55");
    expect(screen.getByTestId("solution-head").textContent).toContain("2 annotations");
    toggleAnswer();
    expect(within(screen.getByTestId("answer")).getByText("does not match")).toBeTruthy();
  });
});
