/**
 * The two ways the labeling and review pages talk back: a conflict banner (someone else changed
 * the item; every write stops until a reload) and a toast (a result, an error, a pending retry).
 */
import type { ReactNode } from "react";
import { Link } from "react-router-dom";

export interface Notice {
  /** `pending`: a write whose answer was lost is being retried; it stays until it settles. */
  tone: "error" | "success" | "info" | "pending";
  text: string;
  /** A link after the text ("View" the item just resolved). */
  link?: { to: string; label: string };
  /** "Step N has no rating" / "has no decision": the step (0-based); the labeling and review
   * pages clear the notice once that step is rated or decided. */
  unratedStep?: number;
}

export function ConflictBanner({
  title,
  children,
  detail,
  onReload,
}: {
  title: string;
  /** What a reload does, after the title. */
  children: ReactNode;
  /** The server's message, when it adds something. */
  detail?: string | null;
  onReload: () => void;
}) {
  return (
    <div className="conflict-banner" role="alert" data-testid="conflict-banner">
      <div className="conflict-text">
        <strong>{title}</strong> {children}
        {detail && <div className="conflict-detail">{detail}</div>}
      </div>
      <button type="button" className="btn btn-primary" onClick={onReload} data-testid="conflict-reload">
        Reload
      </button>
    </div>
  );
}

/** Errors stay until dismissed (× or Escape); the page clears the others after a while. */
export function Toast({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  return (
    <div
      className={`toast toast-${notice.tone}`}
      role={notice.tone === "error" ? "alert" : "status"}
      data-testid="notice"
      data-tone={notice.tone}
    >
      {notice.tone === "pending" && <span className="toast-spinner" aria-hidden="true" />}
      <span>{notice.text}</span>
      {notice.link && (
        <Link to={notice.link.to} className="toast-link">
          {notice.link.label}
        </Link>
      )}
      {notice.tone === "error" && (
        <button type="button" className="toast-close" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}
