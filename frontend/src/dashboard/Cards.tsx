/** The dashboard's building blocks: a headline number, a chart's card, a chart with no data. */
import type { ReactNode } from "react";

export function Stat({ label, value, help, testId }: { label: string; value: string; help: string; testId?: string }) {
  return (
    <div className="card stat-card" title={help} data-testid={testId}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      <div className="stat-help">{help}</div>
    </div>
  );
}

export function ChartCard({ title, sub, children, testId, wide }: { title: string; sub?: ReactNode; children: ReactNode; testId?: string; wide?: boolean }) {
  return (
    <section className={`card chart-card${wide ? " chart-card-wide" : ""}`} data-testid={testId}>
      <div className="chart-card-head">
        <h2 className="card-title">{title}</h2>
        {sub && <div className="muted small">{sub}</div>}
      </div>
      {children}
    </section>
  );
}

export function NoData({ children }: { children: ReactNode }) {
  return <p className="chart-empty muted small">{children}</p>;
}
