import { Link } from "react-router-dom";
import type { Progress } from "../api";
import { IconClock, IconLogo } from "../components/icons";
import { UserMenu } from "../components/UserMenu";
import { formatNumber } from "../components/ui";
import { formatDuration } from "./useWorkTimer";

export function LabelTopBar({
  projectId,
  projectName,
  progress,
  timeMs,
  onHelp,
  onBack,
  backBusy = false,
}: {
  projectId: number;
  projectName?: string;
  progress: Progress | null;
  timeMs: number | null;
  onHelp: () => void;
  /** Back (`o`): reopen what the annotator submitted or skipped last. */
  onBack?: () => void;
  backBusy?: boolean;
}) {
  return (
    <header className="app-header label-topbar">
      <div className="app-header-inner label-inner">
        <Link to="/projects" className="brand" aria-label="steplab: all projects">
          <IconLogo />
          <span className="brand-name">steplab</span>
        </Link>
        <nav className="crumbs" aria-label="Breadcrumb">
          <span className="crumb">
            <span className="crumb-sep" aria-hidden="true">/</span>
            <Link to={`/projects/${projectId}`} className="crumb-project">
              {projectName ?? "…"}
            </Link>
          </span>
        </nav>
        <div className="app-header-spacer" />
        <div className="topbar-progress" data-testid="progress" title={progress ? `${formatNumber(progress.submitted_total)} submitted in total` : undefined}>
          {progress ? (
            <>
              <span>
                <strong>{formatNumber(progress.done_today)}</strong> done today
              </span>
              <span className="dot-sep">·</span>
              <span>
                <strong>
                  {formatNumber(progress.remaining)}
                  {progress.remaining_capped ? "+" : ""}
                </strong>{" "}
                left
              </span>
            </>
          ) : (
            <span className="subtle">—</span>
          )}
        </div>
        {timeMs !== null && (
          <div className="topbar-timer" title="Time on this solution (paused while the tab is hidden)" data-testid="timer">
            <IconClock width={14} height={14} />
            <span className="mono">{formatDuration(timeMs)}</span>
          </div>
        )}
        {onBack && (
          <button
            type="button"
            className="btn btn-sm btn-ghost back-button"
            onClick={onBack}
            disabled={backBusy}
            title="Reopen what you submitted or skipped last (o)"
            data-testid="back-button"
          >
            ← Back <span className="kbd">o</span>
          </button>
        )}
        <Link to={`/projects/${projectId}/my-work`} className="btn btn-sm btn-ghost" data-testid="my-work-link">
          My work
        </Link>
        <button type="button" className="btn btn-sm btn-ghost help-button" onClick={onHelp} title="Keyboard shortcuts (?)" data-testid="help-button">
          <span className="kbd">?</span> Shortcuts
        </button>
        <UserMenu />
      </div>
    </header>
  );
}
