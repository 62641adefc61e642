/**
 * What the labeling page and the review page both show above and around a solution's steps:
 * the problem with its reference answer (and this solution's answer, matched or not), and the
 * solution panel's head (title, generator, then page-specific tags, counts and actions).
 */
import type { ReactNode } from "react";
import type { Task } from "../api/labeling";
import { EpisodeSummary } from "../label/EmbodiedStep";
import { ImageStrip } from "../label/ImageStrip";
import { rendersMath } from "../label/StepParts";
import { domainLabel } from "../lib/domains";
import { Markdown } from "./Markdown";
import { IconEye, IconEyeOff } from "./icons";
import { Kbd } from "./ui";

/** Answers like "14", "\frac{1}{2}" or "x^2+1" are typeset; prose answers stay text. */
export function answerSource(answer: string): string {
  const a = (answer ?? "").trim();
  if (!a) return "";
  if (/[$]|\\\(|\\\[/.test(a)) return a;
  if (/[\\^_{}=]/.test(a) || /^[-+]?[\d.,/\s()+*-]+$/.test(a) || /^[a-zA-Z]$/.test(a)) return `$${a}$`;
  return a;
}

/** A labeling task's problem and answers, or the same fields of a review page's detail. */
export interface ProblemAndAnswer {
  problem: Task["problem"];
  solution: Pick<Task["solution"], "final_answer" | "answer_correct">;
}

export function ProblemPanel({
  task,
  showAnswer,
  onToggleAnswer,
  showDomain = false,
}: {
  task: ProblemAndAnswer;
  showAnswer: boolean;
  onToggleAnswer: () => void;
  /** A many-domains project: tag the problem with its domain. */
  showDomain?: boolean;
}) {
  const { problem, solution } = task;
  const math = rendersMath(problem.domain);
  return (
    <section className="card problem-panel" aria-label="Problem">
      <div className="panel-head">
        <span className="eyebrow">Problem</span>
        {showDomain && problem.domain && (
          <span className="tag tag-domain" data-testid="problem-domain" data-domain={problem.domain}>
            {domainLabel(problem.domain)}
          </span>
        )}
        {problem.source && <span className="tag">{problem.source}</span>}
        <div className="grow" />
        <button
          type="button"
          className={`btn btn-sm${showAnswer ? " btn-active" : ""}`}
          onClick={onToggleAnswer}
          aria-expanded={showAnswer}
          data-testid="answer-toggle"
        >
          {showAnswer ? <IconEyeOff /> : <IconEye />}
          {showAnswer ? "Hide answer" : "Show answer"} <Kbd>t</Kbd>
        </button>
      </div>
      <Markdown source={problem.text} className="problem-text" math={math} />
      {problem.images && problem.images.length > 0 && <ImageStrip urls={problem.images} label="Problem" />}
      {problem.episode && <EpisodeSummary episode={problem.episode} success={solution.answer_correct} />}
      {problem.tools && problem.tools.length > 0 && (
        <div className="problem-tools" data-testid="problem-tools">
          <span className="answer-label">Tools</span>
          {problem.tools.map((name) => (
            <code key={name} className="agent-fn">
              {name}
            </code>
          ))}
        </div>
      )}
      {showAnswer && (
        <div className="answer-box" data-testid="answer">
          <div className="answer-item">
            <span className="answer-label">Reference answer</span>
            <span className="answer-value">
              {problem.answer ? <Markdown source={answerSource(problem.answer)} inline /> : <span className="muted">none given</span>}
            </span>
          </div>
          {solution.final_answer && (
            <div className="answer-item">
              <span className="answer-label">This solution&rsquo;s answer</span>
              <span className="answer-value">
                <Markdown source={answerSource(solution.final_answer)} inline />
              </span>
              {solution.answer_correct === true && <span className="badge badge-green">matches</span>}
              {solution.answer_correct === false && <span className="badge badge-red">does not match</span>}
            </div>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The card that holds a solution's steps, under its head: `title` ("Solution", "Solution #12"),
 * the generator's tag, then `lead` (before the spacer) and `trail` (at the right end).
 */
export function SolutionPanel({
  label,
  title,
  generator,
  lead,
  trail,
  children,
}: {
  /** The section's accessible name. */
  label: string;
  title: string;
  generator: string;
  lead?: ReactNode;
  trail?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="card steps-panel" aria-label={label}>
      <div className="panel-head steps-head" data-testid="solution-head">
        <span className="eyebrow">{title}</span>
        {generator && <span className="tag mono">{generator}</span>}
        {lead}
        <div className="grow" />
        {trail}
      </div>
      {children}
    </section>
  );
}
