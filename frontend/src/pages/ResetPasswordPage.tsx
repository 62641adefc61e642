import { useState, type FormEvent } from "react";
import { Link, useParams } from "react-router-dom";
import * as api from "../api";
import { AuthCard } from "../components/AuthCard";
import { differMessage, PasswordFields, usePasswordPair } from "../components/PasswordFields";

/** The e-mailed link's page: choose a new password (the link works once). */
export function ResetPasswordPage() {
  const { uid = "", token = "" } = useParams();
  const pair = usePasswordPair();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (pair.differ) {
      setError(differMessage("Password"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.confirmPasswordReset(uid, token, pair.password);
      setDone(true);
    } catch (err) {
      setError((err as api.ApiError).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Choose a new password">
      {done ? (
        <div className="callout callout-success" data-testid="reset-done">
          Your password is changed. <Link to="/login">Sign in</Link> with it.
        </div>
      ) : (
        <form className="stack-sm" onSubmit={submit} noValidate>
          {error && (
            <div className="callout callout-error" role="alert" data-testid="reset-error">
              {error}
            </div>
          )}
          <PasswordFields pair={pair} label="New password" testIds={{ password: "reset-password", again: "reset-again" }} />
          <button type="submit" className="btn btn-primary btn-block" disabled={busy || !pair.password} data-testid="reset-submit">
            Set password
          </button>
        </form>
      )}
      <div className="login-links">
        <Link to="/login">Back to sign in</Link>
        <Link to="/forgot-password">Send a new link</Link>
      </div>
    </AuthCard>
  );
}
