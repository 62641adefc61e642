import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { DomainMetrics, TaskStep } from "../api";
import { ProblemPanel } from "../components/SolutionHeader";
import { DomainTable } from "../dashboard/DomainTable";
import { renderMarkdown } from "../lib/markdown";
import { filterQuery, filtersFromParams } from "../review/queueFilters";
import { rendersMath, StepContent } from "./StepParts";

function step(text: string): TaskStep {
  return { id: 1, index: 0, text, alternatives_count: 0, suggestions: [], meta: {}, images: [] };
}

describe("rendering by the problem's domain", () => {
  it("typesets math everywhere but in text tasks", () => {
    expect(rendersMath("math")).toBe(true);
    expect(rendersMath(undefined)).toBe(true);
    expect(rendersMath("code")).toBe(true);
    expect(rendersMath("text")).toBe(false);
    expect(renderMarkdown("So $x^2$ here.", { math: false })).not.toContain("katex");
    expect(renderMarkdown("So $x^2$ here.")).toContain("katex");
  });

  it("renders the same step text as math in a math problem and as prose in a text one", () => {
    const text = "It is $x_1$ and $y_2$ dollars.";
    const math = render(<StepContent step={step(text)} index={0} domain="math" />);
    expect(math.container.querySelector(".katex")).not.toBeNull();
    math.unmount();
    const prose = render(<StepContent step={step(text)} index={0} domain="text" />);
    expect(prose.container.querySelector(".katex")).toBeNull();
    expect(prose.container.textContent).toContain("It is $x_1$ and $y_2$ dollars.");
  });

  it("tags the problem with its domain only in a many-domains project", () => {
    const task = {
      problem: { id: 1, text: "Translate: $5", answer: "", source: "", domain: "text" as const },
      solution: { final_answer: "", answer_correct: null },
    };
    const tagged = render(<ProblemPanel task={task} showAnswer={false} onToggleAnswer={() => {}} showDomain />);
    expect(screen.getByTestId("problem-domain").textContent).toBe("Text tasks");
    expect(tagged.container.querySelector(".problem-text")?.textContent).toContain("Translate: $5");
    tagged.unmount();
    render(<ProblemPanel task={task} showAnswer={false} onToggleAnswer={() => {}} />);
    expect(screen.queryByTestId("problem-domain")).toBeNull();
  });
});

describe("per-domain metrics and filters", () => {
  it("draws one row per domain", () => {
    const row = (domain: DomainMetrics["domain"], done: number, agreement: number | null): DomainMetrics => ({
      domain,
      problems: 2,
      solutions: 4,
      started: 4,
      done,
      progress: done / 4,
      annotations: 8,
      rated_steps: 10,
      alpha_ordinal: 0.5,
      pairwise_agreement: agreement,
      first_error_alpha: null,
      first_error_solutions: 0,
    });
    render(<DomainTable rows={[row("math", 4, 1), row("text", 1, 0.25)]} />);
    const rows = screen.getAllByTestId("domain-row");
    expect(rows.map((r) => r.getAttribute("data-domain"))).toEqual(["math", "text"]);
    expect(rows[1].textContent).toContain("Text tasks");
    expect(rows[1].textContent).toContain("1 (25%)");
    expect(rows[1].textContent).toContain("25%");
  });

  it("keeps a problem domain filter in the URL and ignores a bad one", () => {
    const params = new URLSearchParams("domain=text&state=all");
    expect(filtersFromParams(params).domain).toBe("text");
    expect(filterQuery(params)).toContain("domain=text");
    expect(filtersFromParams(new URLSearchParams("domain=poetry")).domain).toBe("");
    expect(filtersFromParams(new URLSearchParams("domain=mixed")).domain).toBe("");
  });
});
