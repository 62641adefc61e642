import type { SaveInfo } from "./draftSaver";
import { Kbd } from "../components/ui";

const SAVE_TEXT: Record<SaveInfo["status"], string> = {
  saved: "Saved",
  pending: "Saving…",
  saving: "Saving…",
  offline: "Offline — retrying",
  error: "Save failed — retrying",
  conflict: "Conflict",
};

export function SaveState({ info }: { info: SaveInfo }) {
  const text = info.status === "error" && info.message ? info.message : SAVE_TEXT[info.status];
  return (
    <span className={`save-state save-${info.status}`} data-testid="save-state" data-status={info.status} role="status" aria-live="polite">
      <span className="save-dot" aria-hidden="true" />
      {text}
    </span>
  );
}

export function FinishBar({
  saveInfo,
  rated,
  required,
  stoppedAt,
  busy,
  disabled,
  editing = false,
  onSubmit,
  onSkip,
  onGiveUp,
  onBadProblem,
}: {
  saveInfo: SaveInfo;
  rated: number;
  required: number;
  stoppedAt: number;
  binary: boolean;
  busy: null | "submit" | "skip" | "next";
  disabled: boolean;
  /** A submission reopened for a change: the submit button resubmits, skip leaves it as it was. */
  editing?: boolean;
  onSubmit: () => void;
  onSkip: () => void;
  onGiveUp: () => void;
  onBadProblem: () => void;
}) {
  const complete = rated >= required && required > 0;
  const verb = editing ? "Resubmit" : "Submit";
  const submitLabel = stoppedAt >= 0 ? `${verb} — stopped at step ${stoppedAt + 1}` : verb;
  return (
    <footer className="finish-bar">
      <div className="finish-inner">
        <div className="finish-status">
          {editing ? (
            <span className="save-state save-pending" data-testid="save-state" data-status="editing" role="status">
              <span className="save-dot" aria-hidden="true" />
              Editing your submission
            </span>
          ) : (
            <SaveState info={saveInfo} />
          )}
          <span className="finish-count" data-testid="rated-count">
            <span className={complete ? "text-green" : ""}>
              {rated}/{required}
            </span>{" "}
            rated
          </span>
          <div className="mini-progress" aria-hidden="true">
            <div className="mini-progress-fill" style={{ width: `${required ? (rated / required) * 100 : 0}%` }} />
          </div>
        </div>
        <div className="finish-actions">
          <button type="button" className="btn" onClick={onBadProblem} disabled={disabled} data-testid="bad-problem-button">
            Bad problem <Kbd>b</Kbd>
          </button>
          <button type="button" className="btn" onClick={onGiveUp} disabled={disabled} data-testid="give-up-button">
            Give up <Kbd>g</Kbd>
          </button>
          <button type="button" className="btn" onClick={onSkip} disabled={disabled} data-testid="skip-button">
            {busy === "skip" ? "Skipping…" : editing ? "Leave as submitted" : "Skip"} <Kbd>s</Kbd>
          </button>
          <button
            type="button"
            className={`btn btn-primary btn-submit${complete ? "" : " is-incomplete"}`}
            onClick={onSubmit}
            disabled={disabled}
            data-testid="submit-button"
          >
            {busy === "submit" ? (editing ? "Resubmitting…" : "Submitting…") : submitLabel} <Kbd>⏎</Kbd>
          </button>
        </div>
      </div>
    </footer>
  );
}
