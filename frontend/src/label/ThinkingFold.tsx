/**
 * One step's place in the step list when the solution has reasoning steps (thinkingRuns.ts):
 * the bar of the run that starts at it ("Reasoning · 42 steps", click or `r` to open), then the
 * step itself unless its run is folded. Steps outside any run render as they are.
 */
import type { ReactNode } from "react";
import type { StepLabel } from "../api";
import { IconChevron } from "../components/icons";
import { runOf, type ThinkingFoldState, type ThinkingRun } from "./thinkingRuns";

export function ThinkingFold(props: {
  fold: ThinkingFoldState;
  index: number;
  labels: readonly StepLabel[];
  children: ReactNode;
}) {
  const { fold, index } = props;
  const run = fold.runs.length ? runOf(fold.runs, index) : undefined;
  if (!run) return <>{props.children}</>;
  const open = fold.open.has(run.key);
  return (
    <>
      {run.start === index && (
        <ThinkingBar run={run} open={open} labels={props.labels} onToggle={() => fold.toggle(run.key)} />
      )}
      {open && props.children}
    </>
  );
}

function ThinkingBar(props: {
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
