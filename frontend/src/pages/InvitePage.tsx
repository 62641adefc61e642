import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import * as api from "../api";
import { useAuth } from "../auth";
import { AuthCard } from "../components/AuthCard";
import { differMessage, PasswordFields, usePasswordPair } from "../components/PasswordFields";
import { Spinner } from "../components/ui";

const ROLE_NAMES: Record<api.Role, string> = { annotator: "an annotator", reviewer: "a reviewer", admin: "an admin" };

/** Where a new member starts: the page of their role in the project. */
export function landingPath(projectId: number, role: api.Role): string {
  if (role === "annotator") return `/projects/${projectId}/label`;
  if (role === "reviewer") return `/projects/${projectId}/review`;
  return `/projects/${projectId}`;
}

/** /invite/<token>: the invitee picks a username and password and joins the project. A used,
 * withdrawn or expired link says so. */
export function InvitePage() {
  const { token = "" } = useParams();
  const { user, setUser } = useAuth();
  const navigate = useNavigate();
  const [info, setInfo] = useState<api.InviteInfo | null>(null);
  const [unusable, setUnusable] = useState<string | null>(null);
  const [username, setUsername] = useState("");
  const pair = usePasswordPair();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api
      .openInvite(token)
      .then(setInfo)
      .catch((e: api.ApiError) => setUnusable(e.message));
  }, [token]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!info) return;
    if (!username.trim() || !pair.password) {
      setError("Choose a username and a password.");
      return;
    }
    if (pair.differ) {
      setError(differMessage("Password"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const joined = await api.acceptInvite(token, username.trim(), pair.password);
      setUser(joined.user);
      navigate(landingPath(joined.project_id, info.role), { replace: true });
    } catch (err) {
      const apiErr = err as api.ApiError;
      if (apiErr.status === 410 || apiErr.status === 404) setUnusable(apiErr.message);
      else setError(apiErr.message);
    } finally {
      setBusy(false);
    }
  }

  if (unusable)
    return (
      <AuthCard title="This invite link cannot be used" testId="invite-unusable">
        <div className="callout callout-error" role="alert" data-testid="invite-error">
          {unusable}
        </div>
        <div className="login-links">
          <Link to="/login">Sign in with an account</Link>
        </div>
      </AuthCard>
    );
  if (!info) return <Spinner label="Opening the invite…" />;
  return (
    <AuthCard
      title={`Join ${info.project}`}
      sub={`You are invited as ${ROLE_NAMES[info.role]}. Choose the username and password of your new account.`}
      testId="invite-page"
    >
      {user && (
        <div className="callout callout-warn">
          You are signed in as {user.username}. An invite makes a new account: sign out first.
        </div>
      )}
      <form className="stack-sm" onSubmit={submit} noValidate>
        {error && (
          <div className="callout callout-error" role="alert" data-testid="invite-form-error">
            {error}
          </div>
        )}
        <label className="field">
          <span className="field-label">Username</span>
          <input className="input" autoComplete="username" autoFocus value={username} onChange={(e) => setUsername(e.target.value)} data-testid="invite-username" />
        </label>
        <PasswordFields pair={pair} testIds={{ password: "invite-password", again: "invite-again" }} />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy || !!user} data-testid="invite-submit">
          {busy ? "Joining…" : "Create account and join"}
        </button>
      </form>
    </AuthCard>
  );
}
