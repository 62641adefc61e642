import { useState, type FormEvent } from "react";
import * as api from "../api";

/** Current password, new password twice; the server applies Django's password validators and
 * its message is shown as it is. `onDone` gets the user as the server now sees them. */
export function ChangePasswordForm({
  onDone,
  submitLabel = "Change password",
  currentLabel = "Current password",
}: {
  onDone: (user: api.User | null) => void;
  submitLabel?: string;
  currentLabel?: string;
}) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!current || !next) {
      setError("Enter your current password and a new one.");
      return;
    }
    if (next !== again) {
      setError("The new passwords differ.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onDone(await api.changePassword(current, next));
    } catch (err) {
      setError((err as api.ApiError).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="stack-sm" onSubmit={submit} noValidate data-testid="password-form">
      {error && (
        <div className="callout callout-error" role="alert" data-testid="password-error">
          {error}
        </div>
      )}
      <label className="field">
        <span className="field-label">{currentLabel}</span>
        <input
          className="input"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          data-testid="password-current"
        />
      </label>
      <label className="field">
        <span className="field-label">New password</span>
        <input
          className="input"
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          data-testid="password-new"
        />
      </label>
      <label className="field">
        <span className="field-label">New password again</span>
        <input
          className="input"
          type="password"
          autoComplete="new-password"
          value={again}
          onChange={(e) => setAgain(e.target.value)}
          data-testid="password-again"
        />
      </label>
      <p className="muted small">At least 8 characters, not a common password, not all digits, not like your username.</p>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy} data-testid="password-submit">
        {busy ? "Saving…" : submitLabel}
      </button>
    </form>
  );
}
