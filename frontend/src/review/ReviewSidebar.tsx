/** The review page's side column: resolved label with provenance, the adjudication, gold,
 * the comment threads and the history. */
import { forwardRef, useState } from "react";
import type { Rating, ReviewComment, ReviewDetail, Resolution } from "../api";
import { Kbd, formatDate } from "../components/ui";
import { PROVENANCE_LABEL } from "./reviewState";
import { RatingMark } from "./ReviewStepRow";

function annotatorsOf(detail: ReviewDetail, ids: number[]): string {
  const names = ids.map((id) => detail.annotations.find((a) => a.id === id)?.annotator ?? `#${id}`);
  return names.join(", ");
}

function ResolutionLabels({ detail, resolution }: { detail: ReviewDetail; resolution: Resolution }) {
  const byStep = new Map(resolution.labels.map((l) => [l.step_id, l.rating]));
  return (
    <div className="resolution-strip" aria-label="Resolved rating per step">
      {detail.steps.map((s) => (
        <span key={s.id} className="resolution-step" title={`Step ${s.index + 1}`}>
          <span className="resolution-step-num">{s.index + 1}</span>
          <RatingMark rating={(byStep.get(s.id) ?? null) as Rating | null} />
        </span>
      ))}
    </div>
  );
}

export function ResolutionCard({ detail }: { detail: ReviewDetail }) {
  const current = detail.resolution;
  const earlier = detail.resolutions.filter((r) => !r.is_current);
  return (
    <section className="card side-card" data-testid="resolution" data-provenance={current?.provenance ?? ""}>
      <h2 className="side-title">Resolved label</h2>
      {current ? (
        <>
          <div className="resolution-head">
            <span className={`badge prov prov-${current.provenance}`} data-testid="provenance">
              {PROVENANCE_LABEL[current.provenance] ?? current.provenance}
            </span>
            <span className="muted small">
              {current.resolved_by ? `by ${current.resolved_by}, ` : ""}
              {formatDate(current.created_at)}
            </span>
          </div>
          <ResolutionLabels detail={detail} resolution={current} />
          <p className="muted small">
            {current.first_error_index === null ? "No wrong step" : `First error: step ${current.first_error_index + 1}`}
            {current.annotation_ids.length > 0 && ` · from ${annotatorsOf(detail, current.annotation_ids)}`}
          </p>
        </>
      ) : (
        <p className="muted small">Not resolved yet. Adjudicate below or accept an annotation.</p>
      )}
      {earlier.length > 0 && (
        <details className="side-details">
          <summary>
            {earlier.length} earlier {earlier.length === 1 ? "resolution" : "resolutions"} (superseded)
          </summary>
          <ul className="side-list">
            {earlier.map((r) => (
              <li key={r.id}>
                <span className="badge">{PROVENANCE_LABEL[r.provenance] ?? r.provenance}</span>{" "}
                <span className="muted small">
                  {r.resolved_by ?? ""} {formatDate(r.created_at)}
                </span>
                <ResolutionLabels detail={detail} resolution={r} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

export function DecisionCard({
  title,
  decided,
  needed,
  missing,
  comment,
  busy,
  readOnly,
  onComment,
  onSubmit,
}: {
  title: string;
  decided: number;
  needed: number;
  missing: number[];
  comment: string;
  busy: boolean;
  readOnly: boolean;
  onComment: (text: string) => void;
  onSubmit: () => void;
}) {
  return (
    <section className="card side-card decision-card">
      <h2 className="side-title">{title}</h2>
      <div className="decision-count" data-testid="decision-count">
        <strong>{decided}</strong> / {needed} steps decided
        {missing.length > 0 && <span className="muted small"> · step {missing.map((i) => i + 1).join(", ")} open</span>}
      </div>
      <textarea
        className="input input-sm"
        rows={2}
        value={comment}
        placeholder="Why (optional; the annotators see it)"
        onChange={(e) => onComment(e.target.value)}
        disabled={readOnly}
        data-testid="adjudicate-comment"
      />
      <button type="button" className="btn btn-primary btn-block" onClick={onSubmit} disabled={readOnly || busy} data-testid="adjudicate">
        {busy ? "Saving…" : "Submit decision"} <Kbd>⏎</Kbd>
      </button>
    </section>
  );
}

export function GoldCard({
  isGold,
  busy,
  onSet,
  onUnset,
}: {
  isGold: boolean;
  busy: boolean;
  onSet: () => void;
  onUnset: () => void;
}) {
  return (
    <section className="card side-card gold-card" data-testid="gold-card">
      <div className="side-row">
        <h2 className="side-title">Gold question</h2>
        {isGold && <span className="badge badge-amber">Gold</span>}
      </div>
      <p className="muted small">
        {isGold
          ? "Served to annotators at the gold rate; their labels are scored against it."
          : "Use the decisions above as this solution's known labels and serve it as a gold question."}
      </p>
      {isGold ? (
        <button type="button" className="btn btn-sm" onClick={onUnset} disabled={busy} data-testid="gold-unset">
          Unmark gold <Kbd>G</Kbd>
        </button>
      ) : (
        <button type="button" className="btn btn-sm" onClick={onSet} disabled={busy} data-testid="gold-set">
          Mark as gold <Kbd>G</Kbd>
        </button>
      )}
    </section>
  );
}

export const CommentThread = forwardRef<
  HTMLTextAreaElement,
  {
    detail: ReviewDetail;
    /** The current step (what "Step k" comments on). */
    step: { id: number; index: number } | null;
    onStep: boolean;
    onTarget: (onStep: boolean) => void;
    onPost: (body: string, stepId: number | null) => Promise<void>;
  }
>(function CommentThread({ detail, step, onStep, onTarget, onPost }, ref) {
  const target = onStep && step ? step : null;
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stepIndex = new Map(detail.steps.map((s) => [s.id, s.index]));
  const post = async () => {
    if (!text.trim() || busy) return;
    setBusy(true);
    setError(null);
    try {
      await onPost(text.trim(), target ? target.id : null);
      setText("");
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const label = (c: ReviewComment) => (c.step_id === null ? "solution" : `step ${(stepIndex.get(c.step_id) ?? 0) + 1}`);
  return (
    <section className="card side-card" data-testid="comments">
      <h2 className="side-title">Comments {detail.comments.length > 0 && <span className="muted">({detail.comments.length})</span>}</h2>
      {detail.comments.length === 0 && <p className="muted small">No comments yet.</p>}
      {detail.comments.length > 0 && (
        <ul className="comment-list">
          {detail.comments.map((c) => (
            <li
              key={c.id}
              className={`comment${target && c.step_id === target.id ? " is-target" : ""}`}
              data-testid="comment"
            >
              <div className="comment-head">
                <strong>{c.author}</strong>
                <span className={`tag${c.step_id === null ? "" : " tag-step"}`}>{label(c)}</span>
                {c.review_id !== null && <span className="tag">review</span>}
                <span className="grow" />
                <span className="subtle small">{formatDate(c.created_at)}</span>
              </div>
              <div className="comment-body">{c.body}</div>
            </li>
          ))}
        </ul>
      )}
      <div className="comment-compose">
        <div className="segmented" role="group" aria-label="Comment on">
          <button type="button" className={target ? undefined : "on"} onClick={() => onTarget(false)} data-testid="comment-on-solution">
            Solution
          </button>
          {step && (
            <button type="button" className={target ? "on" : undefined} onClick={() => onTarget(true)} data-testid="comment-on-step">
              Step {step.index + 1}
            </button>
          )}
        </div>
        <textarea
          ref={ref}
          className="input input-sm"
          rows={2}
          value={text}
          placeholder={target ? `Comment on step ${target.index + 1}…` : "Comment on the solution…"}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void post();
            } else if (e.key === "Escape") {
              e.preventDefault();
              (e.target as HTMLTextAreaElement).blur();
            }
          }}
          data-testid="comment-input"
        />
        {error && <div className="field-error">{error}</div>}
        <div className="side-row">
          <span className="muted small">
            <Kbd>⏎</Kbd> post · <Kbd>Esc</Kbd> back to the steps
          </span>
          <button type="button" className="btn btn-sm" onClick={() => void post()} disabled={busy || !text.trim()} data-testid="comment-post">
            Post
          </button>
        </div>
      </div>
    </section>
  );
});

function ratingText(v: unknown): string {
  if (v && typeof v === "object" && "rating" in (v as Record<string, unknown>)) {
    const r = (v as { rating: unknown }).rating;
    return r === null || r === undefined ? "·" : r === 1 ? "+1" : r === -1 ? "−1" : String(r);
  }
  return v === null || v === undefined ? "·" : "…";
}

function usesOf(v: unknown): number[] | null {
  const uses = v && typeof v === "object" ? (v as { uses?: unknown }).uses : undefined;
  return Array.isArray(uses) ? (uses as number[]) : null;
}

/** " · uses 1, 2 → 3" when a change touched the steps a step uses ("own": not marked). */
export function usesChangeText(before: unknown, after: unknown): string {
  const [b, a] = [usesOf(before), usesOf(after)];
  if ((b ?? []).join() === (a ?? []).join() && (b === null) === (a === null)) return "";
  const text = (u: number[] | null) => (u === null ? "own" : u.length ? u.map((k) => k + 1).join(", ") : "none");
  return ` · uses ${text(b)} → ${text(a)}`;
}

export function ActivityCard({ detail }: { detail: ReviewDetail }) {
  return (
    <section className="card side-card" data-testid="activity">
      <details className="side-details" open={detail.reviews.length > 0}>
        <summary>Reviews ({detail.reviews.length})</summary>
        <ul className="side-list">
          {detail.reviews.map((r) => (
            <li key={r.id} data-testid="review-action">
              <strong>{r.reviewer}</strong> <span className={`badge action-${r.action}`}>{r.action}</span>
              {r.annotation_id !== null && (
                <span className="muted small"> {detail.annotations.find((a) => a.id === r.annotation_id)?.annotator ?? ""}</span>
              )}
              <span className="subtle small"> · {formatDate(r.created_at)}</span>
              {r.comment && <div className="comment-body">{r.comment}</div>}
            </li>
          ))}
        </ul>
      </details>
      <details className="side-details">
        <summary>History ({detail.history.length})</summary>
        <ul className="side-list history-list">
          {detail.history.map((h) => (
            <li key={h.id}>
              <span className="mono small">step {h.step_index + 1}</span> <span className="muted small">{h.action}</span>{" "}
              <span className="mono small">
                {ratingText(h.before)} → {ratingText(h.after)}
                {usesChangeText(h.before, h.after)}
              </span>
              <span className="subtle small">
                {" "}
                · {h.user ?? "system"} · {h.resolution_id ? "resolution" : `annotation #${h.annotation_id}`} · {formatDate(h.at)}
              </span>
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
