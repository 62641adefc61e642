/**
 * The bar of a run of reasoning steps (thinkingRuns.ts): "Reasoning · 42 steps", click or `r` to
 * open. It is a row of the step list (label/stepRows.ts, StepList.tsx): before the run's steps,
 * or alone while the run is folded.
 */
import type { StepLabel } from "../api";
import { IconChevron } from "../components/icons";
import type { ThinkingRun } from "./thinkingRuns";

export function ThinkingBar(props: {
  run: ThinkingRun;
  open: boolean;
  labels: readonly StepLabel[];
  onToggle: () => void;
}) {
  const { run, open } = props;
  const count = run.end - run.start;
  let rated = 0;
  for (let i = run.start; i < run.end; i++) if (props.labels[i]?.rating != null) rated++;
  const range = count === 1 ? `step ${run.start + 1}` : `steps ${run.start + 1}–${run.end}`;
  return (
    <div className={`thinking-bar${open ? " is-open" : ""}`} role="listitem" data-testid="thinking-fold">
      <button
        type="button"
        className="thinking-toggle"
        aria-expanded={open}
        onClick={props.onToggle}
        data-testid="thinking-toggle"
      >
        <IconChevron className="chevron" width={15} height={15} />
        <span className="thinking-title">
          Reasoning · {count} {count === 1 ? "step" : "steps"}
        </span>
        <span className="muted small">
          {range} · {rated} of {count} rated
        </span>
        <span className="thinking-hint muted small">
          {open ? "fold" : "show"} <span className="kbd">r</span>
        </span>
      </button>
    </div>
  );
}
