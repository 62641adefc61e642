import { type FormEvent, useEffect, useRef, useState } from "react";
import * as api from "../api";
import { HubTokenNote } from "../components/HubTokenNote";
import { ErrorBox, formatDate, formatNumber } from "../components/ui";
import { useEscape } from "../lib/useEscape";

const POLL_MS = 1000;
const TOKEN_KIND: Record<api.HubTokenKind, string> = {
  user: "with the pusher's own token",
  server: "with the server's token",
  given: "with a token given on the command line",
  none: "with no token",
};

function PushLine({ push }: { push: api.HubPush }) {
  const splits = Object.entries(push.splits)
    .map(([name, rows]) => `${name} ${formatNumber(rows)}`)
    .join(" · ");
  return (
    <li className="hub-push" data-testid="hub-push" data-status={push.status}>
      <div>
        <span className="mono">{push.repo_id}</span>
        {push.status === "done" && (
          <>
            {" "}
            at{" "}
            <a href={`${push.url}/tree/${push.tag}`} target="_blank" rel="noreferrer" className="mono" data-testid="hub-push-link">
              {push.tag}
            </a>
            <span className="muted"> · {push.private ? "private" : "public"}</span>
            {push.token_kind && <span className="muted"> · {TOKEN_KIND[push.token_kind]}</span>}
          </>
        )}
        {(push.status === "pending" || push.status === "running") && <span className="muted"> · pushing…</span>}
      </div>
      {push.status === "done" && splits && <div className="small muted">rows: {splits}</div>}
      {push.status === "failed" && (
        <div className="small text-red" data-testid="hub-push-error">
          {push.error || "Failed"}
        </div>
      )}
      <div className="small subtle">{formatDate(push.created_at)}</div>
    </li>
  );
}

/** Push a done export to a Hugging Face Hub dataset repo, and the export's earlier pushes. */
export function HubPushDialog({ exp, onClose }: { exp: api.Export; onClose: () => void }) {
  const [repoId, setRepoId] = useState("");
  const [isPrivate, setPrivate] = useState(true);
  const [pushes, setPushes] = useState<api.HubPush[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const valid = api.HUB_REPO_ID.test(repoId) && !repoId.includes("..");
  const active = pushes?.some((p) => p.status === "pending" || p.status === "running") ?? false;

  useEffect(() => {
    let alive = true;
    api
      .listHubPushes(exp.id)
      .then((list) => {
        if (!alive) return;
        setPushes(list);
        if (list[0]) setRepoId((current) => current || list[0].repo_id);
      })
      .catch((e: api.ApiError) => alive && setError(e.message));
    return () => {
      alive = false;
    };
  }, [exp.id]);

  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      void api
        .listHubPushes(exp.id)
        .then(setPushes)
        .catch(() => undefined);
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [active, exp.id]);

  useEscape(onClose);
  useEffect(() => ref.current?.focus(), []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!valid || sending) return;
    setSending(true);
    setError(null);
    try {
      const push = await api.createHubPush(exp.id, { repo_id: repoId, private: isPrivate });
      setPushes((list) => [push, ...(list ?? [])]);
    } catch (err) {
      setError((err as api.ApiError).message);
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        className="dialog hub-push-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={`Push export ${exp.id} to the Hub`}
        tabIndex={-1}
        data-testid="hub-push-dialog"
      >
        <div className="dialog-head">
          <h2 className="dialog-title">
            Push to the Hugging Face Hub <span className="muted">· export {exp.id}</span>
          </h2>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onClose} aria-label="Close">
            Esc
          </button>
        </div>
        <form onSubmit={submit} className="hub-push-form">
          <p className="muted small">
            One Parquet file per split, the dataset card as README.md, and a tag <span className="mono">export-{exp.id}</span> on the
            commit.
          </p>
          <HubTokenNote action="The push runs" />
          <label className="field">
            <span className="field-label">Dataset repo</span>
            <input
              className="input mono"
              value={repoId}
              onChange={(e) => setRepoId(e.target.value.trim())}
              placeholder="your-org/prm-labels"
              maxLength={193}
              autoFocus
              data-testid="hub-repo-id"
            />
            {repoId && !valid && <span className="small text-red">owner/name: letters, digits, “-”, “_”, “.”</span>}
          </label>
          <label className="check">
            <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} data-testid="hub-private" />
            Private (a new repo; an existing one keeps its visibility)
          </label>
          {error && <ErrorBox testId="hub-push-request-error">{error}</ErrorBox>}
          <div className="dialog-actions">
            <span />
            <div className="dialog-buttons">
              <button type="button" className="btn btn-sm" onClick={onClose}>
                Close
              </button>
              <button type="submit" className="btn btn-sm btn-primary" disabled={!valid || sending || active} data-testid="hub-push-submit">
                {sending ? "Sending…" : active ? "Pushing…" : "Push"}
              </button>
            </div>
          </div>
        </form>
        {pushes && pushes.length > 0 && (
          <div className="hub-push-history">
            <div className="field-label">Pushes of this export</div>
            <ul className="hub-push-list" data-testid="hub-push-list">
              {pushes.map((p) => (
                <PushLine key={p.id} push={p} />
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  );
}
