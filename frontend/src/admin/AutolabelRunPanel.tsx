/** An auto-label run as the Auto-label tab shows it: status, progress, counts and its errors. */
import type { AutolabelRun, AutolabelStatus } from "../api/autolabel";
import { ProgressBar, formatNumber } from "../components/ui";
import { STATUS_TEXT, duration, groupErrors, isActive, percent, processed, runFraction, solutionsText, sourcesText } from "./autolabel";

const ERRORS_SHOWN = 20;

export function RunStatusBadge({ status }: { status: AutolabelStatus }) {
  const cls = { pending: "", running: "badge-blue", done: "badge-green", failed: "badge-red", cancelled: "badge-amber" }[status];
  return <span className={`badge ${cls}`}>{STATUS_TEXT[status] ?? status}</span>;
}

export function RunPanel({
  run,
  onCancel,
  cancelling,
  labels = {},
}: {
  run: AutolabelRun;
  onCancel: () => void;
  cancelling: boolean;
  /** Installed plug-ins' labels by source name. */
  labels?: Record<string, string>;
}) {
  const fraction = runFraction(run);
  const active = isActive(run);
  const tone = run.status === "failed" ? "red" : run.status === "done" ? "green" : "accent";
  const count = run.status === "done" && run.total > 0 ? run.total : processed(run);
  const groups = groupErrors(run.errors);
  const failedCount = Math.max(run.failed, run.errors?.length ?? 0);
  return (
    <div className="autolabel-run" data-testid="autolabel-progress" data-status={run.status} data-run-id={run.id}>
      <div className="card-row">
        <div className="autolabel-run-title">
          <RunStatusBadge status={run.status} />
          <span className="small">
            Run {run.id} · {sourcesText(run.sources, labels)}
            {run.filter?.only_unlabeled ? " · unlabeled solutions only" : ""}
          </span>
        </div>
        {active && (
          <button type="button" className="btn btn-sm" onClick={onCancel} disabled={cancelling} data-testid="autolabel-cancel">
            {cancelling ? "Cancelling…" : "Cancel"}
          </button>
        )}
      </div>
      <ProgressBar value={fraction} max={1} tone={tone} label="Auto-label progress" />
      <div className="autolabel-run-meta small">
        <span data-testid="autolabel-count">
          {formatNumber(count)} / {formatNumber(run.total)} solutions
        </span>
        <span className="autolabel-pct" data-testid="autolabel-percent">
          {percent(fraction)}
        </span>
        <span className="grow" />
        {run.status === "pending" && <span className="muted">Waiting for a worker…</span>}
        {run.status === "running" && <span className="muted">{formatNumber(run.suggestions_written)} suggestions so far</span>}
        {run.status === "done" && (
          <span className="text-green" data-testid="autolabel-done">
            <strong>Done</strong> · {formatNumber(run.suggestions_written)} {run.suggestions_written === 1 ? "suggestion" : "suggestions"} written
            {run.sources.includes("answer") ? ` · final answers checked` : ""}
            {run.failed > 0 ? ` · ${formatNumber(run.failed)} failed` : ""}
          </span>
        )}
        {run.status === "cancelled" && (
          <span className="muted">
            Cancelled · {formatNumber(run.suggestions_written)} suggestions written before it stopped
          </span>
        )}
        {run.status === "failed" && <span className="text-red">Failed · {formatNumber(run.suggestions_written)} suggestions written</span>}
        {!active && <span className="muted">· took {duration(run.started_at, run.finished_at)}</span>}
      </div>
      {groups.length > 0 && (
        <div className="autolabel-errors" data-testid="autolabel-errors">
          <div className="autolabel-errors-title small">
            {formatNumber(failedCount)} {failedCount === 1 ? "solution" : "solutions"} could not be labeled
            {run.errors.length < run.failed && <span className="muted"> · the first {formatNumber(run.errors.length)} errors are kept</span>}
          </div>
          <ul>
            {groups.slice(0, ERRORS_SHOWN).map((g) => (
              <li key={g.error} className="small">
                <span className="autolabel-error-text">{g.error}</span>
                <span className="autolabel-error-where muted">
                  {solutionsText(g.solutionIds)}
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
