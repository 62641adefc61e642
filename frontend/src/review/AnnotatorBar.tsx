import type { ReviewAnnotation } from "../api";
import { Kbd } from "../components/ui";
import { formatDuration } from "../label/useWorkTimer";

const STATUS_TEXT: Record<string, string> = { submitted: "submitted", rejected: "sent back", draft: "labeling" };

function firstErrorText(a: ReviewAnnotation): string {
  return a.first_error_index === null ? "no wrong step" : `1st error: step ${a.first_error_index + 1}`;
}

/** The grid's header row: one column per annotation, aligned with the step rows' cells. */
export function AnnotatorHeader({
  columns,
  selected,
  acceptedIds,
  onSelect,
}: {
  columns: ReviewAnnotation[];
  selected: number;
  /** Annotations the current resolution rests on. */
  acceptedIds: number[];
  onSelect: (column: number) => void;
}) {
  return (
    <div className="review-step review-head" role="row">
      <div role="columnheader" className="review-head-num">
        #
      </div>
      <div role="columnheader" className="review-head-step">
        Step
      </div>
      {columns.map((a, i) => (
        <button
          key={a.id}
          type="button"
          role="columnheader"
          className={`review-head-col${i === selected ? " is-selected-col" : ""}${a.status !== "submitted" ? " is-inactive" : ""}`}
          onClick={() => onSelect(i)}
          title={`${a.annotator}${a.imported ? " (imported)" : ""} · ${STATUS_TEXT[a.status] ?? a.status} · ${firstErrorText(a)} · ${formatDuration(a.time_spent_ms)}`}
          data-testid="annotator-column"
          data-annotation={a.id}
          data-status={a.status}
        >
          <span className="review-head-name">{a.annotator}</span>
          <span className={`review-head-status status-${a.status}`}>
            {a.status === "submitted" && acceptedIds.includes(a.id) ? "in resolution" : (STATUS_TEXT[a.status] ?? a.status)}
          </span>
        </button>
      ))}
      <div role="columnheader" className="review-head-decision">
        Decision
      </div>
    </div>
  );
}

/** What can be done with the selected annotation: accept, reject, take its column. */
export function SelectedAnnotationBar({
  annotation,
  readOnly,
  onAccept,
  onReject,
  onTakeColumn,
}: {
  annotation: ReviewAnnotation | null;
  readOnly: boolean;
  onAccept: () => void;
  onReject: () => void;
  onTakeColumn: () => void;
}) {
  if (!annotation) return null;
  const active = annotation.status === "submitted";
  return (
    <div className="selected-bar" data-testid="selected-annotation">
      <span className="selected-bar-who">
        <span className="muted">Selected</span> <strong>{annotation.annotator}</strong>
        <span className="muted small">
          {" "}
          · {firstErrorText(annotation)} · {formatDuration(annotation.time_spent_ms)}
          {annotation.finish_reason && annotation.finish_reason !== "solution" && ` · ${annotation.finish_reason.replace("_", " ")}`}
        </span>
        {annotation.finish_reason_text && <span className="selected-bar-reason">“{annotation.finish_reason_text}”</span>}
      </span>
      <span className="grow" />
      <button type="button" className="btn btn-sm" onClick={onTakeColumn} disabled={readOnly} data-testid="take-column">
        Take column <Kbd>P</Kbd>
      </button>
      <button
        type="button"
        className="btn btn-sm btn-accept"
        onClick={onAccept}
        disabled={readOnly || !active}
        title={active ? "Its labels become the resolved label" : "Only submitted annotations can be accepted"}
        data-testid="accept"
      >
        Accept <Kbd>a</Kbd>
      </button>
      <button
        type="button"
        className="btn btn-sm btn-reject"
        onClick={onReject}
        disabled={readOnly || !active || annotation.imported}
        title={annotation.imported ? "Imported labels have no annotator to send them back to" : "Send it back to its annotator with a comment"}
        data-testid="reject"
      >
        Reject <Kbd>r</Kbd>
      </button>
    </div>
  );
}
