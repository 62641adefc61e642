import type { Rejection, Rework } from "../api";
import { formatDate } from "../components/ui";
import { IconComment } from "../components/icons";

/** A reviewer sent this annotation back: their comment, at the top of the labeling page. */
export function ReworkBanner({ rework }: { rework: Rework }) {
  return (
    <section className="rework-banner" role="note" aria-label="Sent back by a reviewer" data-testid="rework-banner">
      <div className="rework-icon" aria-hidden="true">
        <IconComment width={16} height={16} />
      </div>
      <div className="rework-body">
        <div className="rework-title">
          Sent back by {rework.reviewer ?? "a reviewer"}
          {rework.rejected_at && <span className="rework-when"> · {formatDate(rework.rejected_at)}</span>}
        </div>
        <div className="rework-comment" data-testid="rework-comment">
          {rework.comment || "No comment."}
        </div>
        <div className="rework-hint">Your labels are kept: fix what the comment points at and submit again.</div>
      </div>
    </section>
  );
}

/** Annotations a reviewer sent back that wait behind the current solution in the queue. */
export function PendingRework({ items }: { items: Rejection[] }) {
  if (!items.length) return null;
  return (
    <section className="rework-banner rework-pending" role="note" aria-label="Sent back by a reviewer" data-testid="rework-pending">
      <div className="rework-icon" aria-hidden="true">
        <IconComment width={16} height={16} />
      </div>
      <div className="rework-body">
        <div className="rework-title">
          {items.length === 1 ? "A reviewer sent back one of your solutions" : `Reviewers sent back ${items.length} of your solutions`}
          <span className="rework-when"> · it comes next, after this one</span>
        </div>
        <ul className="rework-list">
          {items.slice(0, 3).map((r) => (
            <li key={r.id} className="rework-comment" data-testid="rework-pending-comment">
              <strong>{r.reviewer ?? "Reviewer"}:</strong> {r.comment || "No comment."}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
