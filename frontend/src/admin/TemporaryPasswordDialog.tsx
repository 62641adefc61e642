import { useState } from "react";
import { createPortal } from "react-dom";
import * as api from "../api";
import { useEscape } from "../lib/useEscape";
import { OneTimeSecret } from "./OneTimeSecret";

/** "New temporary password" for a member who never signed in and chose their own: a
 * confirmation, then the new password shown once (as at creation). */
export function TemporaryPasswordDialog({
  project,
  member,
  onIssued,
  onClose,
}: {
  project: api.Project;
  member: api.Member;
  onIssued: (m: api.Member) => void;
  onClose: () => void;
}) {
  const [password, setPassword] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEscape(onClose);
  const name = member.user.username;

  async function issue() {
    setBusy(true);
    setError(null);
    try {
      const issued = await api.reissueTemporaryPassword(project.id, member.user.id);
      setPassword(issued.temporary_password);
      onIssued(issued.member);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return createPortal(
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="reissue-title" data-testid="reissue-dialog">
        <div className="dialog-head">
          <h2 className="dialog-title" id="reissue-title">
            New temporary password for {name}
          </h2>
        </div>
        {password ? (
          <OneTimeSecret label={`Temporary password of ${name} (shown once)`} value={password} testId="reissued-password" />
        ) : (
          <p className="muted small">
            {name} has not chosen a password yet. A new temporary password replaces the old one at once, signs {name} out
            everywhere and revokes their API tokens; they choose their own at the next sign-in.
          </p>
        )}
        {error && (
          <div className="callout callout-error" role="alert" data-testid="reissue-error">
            {error}
          </div>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            {password ? "Done" : "Cancel"}
          </button>
          {!password && (
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void issue()} data-testid="reissue-confirm">
              Issue a new password
            </button>
          )}
        </div>
      </div>
    </div>,
    document.body,
  );
}
