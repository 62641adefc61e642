import { useState } from "react";
import { createPortal } from "react-dom";
import { useEscape } from "../lib/useEscape";
import { ChangePasswordForm } from "./ChangePasswordForm";

/** The user menu's "Change password": the form in a dialog, then a confirmation. */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const [done, setDone] = useState(false);
  useEscape(onClose);
  return createPortal(
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog password-dialog" role="dialog" aria-modal="true" aria-labelledby="password-title" data-testid="password-dialog">
        <div className="dialog-head">
          <h2 className="dialog-title" id="password-title">
            Change password
          </h2>
        </div>
        {done ? (
          <div className="callout callout-success" data-testid="password-changed">
            Your password is changed. You stay signed in here.
          </div>
        ) : (
          <ChangePasswordForm onDone={() => setDone(true)} />
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            {done ? "Done" : "Cancel"}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
