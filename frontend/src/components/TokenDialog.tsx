import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import * as api from "../api";
import { useEscape } from "../lib/useEscape";
import "../styles/tokens.css";
import { LoadMore } from "./LoadMore";
import { formatDate } from "./ui";
import { usePagedList } from "./usePagedList";

/** Expiry choices offered; the API takes any 1–3650 days or null (never). */
export const EXPIRY_CHOICES: { label: string; days: number | null }[] = [
  { label: "7 days", days: 7 },
  { label: "30 days", days: 30 },
  { label: "90 days", days: 90 },
  { label: "Never", days: null },
];
const DEFAULT_EXPIRY = "30";
const NAME_MAX = 100;

function formatDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return d.toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" });
}

function Expiry({ token }: { token: api.ApiToken }) {
  if (token.expired) {
    return (
      <span className="badge badge-red" title={token.expires_at ? formatDate(token.expires_at) : undefined}>
        Expired {token.expires_at ? formatDay(token.expires_at) : ""}
      </span>
    );
  }
  if (!token.expires_at) return <span className="muted">Never</span>;
  return <span title={formatDate(token.expires_at)}>{formatDay(token.expires_at)}</span>;
}

/** The user's API tokens: list (name, prefix, dates), create one (the secret is shown once, with
 * Copy), revoke one (after a confirmation in its row). */
export function TokenDialog({ onClose }: { onClose: () => void }) {
  const list = usePagedList<api.ApiToken>(api.TOKENS_PATH);
  const tokens = list.items ?? [];
  const loading = list.items === null && !list.error;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [expiry, setExpiry] = useState(DEFAULT_EXPIRY);
  const [created, setCreated] = useState<api.ApiTokenCreated | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState<number | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    nameRef.current?.focus();
  }, []);

  useEscape(onClose);

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
      const days = expiry === "never" ? null : Number(expiry);
      const t = await api.createToken(name.trim(), days);
      const { token: _secret, ...listed } = t;
      list.setItems((rows) => [listed, ...rows]);
      list.setCount((n) => n + 1);
      setCreated(t);
      setCopied(false);
      setName("");
    });

  const confirmingToken = tokens.find((t) => t.id === confirming) ?? null;

  const revoke = (token: api.ApiToken) =>
    act(async () => {
      await api.revokeToken(token.id);
      list.setItems((rows) => rows.filter((t) => t.id !== token.id));
      list.setCount((n) => n - 1);
      setConfirming(null);
      if (created?.id === token.id) setCreated(null);
    });

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.token);
      setCopied(true);
    } catch {
      setError("Copying failed: select the token and copy it by hand.");
    }
  };

  // In a portal: the header's backdrop-filter would otherwise be the containing block of the
  // fixed overlay, and the dialog would be centred on the header instead of the window.
  return createPortal(
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="dialog token-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="token-title"
        data-testid="token-dialog"
      >
        <div className="dialog-head">
          <h2 className="dialog-title" id="token-title">
            API tokens
          </h2>
        </div>
        <p className="muted token-intro">
          Scripts send a token as <code>Authorization: Token &lt;token&gt;</code> (or <code>Bearer</code>). Each works until
          it expires or you revoke it; revoking one leaves the others working.
        </p>

        {(error ?? list.error) && (
          <div className="callout callout-error" role="alert" data-testid="token-error">
            {error ?? list.error}
          </div>
        )}

        {created && (
          <div className="callout callout-success token-created" data-testid="token-created">
            <div className="callout-title">
              Token “{created.name}” created. Copy it now: it will not be shown again.
            </div>
            <div className="token-secret">
              <input
                className="input mono"
                readOnly
                value={created.token}
                aria-label="New token"
                data-testid="token-value"
                onFocus={(e) => e.target.select()}
              />
              <button type="button" className="btn" onClick={() => void copy()} data-testid="token-copy">
                {copied ? "Copied" : "Copy"}
              </button>
            </div>
          </div>
        )}

        <form
          className="token-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) void create();
          }}
        >
          <label className="field token-name">
            <span className="field-label">Name</span>
            <input
              ref={nameRef}
              className="input"
              value={name}
              maxLength={NAME_MAX}
              placeholder="e.g. training box, CI export"
              onChange={(e) => setName(e.target.value)}
              data-testid="token-name"
            />
          </label>
          <label className="field token-expiry">
            <span className="field-label">Expires in</span>
            <select
              className="input"
              value={expiry}
              onChange={(e) => setExpiry(e.target.value)}
              data-testid="token-expiry"
            >
              {EXPIRY_CHOICES.map((c) => (
                <option key={c.label} value={c.days === null ? "never" : String(c.days)}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || loading || !name.trim()}
            data-testid="token-create"
          >
            Create token
          </button>
        </form>

        {confirmingToken && (
          <div className="callout callout-warn token-confirm" role="alertdialog" aria-label="Revoke token" data-testid="token-confirm">
            <span className="grow">
              Revoke “{confirmingToken.name}” (<code>{confirmingToken.prefix}…</code>)? Scripts that use it get 401 at once.
              This cannot be undone.
            </span>
            <button
              type="button"
              className="btn btn-sm btn-danger-ghost"
              disabled={busy}
              onClick={() => void revoke(confirmingToken)}
              data-testid="token-revoke-confirm"
            >
              Revoke
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setConfirming(null)} data-testid="token-revoke-cancel">
              Cancel
            </button>
          </div>
        )}

        {loading ? (
          <p className="muted">Loading…</p>
        ) : tokens.length === 0 ? (
          <p className="muted token-none" data-testid="token-none">
            You have no API tokens.
          </p>
        ) : (
          <div className="token-table-wrap">
            <table className="table token-table" data-testid="token-list">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Token</th>
                  <th>Created</th>
                  <th>Expires</th>
                  <th>Last used</th>
                  <th aria-label="Actions" />
                </tr>
              </thead>
              <tbody>
                {tokens.map((t) => (
                  <tr
                    key={t.id}
                    data-testid="token-row"
                    className={[t.expired && "token-row-expired", confirming === t.id && "token-row-confirming"]
                      .filter(Boolean)
                      .join(" ")}
                  >
                    <td className="token-cell-name" title={t.name}>
                      {t.name}
                    </td>
                    <td>
                      <code className="mono">{t.prefix}…</code>
                    </td>
                    <td title={formatDate(t.created_at)}>{formatDay(t.created_at)}</td>
                    <td>
                      <Expiry token={t} />
                    </td>
                    <td>{t.last_used_at ? formatDate(t.last_used_at) : <span className="muted">Never</span>}</td>
                    <td className="token-actions">
                      <button
                        type="button"
                        className="btn btn-sm btn-danger-ghost"
                        disabled={busy || confirming === t.id}
                        onClick={() => setConfirming(t.id)}
                        aria-label={`Revoke ${t.name}`}
                        data-testid="token-revoke"
                      >
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <LoadMore list={list} noun="tokens" />
          </div>
        )}

        <div className="dialog-actions">
          <span className="muted small">Last used is updated at most once a minute.</span>
          <div className="dialog-buttons">
            <button type="button" className="btn" onClick={onClose} data-testid="token-close">
              Close
            </button>
          </div>
        </div>
      </div>
    </div>,
    document.body,
  );
}
