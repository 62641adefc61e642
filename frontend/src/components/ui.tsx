/** Small shared building blocks: progress bar, spinner, empty and error states, keycaps. */
import { Children, type ReactNode } from "react";

export function ProgressBar({
  value,
  max,
  label,
  testId,
  tone = "accent",
}: {
  value: number;
  max: number;
  label?: string;
  testId?: string;
  tone?: "accent" | "green" | "red" | "amber";
}) {
  const pct = max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0;
  return (
    <div
      className={`progress progress-${tone}`}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(pct)}
      aria-label={label}
      data-testid={testId}
    >
      <div className="progress-fill" style={{ width: `${pct}%` }} />
    </div>
  );
}

export function Spinner({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="spinner-wrap" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="muted">{label}</span>
    </div>
  );
}

export function ErrorBox({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="callout callout-error" role="alert" data-testid={testId}>
      {children}
    </div>
  );
}

/** True when the children hold bare text: a sentence (maybe with a link or a key in it), which
 * `.empty-body`'s column would cut into one line per piece; it goes in one paragraph. */
function textRun(children: ReactNode): boolean {
  return Children.toArray(children).some((c) => typeof c === "string" || typeof c === "number");
}

export function EmptyState({
  title,
  children,
  icon,
  testId,
}: {
  title: string;
  children?: ReactNode;
  icon?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="empty" data-testid={testId}>
      {icon && <div className="empty-icon">{icon}</div>}
      <h2 className="empty-title">{title}</h2>
      {children && <div className="empty-body">{textRun(children) ? <p>{children}</p> : children}</div>}
    </div>
  );
}

export function Kbd({ children }: { children: ReactNode }) {
  return <kbd className="kbd">{children}</kbd>;
}

export function formatNumber(n: number | null | undefined): string {
  return (n ?? 0).toLocaleString("en-US");
}

/** A count that the server stopped counting at `n` when `capped` ("1,000+"). */
export function formatCount(n: number | null | undefined, capped = false): string {
  return `${formatNumber(n)}${capped ? "+" : ""}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return d.toLocaleString("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}
