/** A many-domains project's progress and agreement per problem domain (the metrics' `domains`). */
import type { DomainMetrics } from "../api";
import { formatNumber } from "../components/ui";
import { domainLabel } from "../lib/domains";
import { fmt, pct } from "./charts";

export function DomainTable({ rows }: { rows: DomainMetrics[] }) {
  return (
    <section className="card card-flush throughput-card domain-card" data-testid="domain-table">
      <div className="card-row card-pad">
        <h2 className="card-title">Per domain</h2>
        <span className="muted small">Each problem names its domain; agreement is over steps rated by 2+ annotators</span>
      </div>
      <table className="table">
        <thead>
          <tr>
            <th>Domain</th>
            <th className="num">Problems</th>
            <th className="num">Solutions</th>
            <th className="num">Done</th>
            <th className="num">Annotations</th>
            <th className="num">Steps rated by 2+</th>
            <th className="num">α (ordinal)</th>
            <th className="num">Step agreement</th>
            <th className="num">First-error α</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.domain} data-testid="domain-row" data-domain={r.domain}>
              <td>{r.domain ? domainLabel(r.domain) : "(none)"}</td>
              <td className="num">{formatNumber(r.problems)}</td>
              <td className="num">{formatNumber(r.solutions)}</td>
              <td className="num" title={`${r.done} of ${r.solutions} solutions have all their annotations`}>
                {formatNumber(r.done)} <span className="muted">({pct(r.progress)})</span>
              </td>
              <td className="num">{formatNumber(r.annotations)}</td>
              <td className="num">{formatNumber(r.rated_steps)}</td>
              <td className="num">{fmt(r.alpha_ordinal)}</td>
              <td className="num">{pct(r.pairwise_agreement)}</td>
              <td className="num">{fmt(r.first_error_alpha)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
