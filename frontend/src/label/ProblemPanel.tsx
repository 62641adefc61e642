import type { Task } from "../api";
import { Markdown } from "../components/Markdown";
import { IconBook, IconChevron, IconEye, IconEyeOff } from "../components/icons";
import { Kbd } from "../components/ui";
import { ImageStrip } from "./ImageStrip";

/** Answers like "14", "\frac{1}{2}" or "x^2+1" are typeset; prose answers stay text. */
export function answerSource(answer: string): string {
  const a = (answer ?? "").trim();
  if (!a) return "";
  if (/[$]|\\\(|\\\[/.test(a)) return a;
  if (/[\\^_{}=]/.test(a) || /^[-+]?[\d.,/\s()+*-]+$/.test(a) || /^[a-zA-Z]$/.test(a)) return `$${a}$`;
  return a;
}

export function ProblemPanel({
  task,
  showAnswer,
  onToggleAnswer,
}: {
  /** A labeling task, or anything with its problem and the solution's answer (the review page). */
  task: { problem: Task["problem"]; solution: Pick<Task["solution"], "final_answer" | "answer_correct"> };
  showAnswer: boolean;
  onToggleAnswer: () => void;
}) {
  const { problem, solution } = task;
  return (
    <section className="card problem-panel" aria-label="Problem">
      <div className="panel-head">
        <span className="eyebrow">Problem</span>
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
      <Markdown source={problem.text} className="problem-text" />
      {problem.images && problem.images.length > 0 && <ImageStrip urls={problem.images} label="Problem" />}
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

export function GuidelinesPanel({
  guidelines,
  open,
  onToggle,
}: {
  guidelines: string;
  open: boolean;
  onToggle: () => void;
}) {
  if (!guidelines?.trim()) return null;
  return (
    <section className={`card guidelines-panel${open ? " is-open" : ""}`}>
      <button type="button" className="guidelines-toggle" onClick={onToggle} aria-expanded={open} data-testid="guidelines-toggle">
        <IconChevron className="chevron" />
        <IconBook />
        <span>Guidelines</span>
        <span className="grow" />
        <Kbd>l</Kbd>
      </button>
      {open && <Markdown source={guidelines} className="guidelines-body" prose />}
    </section>
  );
}
