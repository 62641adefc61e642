import { useEffect, useState } from "react";
import * as api from "../api";
import { formatDate } from "./ui";

/** The user's API token: create (the key is shown once, with Copy), replace, revoke. */
export function TokenDialog({ onClose }: { onClose: () => void }) {
  const [token, setToken] = useState<api.ApiToken | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api
      .listTokens()
      .then((list) => setToken(list[0] ?? null))
      .catch((e: api.ApiError) => setError(e.message))
      .finally(() => setLoading(false));
  }, []);

  async function act(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError((e as api.ApiError).message);
    } finally {
      setBusy(false);
    }
  }
  const create = () =>
    act(async () => {
      const t = await api.createToken();
      setToken({ prefix: t.prefix, created: t.created });
      setCreated(t.token);
      setCopied(false);
    });
  const revoke = () =>
    act(async () => {
      await api.revokeToken();
      setToken(null);
      setCreated(null);
    });
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created);
      setCopied(true);
    } catch {
      setError("Copying failed: select the token and copy it by hand.");
    }
  };

  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="token-title" data-testid="token-dialog">
        <h2 className="dialog-title" id="token-title">
          API token
        </h2>
        <p className="muted">
          Scripts send it as <code>Authorization: Token &lt;key&gt;</code>. Creating a new token replaces the old one;
          revoking it stops every script that uses it at once.
        </p>
        {error && (
          <div className="callout callout-error" role="alert" data-testid="token-error">
            {error}
          </div>
        )}
        {loading ? (
          <p className="muted">Loading…</p>
        ) : token ? (
          <p data-testid="token-current">
            Active token <code>{token.prefix}…</code> created {formatDate(token.created)}
          </p>
        ) : (
          <p className="muted" data-testid="token-none">
            You have no API token.
          </p>
        )}
        {created && (
          <div className="field">
            <span className="field-label">Copy it now: it is not shown again.</span>
            <input className="input" readOnly value={created} data-testid="token-value" onFocus={(e) => e.target.select()} />
            <button type="button" className="btn" onClick={() => void copy()} data-testid="token-copy">
              {copied ? "Copied" : "Copy"}
            </button>
          </div>
        )}
        <div className="dialog-actions">
          <div className="dialog-buttons">
            {token && (
              <button type="button" className="btn btn-danger-ghost" disabled={busy} onClick={() => void revoke()} data-testid="token-revoke">
                Revoke
              </button>
            )}
            <button type="button" className="btn btn-primary" disabled={busy || loading} onClick={() => void create()} data-testid="token-create">
              {token ? "Create a new token" : "Create token"}
            </button>
            <button type="button" className="btn" onClick={onClose} data-testid="token-close">
              Close
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
