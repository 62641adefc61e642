import { memo, useMemo } from "react";
import type { Domain, Rating, StepLabel, TaskStep } from "../api";
import { Markdown } from "../components/Markdown";
import { IconBranch, IconComment, IconEdit, IconFlag } from "../components/icons";
import { InlineEditor } from "./InlineEditor";
import { UsesChips } from "./UsesChips";
import { RATING_META, RatingButtons, StepContent, classNames, selectOnClick, useScrollIntoView } from "./StepParts";
import { SuggestionChip, SuggestionNotes } from "./SuggestionChip";
import { orderSuggestions } from "./suggestions";

export type EditorKind = "comment" | "alternative";

export interface StepRowProps {
  step: TaskStep;
  label: StepLabel;
  index: number;
  isCurrent: boolean;
  dimmed: boolean;
  isFirstError: boolean;
  /** The earlier steps (0-based) it uses: the annotator's marks, else its own. */
  uses?: number[];
  /** `uses` are the annotator's marks (not the imported or detected ones). */
  usesMarked?: boolean;
  /** A hovered "uses" chip names this step. */
  highlighted?: boolean;
  onHoverUses?: (steps: number[] | null) => void;
  ratingValues: Rating[];
  /** The problem's domain (decides how the step is rendered). */
  domain?: Domain;
  showSuggestions: boolean;
  editor: EditorKind | null;
  readOnly: boolean;
  onRate: (index: number, value: Rating) => void;
  /** A suggestion chip was clicked: set the step's rating to its value. */
  onAcceptSuggestion: (index: number, value: Rating) => void;
  onSelect: (index: number) => void;
  onToggleUnsure: (index: number) => void;
  onOpenEditor: (index: number, kind: EditorKind) => void;
  onSaveEditor: (index: number, kind: EditorKind, text: string) => void;
  onCancelEditor: () => void;
  /** How many steps the list has (aria-setsize: said even when most rows are not rendered). */
  setSize?: number;
  /** false: the list scrolls the current row into view itself (a windowed list). */
  scrollOnCurrent?: boolean;
}

export const StepRow = memo(function StepRow(props: StepRowProps) {
  const { step, label, index, isCurrent, dimmed, ratingValues, editor, readOnly } = props;
  const ref = useScrollIntoView<HTMLDivElement>(isCurrent && props.scrollOnCurrent !== false);

  const rating = label.rating;
  const suggestions = useMemo(
    () => (props.showSuggestions ? orderSuggestions(step.suggestions ?? []) : []),
    [props.showSuggestions, step.suggestions],
  );
  const classes = classNames(
    "step-row",
    isCurrent && "is-current",
    dimmed && "is-dimmed",
    rating !== null && `rated-${RATING_META[String(rating)]?.tone}`,
    props.isFirstError && "is-first-error",
    props.highlighted && "is-uses-highlight",
    step.thinking && "is-thinking",
  );

  return (
    <div
      ref={ref}
      className={classes}
      role="listitem"
      aria-setsize={props.setSize}
      aria-posinset={props.setSize === undefined ? undefined : index + 1}
      data-testid="step-row"
      data-index={index}
      data-domain={props.domain}
      data-rating={rating === null ? "" : String(rating)}
      data-current={isCurrent ? "true" : undefined}
      data-dimmed={dimmed ? "true" : undefined}
      data-thinking={step.thinking ? "true" : undefined}
      aria-current={isCurrent ? "step" : undefined}
      onClick={selectOnClick(props.onSelect, index)}
    >
      <div className="step-num" aria-label={`Step ${index + 1}`}>
        {index + 1}
      </div>

      <div className="step-body">
        <StepContent step={step} index={index} domain={props.domain} />
        {props.uses && props.uses.length > 0 && (
          <UsesChips
            uses={props.uses}
            origin={props.usesMarked ? "marked" : (step.uses_source ?? "")}
            onHover={props.onHoverUses}
          />
        )}
        {suggestions.length > 0 && <SuggestionNotes suggestions={suggestions} />}
        {label.unsure && (
          <div className="step-tags">
            <span className="tag tag-amber">Unsure</span>
          </div>
        )}
        {label.alternative_text && editor !== "alternative" && (
          <div className="step-note step-note-alt">
            <div className="step-note-label">
              <IconEdit width={12} height={12} /> Corrected step
            </div>
            <Markdown source={label.alternative_text} />
          </div>
        )}
        {label.comment && editor !== "comment" && (
          <div className="step-note step-note-comment">
            <div className="step-note-label">
              <IconComment width={12} height={12} /> Comment
            </div>
            <div className="step-note-text">{label.comment}</div>
          </div>
        )}
        {editor === "alternative" && (
          <InlineEditor
            label="Corrected step"
            initial={label.alternative_text || step.text}
            placeholder="Write the step as it should be…"
            onSave={(text) => props.onSaveEditor(index, "alternative", text)}
            onCancel={props.onCancelEditor}
            testId="alternative-input"
          />
        )}
        {editor === "comment" && (
          <InlineEditor
            label="Comment"
            initial={label.comment}
            placeholder="What is wrong or unclear in this step?"
            onSave={(text) => props.onSaveEditor(index, "comment", text)}
            onCancel={props.onCancelEditor}
            testId="comment-input"
          />
        )}
      </div>

      <div className="step-side">
        {step.alternatives_count > 0 && (
          <span
            className="alt-count"
            title={`${step.alternatives_count} other version${step.alternatives_count === 1 ? "" : "s"} of this step in the data set`}
            data-testid="alternatives-count"
          >
            <IconBranch width={13} height={13} />
            {step.alternatives_count}
          </span>
        )}
        {suggestions.length > 0 && (
          <div className="step-suggestions">
            {suggestions.map((s, i) => (
              <SuggestionChip
                key={`${s.source}-${s.agent}-${i}`}
                suggestion={s}
                acceptable={!readOnly && !dimmed && s.value !== null && ratingValues.includes(s.value)}
                agrees={s.value !== null && rating === s.value}
                offScale={s.value !== null && !ratingValues.includes(s.value)}
                onAccept={(value) => props.onAcceptSuggestion(index, value)}
              />
            ))}
          </div>
        )}
        <div className="step-controls">
          <RatingButtons
            values={ratingValues}
            selected={rating}
            index={index}
            verb="Rate"
            disabled={readOnly || dimmed}
            testId={(v) => `rating-button-${v}`}
            onRate={props.onRate}
          />
          <div className="step-flags">
            <button
              type="button"
              className={`flag-btn${label.unsure ? " flag-on flag-unsure" : ""}`}
              aria-pressed={label.unsure}
              title="Unsure (u)"
              aria-label={`Unsure, step ${index + 1}`}
              disabled={readOnly}
              onClick={() => props.onToggleUnsure(index)}
              data-testid="unsure-button"
            >
              <IconFlag width={14} height={14} />
            </button>
            <button
              type="button"
              className={`flag-btn${label.alternative_text ? " flag-on" : ""}`}
              title="Corrected step (a)"
              aria-label={`Corrected step, step ${index + 1}`}
              disabled={readOnly}
              onClick={() => props.onOpenEditor(index, "alternative")}
              data-testid="alternative-button"
            >
              <IconEdit width={14} height={14} />
            </button>
            <button
              type="button"
              className={`flag-btn${label.comment ? " flag-on" : ""}`}
              title="Comment (c)"
              aria-label={`Comment, step ${index + 1}`}
              disabled={readOnly}
              onClick={() => props.onOpenEditor(index, "comment")}
              data-testid="comment-button"
            >
              <IconComment width={14} height={14} />
            </button>
          </div>
        </div>
      </div>
    </div>
  );
});
