import { useState, type FormEvent } from "react";
import * as api from "../api";
import { differMessage, PasswordField, PasswordFields, usePasswordPair } from "./PasswordFields";

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
  const pair = usePasswordPair();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!current || !pair.password) {
      setError("Enter your current password and a new one.");
      return;
    }
    if (pair.differ) {
      setError(differMessage("New password"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onDone(await api.changePassword(current, pair.password));
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
      <PasswordField
        label={currentLabel}
        value={current}
        onChange={setCurrent}
        autoComplete="current-password"
        testId="password-current"
      />
      <PasswordFields pair={pair} label="New password" testIds={{ password: "password-new", again: "password-again" }} />
      <p className="muted small">At least 8 characters, not a common password, not all digits, not like your username.</p>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy} data-testid="password-submit">
        {busy ? "Saving…" : submitLabel}
      </button>
    </form>
  );
}
