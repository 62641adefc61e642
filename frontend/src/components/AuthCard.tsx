import type { ReactNode } from "react";
import { IconLogo } from "./icons";
import "../styles/people.css";

/** The centred card of the sign-in page, for every page a signed-out person sees. */
export function AuthCard({ title, sub, children, testId }: { title: string; sub?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <main className="login-page">
      <div className="login-card" data-testid={testId}>
        <div className="login-brand">
          <IconLogo width={32} height={32} />
          <span className="login-brand-name">steplab</span>
        </div>
        <h1 className="login-title">{title}</h1>
        {sub && <p className="muted login-sub">{sub}</p>}
        {children}
      </div>
    </main>
  );
}
