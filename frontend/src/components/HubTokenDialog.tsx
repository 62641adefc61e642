import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import * as api from "../api";
import { useEscape } from "../lib/useEscape";
import "../styles/tokens.css";
import { formatDate } from "./ui";

const TOKEN_MIN = 8;
const TOKEN_MAX = 400;

/** What a token status means for the pushes and Hub imports the user starts. */
export function hubTokenUse(status: api.HubTokenStatus): string {
  if (status.uses === "user") return `your Hugging Face token (…${status.last4})`;
  if (status.uses === "server") return "the server's token (HF_TOKEN), for any repo (you are staff)";
  if (status.uses === "server_listed")
    return `the server's token (HF_TOKEN) for repos under ${status.server_repos.join(", ")}; elsewhere no token (public datasets only, pushes refused)`;
  return "no token: public datasets only, and pushes are refused";
}

/** The user menu's "Hugging Face token": whether one is saved (never the token: its last four
 * characters), save or replace one (checked with the Hub's whoami unless unticked), remove it. */
export function HubTokenDialog({ onClose, onChange }: { onClose: () => void; onChange?: (s: api.HubTokenStatus) => void }) {
  const [status, setStatus] = useState<api.HubTokenStatus | null>(null);
  const [token, setToken] = useState("");
  const [check, setCheck] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEscape(onClose);

  useEffect(() => {
    api
      .getHubToken()
      .then(setStatus)
      .catch((e: api.ApiError) => setError(e.message));
    input.current?.focus();
  }, []);

  const trimmed = token.trim();
  const valid = trimmed.length >= TOKEN_MIN && trimmed.length <= TOKEN_MAX && !/\s/.test(trimmed);

  async function act(action: () => Promise<api.HubTokenStatus>, done: string) {
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      const next = await action();
      setStatus(next);
      setSaved(done);
      setToken("");
      onChange?.(next);
    } catch (e) {
      setError((e as api.ApiError).message);
    } finally {
      setBusy(false);
    }
  }

  const save = () => act(() => api.saveHubToken(trimmed, check), "Saved.");
  const remove = () =>
    act(async () => {
      await api.removeHubToken();
      return api.getHubToken();
    }, "Removed.");

  return createPortal(
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog token-dialog hub-token-dialog" role="dialog" aria-modal="true" aria-labelledby="hub-token-title" data-testid="hub-token-dialog">
        <div className="dialog-head">
          <h2 className="dialog-title" id="hub-token-title">
            Hugging Face token
          </h2>
        </div>
        <p className="muted token-intro">
          Pushes to the Hub and Hub imports you start use your own token. Without one they use the server's (HF_TOKEN) only
          for the repos a server admin listed (HUB_SERVER_TOKEN_REPOS), or any repo for staff; else none. It is stored
          encrypted and never shown again: only its last four characters.
        </p>

        {status && (
          <div className={`callout ${status.set ? "callout-success" : ""}`} data-testid="hub-token-status">
            {status.set ? (
              <>
                <div className="callout-title">
                  Set, ends in <code className="mono">…{status.last4}</code>
                  {status.hub_user && (
                    <>
                      {" "}
                      · Hub account <span className="mono">{status.hub_user}</span>
                    </>
                  )}
                </div>
                <div className="small muted">
                  {status.checked_at ? `Checked with the Hub ${formatDate(status.checked_at)}` : "Not checked with the Hub"}
                  {status.updated_at && ` · saved ${formatDate(status.updated_at)}`}
                </div>
              </>
            ) : (
              <div>
                None set: your pushes and Hub imports use {hubTokenUse(status)}.
              </div>
            )}
          </div>
        )}

        {error && (
          <div className="callout callout-error" role="alert" data-testid="hub-token-error">
            {error}
          </div>
        )}
        {saved && !error && (
          <div className="small text-green" role="status" data-testid="hub-token-saved">
            {saved}
          </div>
        )}

        <form
          className="token-form"
          onSubmit={(e) => {
            e.preventDefault();
            // Rendered from inside other forms (the Hub push, the import): React bubbles a submit
            // through the component tree, portal or not, and would start their action too.
            e.stopPropagation();
            if (valid && !busy) void save();
          }}
        >
          <label className="field token-name">
            <span className="field-label">{status?.set ? "Replace with" : "Token"}</span>
            <input
              ref={input}
              className="input mono"
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={token}
              maxLength={TOKEN_MAX}
              placeholder="hf_…"
              onChange={(e) => setToken(e.target.value)}
              data-testid="hub-token-input"
            />
          </label>
          <label className="check hub-token-check">
            <input type="checkbox" checked={check} onChange={(e) => setCheck(e.target.checked)} data-testid="hub-token-check" />
            Check it with the Hub
          </label>
          <button type="submit" className="btn btn-primary" disabled={busy || !valid} data-testid="hub-token-save">
            {busy ? "Saving…" : "Save"}
          </button>
        </form>
        {token && !valid && (
          <span className="small text-red">
            {TOKEN_MIN} to {TOKEN_MAX} characters, no spaces.
          </span>
        )}

        <div className="dialog-actions">
          <span>
            {status?.set && (
              <button type="button" className="btn btn-sm btn-danger-ghost" disabled={busy} onClick={() => void remove()} data-testid="hub-token-remove">
                Remove my token
              </button>
            )}
          </span>
          <div className="dialog-buttons">
            <button type="button" className="btn" onClick={onClose} data-testid="hub-token-close">
              Close
            </button>
          </div>
        </div>
      </div>
    </div>,
    document.body,
  );
}
