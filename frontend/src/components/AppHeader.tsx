import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { IconLogo } from "./icons";
import { UserMenu } from "./UserMenu";

export interface Crumb {
  label: string;
  to?: string;
}

/** The top bar of the non-labeling pages: logo, breadcrumbs, actions, user menu. */
export function AppHeader({ crumbs = [], actions }: { crumbs?: Crumb[]; actions?: ReactNode }) {
  return (
    <header className="app-header">
      <div className="app-header-inner">
        <Link to="/projects" className="brand" aria-label="steplab home">
          <IconLogo />
          <span className="brand-name">steplab</span>
        </Link>
        {crumbs.length > 0 && (
          <nav className="crumbs" aria-label="Breadcrumb">
            {crumbs.map((c, i) => (
              <span key={i} className="crumb">
                <span className="crumb-sep" aria-hidden="true">/</span>
                {c.to ? <Link to={c.to}>{c.label}</Link> : <span aria-current="page">{c.label}</span>}
              </span>
            ))}
          </nav>
        )}
        <div className="app-header-spacer" />
        {actions}
        <UserMenu />
      </div>
    </header>
  );
}
