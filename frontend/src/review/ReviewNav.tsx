import { NavLink } from "react-router-dom";
import { REASON_HELP, REASON_LABEL } from "./reviewState";

/** Queue / Dashboard tabs shared by the review pages of a project. */
export function ReviewNav({ projectId }: { projectId: number }) {
  const cls = ({ isActive }: { isActive: boolean }) => `tab${isActive ? " tab-active" : ""}`;
  return (
    <nav className="tabs review-nav" aria-label="Review">
      <NavLink end to={`/projects/${projectId}/review`} className={cls} data-testid="nav-queue">
        Review queue
      </NavLink>
      <NavLink to={`/projects/${projectId}/dashboard`} className={cls} data-testid="nav-dashboard">
        Dashboard
      </NavLink>
      <NavLink end to={`/projects/${projectId}`} className={cls}>
        Project
      </NavLink>
    </nav>
  );
}

/** A reason as a coloured badge. */
export function ReasonBadge({ reason }: { reason: string }) {
  return (
    <span className={`badge reason reason-${reason}`} data-testid="reason-badge" data-reason={reason} title={REASON_HELP[reason]}>
      {REASON_LABEL[reason] ?? reason}
    </span>
  );
}
