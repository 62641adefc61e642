import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import * as api from "../api";
import { AuthCard } from "../components/AuthCard";

/** "Forgot password?": the server e-mails a reset link to the accounts with that address. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!email.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await api.requestPasswordReset(email.trim());
      setSent(true);
    } catch (err) {
      setError((err as api.ApiError).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Reset your password" sub="We e-mail a link to the address of your account.">
      {sent ? (
        <div className="callout callout-success" data-testid="reset-sent">
          If an account has the address {email.trim()}, a link to choose a new password is on its way. No e-mail? Ask
          your project admin: accounts without an address cannot be reset this way.
        </div>
      ) : (
        <form className="stack-sm" onSubmit={submit} noValidate>
          {error && (
            <div className="callout callout-error" role="alert">
              {error}
            </div>
          )}
          <label className="field">
            <span className="field-label">E-mail</span>
            <input
              className="input"
              type="email"
              autoComplete="email"
              autoFocus
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="reset-email"
            />
          </label>
          <button type="submit" className="btn btn-primary btn-block" disabled={busy || !email.trim()} data-testid="reset-send">
            {busy ? "Sending…" : "Send the link"}
          </button>
        </form>
      )}
      <div className="login-links">
        <Link to="/login">Back to sign in</Link>
      </div>
    </AuthCard>
  );
}
