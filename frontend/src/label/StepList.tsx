/**
 * The labeling page's steps: one StepRow each, in a VirtualList, so that a solution of thousands
 * of steps keeps only those near the viewport in the DOM (a short one renders whole). A run of
 * reasoning steps is led by its fold bar (ThinkingFold.tsx), a row of the list like a step.
 */
import { useMemo } from "react";
import type { Rating, Task } from "../api";
import { firstErrorIndex, usesOf, type LabelState } from "./labelState";
import { listRows } from "./stepRows";
import { StepRow, type EditorKind } from "./StepRow";
import { ThinkingBar } from "./ThinkingFold";
import type { ThinkingFoldState } from "./thinkingRuns";
import { VirtualList } from "./VirtualList";
import { isWindowed, VIRTUALIZE_ABOVE } from "./virtualWindow";

export function StepList({
  task,
  fold,
  state,
  editor,
  readOnly,
  hoverUses,
  renderAll,
  ...callbacks
}: {
  task: Task;
  fold: ThinkingFoldState;
  state: LabelState;
  editor: { index: number; kind: EditorKind } | null;
  readOnly: boolean;
  hoverUses: number[] | null;
  renderAll: boolean;
  onHoverUses: (steps: number[] | null) => void;
  onRate: (index: number, value: Rating) => void;
  onAcceptSuggestion: (index: number, value: Rating) => void;
  onSelect: (index: number) => void;
  onToggleUnsure: (index: number) => void;
  onOpenEditor: (index: number, kind: EditorKind) => void;
  onSaveEditor: (index: number, kind: EditorKind, text: string) => void;
  onCancelEditor: () => void;
}) {
  const steps = task.solution.steps;
  const { rows, rowOf } = useMemo(
    () => listRows(steps.map((s) => s.id), fold.runs, fold.open),
    [steps, fold.runs, fold.open],
  );
  const keys = useMemo(() => rows.map((r) => r.key), [rows]);
  const windowed = isWindowed(steps.length, renderAll); // as the page's header and Ctrl F say
  const fe = firstErrorIndex(state); // once, not once a row
  const domain = task.problem.domain ?? task.project.domain;
  const renderRow = (r: number) => {
    const row = rows[r];
    if (row.kind === "fold") {
      const { run } = row;
      return (
        <ThinkingBar key={row.key} run={run} open={fold.open.has(run.key)} labels={state.labels} onToggle={() => fold.toggle(run.key)} />
      );
    }
    return renderStep(row.index);
  };
  const renderStep = (i: number) => (
    <StepRow
      key={steps[i].id}
      step={steps[i]}
      label={state.labels[i]}
      index={i}
      isCurrent={state.current === i}
      dimmed={fe >= 0 && i > fe}
      isFirstError={fe === i}
      uses={usesOf(state, i)}
      usesMarked={state.labels[i]?.uses != null}
      highlighted={!!hoverUses?.includes(i)}
      ratingValues={state.ratingValues}
      domain={domain}
      showSuggestions={task.project.show_suggestions}
      editor={editor?.index === i ? editor.kind : null}
      readOnly={readOnly}
      setSize={steps.length}
      scrollOnCurrent={!windowed}
      {...callbacks}
    />
  );
  const focus = state.current < steps.length ? rowOf[state.current] : -1;
  return <VirtualList keys={keys} windowed={windowed} focus={focus} renderRow={renderRow} label="Solution steps" />;
}

/** In the steps' header of a long solution: whether all steps are rendered, and the switch. */
export function WindowedNote({
  count,
  renderAll,
  onRenderAll,
}: {
  count: number;
  renderAll: boolean;
  onRenderAll: (value: boolean) => void;
}) {
  if (count <= VIRTUALIZE_ABOVE) return null;
  return (
    <span className="windowed-note" data-testid="windowed-note">
      {" · "}
      {renderAll ? "all steps rendered" : "steps near the view rendered"} (<span className="kbd">/</span> finds in all)
      {" · "}
      <button
        type="button"
        className="link-btn"
        onClick={() => onRenderAll(!renderAll)}
        data-testid="render-all-toggle"
        title={
          renderAll
            ? "Render only the steps near the view (fast with thousands of steps)"
            : "Render every step: the browser's own find (Ctrl F) then sees them all; slower"
        }
      >
        {renderAll ? "render near the view only" : "render all"}
      </button>
    </span>
  );
}
