import { memo, useMemo } from "react";
import type { Domain, Rating, ReviewAnnotation, ReviewStep } from "../api";
import { Markdown } from "../components/Markdown";
import { IconBranch, IconComment, IconEdit, IconFlag } from "../components/icons";
import { RATING_META, RatingButtons, StepContent, classNames, selectOnClick, useScrollIntoView } from "../label/StepParts";
import { SuggestionChip, SuggestionNotes } from "../label/SuggestionChip";
import { SOURCE_NAME, orderSuggestions } from "../label/suggestions";
import { sameUses } from "../label/dependencies";
import { UsesChips } from "../label/UsesChips";
import type { DecisionOrigin, StepFacts } from "./reviewState";

const SIGN: Record<string, string> = { "-1": "−", "0": "0", "1": "+" };

export function RatingMark({ rating, title }: { rating: Rating | null; title?: string }) {
  const tone = rating === null ? "none" : RATING_META[String(rating)].tone;
  return (
    <span className={`rating-mark rating-mark-${tone}`} title={title} data-rating={rating === null ? "" : String(rating)}>
      {rating === null ? "·" : SIGN[String(rating)]}
    </span>
  );
}

const ORIGIN_TEXT: Record<string, string> = {
  resolution: "resolved",
  agreed: "annotators agree",
  single: "1 annotator",
  reviewer: "yours",
};

const ORIGIN_HELP: Record<string, string> = {
  agreed: "Two or more annotators gave this rating; nobody differs",
  single: "Only one annotator rated this step: not an agreement, check it",
};

/** "judge says −1 where an annotator rated +1": the human ≠ machine mark's hover text. */
export function machineDiffText(step: ReviewStep, sources: string[], ratings: Array<Rating | null>): string {
  const humans = [...new Set(ratings.filter((r) => r !== null))].sort().reverse().map((r) => SIGN[String(r)]);
  const parts = sources.map((src) => {
    const values = [...new Set(step.suggestions.filter((g) => g.source === src && g.value !== null).map((g) => SIGN[String(g.value)]))];
    return `${SOURCE_NAME[src] ?? src} says ${values.join("/")}`;
  });
  return `Human ≠ machine: ${parts.join("; ")}, annotators rated ${humans.join("/")}`;
}

export interface ReviewStepRowProps {
  step: ReviewStep;
  index: number;
  columns: ReviewAnnotation[];
  facts: StepFacts;
  decision: Rating | null;
  origin: DecisionOrigin;
  /** The earlier steps the decision says this step uses; null: not decided (its own stand). */
  decidedUses?: number[] | null;
  isCurrent: boolean;
  selectedColumn: number;
  /** After the adjudicated first error (first-error projects): sent as unrated. */
  dimmed: boolean;
  ratingValues: Rating[];
  /** The problem's domain (decides how the step is rendered). */
  domain?: Domain;
  readOnly: boolean;
  onSelect: (index: number) => void;
  onRate: (index: number, value: Rating) => void;
  onTake: (index: number, annotationId: number, column: number) => void;
  /** A hovered "uses" chip names this step. */
  highlighted?: boolean;
  onHoverUses?: (steps: number[] | null) => void;
  /** false in a windowed grid: the list scrolls the current row into view itself. */
  scrollOnCurrent?: boolean;
}

export const ReviewStepRow = memo(function ReviewStepRow(props: ReviewStepRowProps) {
  const { step, index, columns, facts, decision, isCurrent, selectedColumn, ratingValues, readOnly } = props;
  const ref = useScrollIntoView<HTMLDivElement>(isCurrent && props.scrollOnCurrent !== false);
  const suggestions = useMemo(() => orderSuggestions(step.suggestions ?? []), [step.suggestions]);
  const cells = columns.map((a) => ({ a, cell: step.labels.find((c) => c.annotation_id === a.id) }));
  const notes = cells.filter(({ cell }) => cell && (cell.comment || cell.alternative_text));
  // The step's own dependencies, then each annotator's marks that differ from them.
  const own = step.uses ?? [];
  const marks = cells.filter(({ cell }) => cell?.uses != null && !sameUses(cell.uses, own));
  const decided = props.decidedUses ?? null;
  const classes = classNames(
    "review-step",
    isCurrent && "is-current",
    facts.disagrees && "disagrees",
    facts.marked && "is-marked",
    props.dimmed && "is-dimmed",
    decision !== null && `decided-${RATING_META[String(decision)].tone}`,
    props.highlighted && "is-uses-highlight",
  );

  return (
    <div
      ref={ref}
      className={classes}
      role="row"
      aria-rowindex={index + 2 /* the annotators' header is row 1 */}
      data-testid="review-step"
      data-index={index}
      data-current={isCurrent ? "true" : undefined}
      data-disagrees={facts.disagrees ? "true" : undefined}
      data-marked={facts.marked ? "true" : undefined}
      data-decision={decision === null ? "" : String(decision)}
      aria-current={isCurrent ? "step" : undefined}
      onClick={selectOnClick(props.onSelect, index)}
    >
      <div className="review-step-num" role="rowheader">
        <span className="step-num">{index + 1}</span>
        {step.thinking && (
          <span className="tag review-thinking" title="A step of the model's reasoning (its <think> block)" data-testid="review-thinking">
            reasoning
          </span>
        )}
        {facts.marked && (
          <span className="step-marked" title="Marked: annotators differ, or a machine source differs from them (m: next marked step)" aria-label="marked step">
            ●
          </span>
        )}
      </div>
      <div className="review-step-body" role="cell">
        <StepContent step={step} index={index} domain={props.domain} />
        {(own.length > 0 || marks.length > 0 || decided !== null) && (
          <div className="review-uses">
            {own.length > 0 && <UsesChips uses={own} origin={step.uses_source ?? ""} onHover={props.onHoverUses} />}
            {marks.map(({ a, cell }) => (
              <UsesChips key={a.id} uses={cell!.uses!} origin="marked" who={a.annotator} onHover={props.onHoverUses} />
            ))}
            {decided !== null && <UsesChips uses={decided} origin="decided" who="decision" onHover={props.onHoverUses} />}
          </div>
        )}
        {(facts.disagrees || facts.unsure || step.gold_rating !== null || facts.firstErrorSplit || facts.machineDiffers.length > 0 || step.alternatives_count > 0) && (
          <div className="step-tags">
            {facts.disagrees && (
              <span className="tag tag-disagree" title="Annotators rated this step differently" data-testid="mark-humans">
                Ratings differ
              </span>
            )}
            {!facts.disagrees && facts.firstErrorSplit && <span className="tag tag-disagree">First errors differ</span>}
            {facts.machineDiffers.length > 0 && (
              <span className="tag tag-machine" title={machineDiffText(
                  step,
                  facts.machineDiffers,
                  cells.filter(({ a }) => a.status === "submitted").map(({ cell }) => cell?.rating ?? null),
                )} data-testid="mark-machine">
                human ≠ machine
              </span>
            )}
            {step.alternatives_count > 0 && (
              <span
                className="tag alt-count"
                title={`${step.alternatives_count} other version${step.alternatives_count === 1 ? "" : "s"} of this step in the data set`}
                data-testid="alternatives-count"
              >
                <IconBranch width={12} height={12} />
                {step.alternatives_count}
              </span>
            )}
            {facts.unsure && <span className="tag tag-amber">Unsure</span>}
            {step.gold_rating !== null && (
              <span className="tag tag-gold" title="The gold label of this step">
                Gold <RatingMark rating={step.gold_rating} />
              </span>
            )}
          </div>
        )}
        {suggestions.length > 0 && (
          <div className="review-suggestions">
            {suggestions.map((s, i) => (
              <SuggestionChip
                key={`${s.source}-${s.agent}-${i}`}
                suggestion={s}
                acceptable={!readOnly && s.value !== null && ratingValues.includes(s.value)}
                agrees={s.value !== null && decision === s.value}
                offScale={s.value !== null && !ratingValues.includes(s.value)}
                onAccept={(value) => props.onRate(index, value)}
              />
            ))}
          </div>
        )}
        {suggestions.length > 0 && <SuggestionNotes suggestions={suggestions} />}
        {notes.map(({ a, cell }) => (
          <div key={a.id} className="review-notes">
            {cell!.alternative_text && (
              <div className="step-note step-note-alt">
                <div className="step-note-label">
                  <IconEdit width={12} height={12} /> {a.annotator}: corrected step
                </div>
                <Markdown source={cell!.alternative_text} />
              </div>
            )}
            {cell!.comment && (
              <div className="step-note step-note-comment">
                <div className="step-note-label">
                  <IconComment width={12} height={12} /> {a.annotator}
                </div>
                <div className="step-note-text">{cell!.comment}</div>
              </div>
            )}
          </div>
        ))}
      </div>
      {cells.map(({ a, cell }, col) => {
        const rating = cell?.rating ?? null;
        const differs = facts.disagrees && rating !== null && a.status === "submitted";
        return (
          <button
            key={a.id}
            type="button"
            role="cell"
            className={`review-cell${col === selectedColumn ? " is-selected-col" : ""}${a.status !== "submitted" ? " is-inactive" : ""}${differs ? " differs" : ""}`}
            onClick={() => props.onTake(index, a.id, col)}
            disabled={readOnly}
            title={`${a.annotator}: ${rating === null ? "not rated" : RATING_META[String(rating)].label}${cell?.unsure ? ", unsure" : ""}. Click to take this rating.`}
            data-testid="review-cell"
            data-annotation={a.id}
            data-rating={rating === null ? "" : String(rating)}
          >
            <RatingMark rating={rating} />
            <span className="cell-flags">
              {cell?.unsure && <IconFlag width={12} height={12} className="cell-flag-unsure" aria-label="unsure" />}
              {cell?.comment && <IconComment width={12} height={12} aria-label="comment" />}
              {cell?.alternative_text && <IconEdit width={12} height={12} aria-label="corrected step" />}
            </span>
          </button>
        );
      })}
      <div className="review-decision" role="cell">
        <RatingButtons
          values={ratingValues}
          selected={decision}
          index={index}
          verb="Decide"
          small
          disabled={readOnly}
          testId={(v) => `decide-${v}`}
          onRate={props.onRate}
        />
        <span className="decision-origin" title={props.origin ? ORIGIN_HELP[props.origin] : undefined} data-testid="decision-origin">
          {props.dimmed ? "after the first error" : props.origin ? ORIGIN_TEXT[props.origin] : facts.rated ? "to decide" : "nobody rated"}
        </span>
      </div>
    </div>
  );
});
