/** An auto-label run as the Auto-label tab shows it: status, progress, rate and time left, what it wrote, its errors. */
import type { AutolabelRun, AutolabelStatus } from "../api/autolabel";
import { ProgressBar, formatNumber } from "../components/ui";
import {
  STATUS_TEXT,
  countText,
  duration,
  etaText,
  groupErrors,
  isActive,
  percent,
  processed,
  rateText,
  runFraction,
  shownStatus,
  solutionsText,
  sourcesText,
  verdictCounts,
} from "./autolabel";

const ERRORS_SHOWN = 20;

export type RunAction = "pause" | "resume" | "cancel";

export function RunStatusBadge({ status }: { status: AutolabelStatus }) {
  const cls = { pending: "", running: "badge-blue", paused: "badge-amber", done: "badge-green", failed: "badge-red", cancelled: "badge-amber" }[
    status
  ];
  return <span className={`badge ${cls}`}>{STATUS_TEXT[status] ?? status}</span>;
}

/** Pause or Resume, and Cancel, for a run that has not finished; the one being sent reads "…ing". */
export function RunControls({
  run,
  busy,
  onAction,
  testIdPrefix = "autolabel",
}: {
  run: AutolabelRun;
  busy: RunAction | null;
  onAction: (a: RunAction) => void;
  testIdPrefix?: string;
}) {
  if (!isActive(run)) return null;
  const paused = run.status === "paused";
  const toggle: RunAction = paused ? "resume" : "pause";
  const busyText = { pause: "Pausing…", resume: "Resuming…", cancel: "Cancelling…" };
  return (
    <span className="autolabel-controls">
      <button type="button" className="btn btn-sm" onClick={() => onAction(toggle)} disabled={busy !== null} data-testid={`${testIdPrefix}-${toggle}`}>
        {busy === toggle ? busyText[toggle] : paused ? "Resume" : "Pause"}
      </button>
      <button type="button" className="btn btn-sm" onClick={() => onAction("cancel")} disabled={busy !== null} data-testid={`${testIdPrefix}-cancel`}>
        {busy === "cancel" ? busyText.cancel : "Cancel"}
      </button>
    </span>
  );
}

function Verdicts({ run }: { run: AutolabelRun }) {
  const counts = verdictCounts(run.verdicts);
  if (counts.length === 0) return null;
  return (
    <div className="autolabel-verdicts small" data-testid="autolabel-verdicts">
      <span className="muted">Wrote</span>
      {counts.map((v) => (
        <span key={v.key} className={`verdict-count verdict-${v.key}`} data-verdict={v.key}>
          <strong>{formatNumber(v.count)}</strong> {v.label}
        </span>
      ))}
    </div>
  );
}

export function RunPanel({
  run,
  busy,
  onAction,
  labels = {},
}: {
  run: AutolabelRun;
  busy: RunAction | null;
  onAction: (a: RunAction) => void;
  /** Installed plug-ins' labels by source name. */
  labels?: Record<string, string>;
}) {
  const status = shownStatus(run);
  const fraction = runFraction(run);
  const active = isActive(run);
  const tone = status === "failed" ? "red" : status === "done" ? "green" : status === "paused" ? "amber" : "accent";
  const count = status === "done" && run.total > 0 ? run.total : processed(run);
  const groups = groupErrors(run.errors, run.error_groups);
  const failedCount = Math.max(run.failed, run.errors?.length ?? 0);
  const rate = rateText(run.rate);
  const eta = etaText(run.eta_seconds);
  return (
    <div className="autolabel-run" data-testid="autolabel-progress" data-status={status} data-run-id={run.id}>
      <div className="card-row">
        <div className="autolabel-run-title">
          <RunStatusBadge status={status} />
          <span className="small">
            Run {run.id} · {sourcesText(run.sources, labels)}
            {run.filter?.only_unlabeled ? " · unlabeled solutions only" : ""}
          </span>
        </div>
        <RunControls run={run} busy={busy} onAction={onAction} />
      </div>
      <ProgressBar value={fraction} max={1} tone={tone} label="Auto-label progress" />
      <div className="autolabel-run-meta small">
        <span data-testid="autolabel-count">
          {countText(run, formatNumber(count), formatNumber(run.total))}
        </span>
        <span className="autolabel-pct" data-testid="autolabel-percent">
          {percent(fraction)}
        </span>
        {status === "running" && (
          <span className="autolabel-rate" data-testid="autolabel-rate">
            {rate ?? "measuring the rate…"}
            {rate && eta ? ` · ${eta}` : ""}
          </span>
        )}
        <span className="grow" />
        {status === "pending" && <span className="muted">Waiting for a worker…</span>}
        {status === "running" && <span className="muted">{formatNumber(run.suggestions_written)} suggestions so far</span>}
        {status === "paused" && (
          <span className="muted" data-testid="autolabel-paused">
            Paused · {run.prepared === false ? "its" : formatNumber(run.total - processed(run))} solutions wait for
            Resume
          </span>
        )}
        {status === "done" && (
          <span className="text-green" data-testid="autolabel-done">
            <strong>Done</strong> · {formatNumber(run.suggestions_written)} {run.suggestions_written === 1 ? "suggestion" : "suggestions"} written
            {run.sources.includes("answer") ? ` · final answers checked` : ""}
            {run.failed > 0 ? ` · ${formatNumber(run.failed)} failed` : ""}
            {rate ? ` · ${rate}` : ""}
          </span>
        )}
        {status === "cancelled" && (
          <span className="muted">
            Cancelled · {formatNumber(run.suggestions_written)} suggestions written before it stopped
          </span>
        )}
        {status === "failed" && <span className="text-red">Failed · {formatNumber(run.suggestions_written)} suggestions written</span>}
        {!active && <span className="muted">· took {duration(run.started_at, run.finished_at)}</span>}
      </div>
      <Verdicts run={run} />
      {groups.length > 0 && (
        <div className="autolabel-errors" data-testid="autolabel-errors">
          <div className="autolabel-errors-title small">
            {formatNumber(failedCount)} {failedCount === 1 ? "solution" : "solutions"} could not be labeled
            {!run.error_groups?.length && run.errors.length < run.failed && (
              <span className="muted"> · the first {formatNumber(run.errors.length)} errors are kept</span>
            )}
          </div>
          <ul>
            {groups.slice(0, ERRORS_SHOWN).map((g) => (
              <li key={g.error} className="small" data-testid="autolabel-error-group">
                <span className="autolabel-error-head">
                  <span className="autolabel-error-count">{formatNumber(g.count)}×</span>
                  <span className="autolabel-error-text">{g.error}</span>
                </span>
                <span className="autolabel-error-where muted">
                  {solutionsText(g.solutionIds)}
                  {g.solutionIds.length > 0 && g.count > g.solutionIds.length ? " …" : ""}
                  {g.solutionIds.length === 0 && g.unattributed > 0 ? "Run" : ""}
                </span>
              </li>
            ))}
          </ul>
          {groups.length > ERRORS_SHOWN && (
            <div className="muted small">and {formatNumber(groups.length - ERRORS_SHOWN)} other errors</div>
          )}
        </div>
      )}
    </div>
  );
}
