import { useState, type FormEvent } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router-dom";
import * as api from "../api";
import { useAuth } from "../auth";
import { IconLogo } from "../components/icons";
import { PasswordField } from "../components/PasswordFields";
import "../styles/people.css";

/** Only same-site paths are followed after login (no open redirect). */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/login")) return "/projects";
  return next;
}

export function LoginPage() {
  const { user, loading, setUser } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!loading && user) return <Navigate to={next} replace />;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!username.trim() || !password) {
      setError("Enter your username and password.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const u = await api.login(username.trim(), password);
      setUser(u);
      navigate(next, { replace: true });
    } catch (err) {
      const apiErr = err as api.ApiError;
      setError(
        apiErr.isNetwork
          ? "Cannot reach the server. Check your connection and try again."
          : apiErr.status === 429 // sign-in throttled: the server says how long to wait
            ? apiErr.message || "Too many sign-in attempts. Wait a minute and try again."
            : apiErr.status === 400 || apiErr.status === 401 || apiErr.status === 403
            ? apiErr.message && apiErr.code !== "not_authenticated"
              ? apiErr.message
              : "Wrong username or password."
            : apiErr.message,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login-page">
      <form className="login-card" onSubmit={onSubmit} noValidate>
        <div className="login-brand">
          <IconLogo width={32} height={32} />
          <span className="login-brand-name">steplab</span>
        </div>
        <h1 className="login-title">Sign in</h1>
        <p className="muted login-sub">Label the steps of reasoning, from math solutions to agent trajectories.</p>
        {error && (
          <div className="callout callout-error" role="alert" data-testid="login-error">
            {error}
          </div>
        )}
        <label className="field">
          <span className="field-label">Username</span>
          <input
            className="input"
            name="username"
            autoComplete="username"
            autoFocus
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            data-testid="login-username"
          />
        </label>
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          testId="login-password"
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy} data-testid="login-submit">
          {busy ? "Signing in…" : "Sign in"}
        </button>
        <div className="login-links login-links-col">
          <Link to="/forgot-password" data-testid="forgot-password">
            Forgot password?
          </Link>
          <span className="muted">New here? Ask your project admin for an invite link.</span>
        </div>
      </form>
    </main>
  );
}
