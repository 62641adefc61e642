/**
 * The review page's side-by-side grid: the annotators' header, then one ReviewStepRow a step in
 * a VirtualList, so that a solution of thousands of steps keeps only the rows near the viewport
 * in the DOM (as the labeling page does; a short one renders whole). The table says its size
 * itself (aria-rowcount), each row its place (aria-rowindex).
 */
import { useMemo } from "react";
import type { Rating, ReviewAnnotation, ReviewDetail } from "../api";
import { VirtualList } from "../label/VirtualList";
import { isWindowed } from "../label/virtualWindow";
import { AnnotatorHeader } from "./AnnotatorBar";
import { isAfterFirstError, type ReviewState, type StepFacts } from "./reviewState";
import { ReviewStepRow } from "./ReviewStepRow";

export function ReviewStepGrid({
  detail,
  state,
  columns,
  facts,
  readOnly,
  renderAll,
  hoverUses,
  onHoverUses,
  onSelectColumn,
  onSelect,
  onRate,
  onTake,
}: {
  detail: ReviewDetail;
  state: ReviewState;
  columns: ReviewAnnotation[];
  facts: StepFacts[];
  readOnly: boolean;
  renderAll: boolean;
  hoverUses: number[] | null;
  onHoverUses: (steps: number[] | null) => void;
  onSelectColumn: (column: number) => void;
  onSelect: (index: number) => void;
  onRate: (index: number, value: Rating) => void;
  onTake: (index: number, annotationId: number, column: number) => void;
}) {
  const steps = detail.steps;
  const keys = useMemo(() => steps.map((s) => s.id), [steps]);
  const windowed = isWindowed(steps.length, renderAll);
  const domain = detail.problem.domain ?? detail.project.domain;
  const renderRow = (i: number) => (
    <ReviewStepRow
      key={steps[i].id}
      step={steps[i]}
      index={i}
      columns={columns}
      facts={facts[i]}
      decision={state.decisions[i] ?? null}
      origin={state.origins[i] ?? null}
      decidedUses={state.uses[i] ?? null}
      isCurrent={state.current === i}
      selectedColumn={state.column}
      dimmed={isAfterFirstError(state, i)}
      ratingValues={state.ratingValues}
      domain={domain}
      readOnly={readOnly}
      onSelect={onSelect}
      onRate={onRate}
      onTake={onTake}
      highlighted={!!hoverUses?.includes(i)}
      onHoverUses={onHoverUses}
      scrollOnCurrent={!windowed}
    />
  );
  const focus = state.current < steps.length ? state.current : -1;
  return (
    <div
      className="review-grid"
      role="table"
      aria-label="Annotations per step"
      aria-rowcount={steps.length + 1}
      style={{ ["--cols" as string]: String(columns.length) }}
      data-columns={columns.length}
      data-testid="review-grid"
      data-digits={steps.length >= 1000 ? String(steps.length).length : undefined}
    >
      <AnnotatorHeader
        columns={columns}
        selected={state.column}
        acceptedIds={detail.resolution?.annotation_ids ?? []}
        onSelect={onSelectColumn}
      />
      <VirtualList
        keys={keys}
        windowed={windowed}
        focus={focus}
        renderRow={renderRow}
        label="Steps"
        role="rowgroup"
        className="review-rows"
        testId="review-rows"
      />
    </div>
  );
}
