/**
 * A project's dashboard for reviewers and admins: agreement (Krippendorff's alpha, Fleiss' and
 * Cohen's kappa, first-error agreement), agreement per annotator pair, annotators against gold
 * and machine sources, label distribution, throughput over time and the review queue's progress.
 * The numbers are the metrics endpoint's; the charts are inline SVG (./Charts.tsx).
 */
import { useEffect, useRef, useState } from "react";
import { useParams } from "react-router-dom";
import * as api from "../api";
import { AppHeader } from "../components/AppHeader";
import { EmptyState, ErrorBox, Spinner, formatNumber } from "../components/ui";
import { ReviewNav } from "../review/ReviewNav";
import { REASON_LABEL } from "../review/reviewState";
import "../styles/review.css";
import { DomainTable } from "./DomainTable";
import { ChartCard, NoData, Stat } from "./Cards";
import { MetricsAge } from "./MetricsAge";
import { nextPollDelay } from "./pollDelay";
import { Heatmap, HeatLegend, Legend, LineChart, ShareBars, StackedBars } from "./Charts";
import { RATING_COLORS, SERIES_COLORS, dailySeries, fmt, pairMatrix, pct } from "./charts";

function isComputing(m: api.ProjectMetrics | api.MetricsComputing): m is api.MetricsComputing {
  return (m as api.MetricsComputing).status === "computing";
}

/** Solutions by how many annotators submitted them: agreement is only measured on 2+. */
function CoverageCard({ coverage }: { coverage: NonNullable<api.ProjectMetrics["coverage"]> }) {
  const parts = [
    { key: "two_plus", name: "2+ annotators", value: coverage.two_plus, color: "#4f46e5" },
    { key: "one", name: "1 annotator", value: coverage.one, color: "#67e8f9" },
    { key: "none", name: "Not labeled", value: coverage.none, color: "#e5e7eb" },
  ];
  return (
    <ChartCard title="Annotator coverage" sub="Agreement is measured only where 2+ annotators labeled a solution" testId="coverage">
      <StackedBars share unit="solutions" testId="coverage-bars" rows={[{ label: "Solutions", parts }]} />
      <Legend items={parts.map(({ name, color }) => ({ name, color }))} />
      <div className="coverage-counts" data-testid="coverage-counts">
        {parts.map((p) => (
          <span key={p.key} className="coverage-count" data-key={p.key}>
            {p.name} <strong>{formatNumber(p.value)}</strong>
          </span>
        ))}
      </div>
      {coverage.one > 0 && (
        <p className="muted small" data-testid="coverage-note">
          {formatNumber(coverage.one)} {coverage.one === 1 ? "solution has" : "solutions have"} one annotator: counted apart, never as agreement.
        </p>
      )}
    </ChartCard>
  );
}

/** One card per annotator with their own totals (not the project's). */
function AnnotatorCards({ rows }: { rows: api.AnnotatorTotals[] }) {
  return (
    <section className="annotator-cards-wrap" aria-label="Annotators" data-testid="annotator-cards">
      <h2 className="card-title annotator-cards-title">
        Annotators <span className="muted small">each one&rsquo;s own totals</span>
      </h2>
      <div className="annotator-cards">
        {rows.map((r) => (
          <div key={r.annotator} className="card annotator-card" data-testid="annotator-card" data-annotator={r.annotator}>
            <div className="annotator-card-name">{r.annotator}</div>
            <dl className="annotator-card-stats">
              <div title="Solutions this annotator submitted">
                <dt>Submitted</dt>
                <dd data-testid="annotator-submitted">{formatNumber(r.submitted)}</dd>
              </div>
              <div title="Solutions this annotator skipped">
                <dt>Skipped</dt>
                <dd data-testid="annotator-skipped">{formatNumber(r.skipped)}</dd>
              </div>
              <div title="This annotator's labeling time (the timer pauses while the tab is hidden)">
                <dt>Time</dt>
                <dd>{fmt(r.hours, 2)} h</dd>
              </div>
              <div title={r.shared_steps ? `Agreement with the others on ${formatNumber(r.shared_steps)} steps they also rated` : "Nobody else rated the same steps yet"}>
                <dt>Agreement</dt>
                <dd data-testid="annotator-agreement">{r.shared_steps ? pct(r.agreement) : "no overlap"}</dd>
              </div>
            </dl>
          </div>
        ))}
      </div>
    </section>
  );
}

interface QueueProgress {
  unresolved: api.ReviewQueueCounts;
  resolved: number;
}

export function DashboardPage() {
  const projectId = Number(useParams().projectId);
  const [project, setProject] = useState<api.Project | null>(null);
  const [metrics, setMetrics] = useState<api.ProjectMetrics | null>(null);
  const [computing, setComputing] = useState(false);
  const [queue, setQueue] = useState<QueueProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [measure, setMeasure] = useState<"kappa" | "agreement">("kappa");
  const [volume, setVolume] = useState<"steps" | "solutions">("steps");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    let alive = true;
    api
      .getProject(projectId)
      .then((p) => {
        if (!alive) return;
        setProject(p);
        document.title = `Dashboard · ${p.name} · steplab`;
      })
      .catch((e: Error) => alive && setError(e.message));
    // Asked again while a refresh is pending, backing off while the same snapshot comes back.
    let wait: number | null = null;
    let seen: string | null | undefined;
    const again = (snapshot: string | null) => {
      wait = nextPollDelay(wait, snapshot === seen);
      seen = snapshot;
      timer.current = setTimeout(() => poll(false), wait);
    };
    const poll = (refresh: boolean) => {
      api
        .getMetrics(projectId, refresh)
        .then((m) => {
          if (!alive) return;
          if (isComputing(m)) {
            setComputing(true);
            again(null);
          } else {
            setComputing(false);
            setMetrics(m);
            // A snapshot served while people label, its refresh queued: shown now, and again
            // once the worker has computed it (the server queues at most one at a time).
            if (m.refreshing) again(m.computed_at ?? null);
          }
        })
        .catch((e: Error) => alive && setError(e.message));
    };
    poll(false);
    return () => {
      alive = false;
      if (timer.current) clearTimeout(timer.current);
    };
  }, [projectId]);

  // Review progress comes with the metrics (exact, as of their computation); a snapshot made
  // before they carried it falls back to the queue's own counts, which stop at 1,000.
  const needQueue = metrics !== null && !metrics.review;
  useEffect(() => {
    if (!needQueue) return;
    let alive = true;
    Promise.all([api.getReviewQueue(projectId, { limit: 1 }), api.getReviewQueue(projectId, { state: "resolved", limit: 1 })])
      .then(([u, r]) => alive && setQueue({ unresolved: u.counts, resolved: r.count }))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [projectId, needQueue]);

  const m = metrics;
  const progress: QueueProgress | null = m?.review ?? queue;
  const pairs = m ? pairMatrix(m.pairs) : null;
  const autoNames = m ? [...new Set(m.auto_sources.map((r) => r.annotator))].sort() : [];
  const autoSources = m ? [...new Set(m.auto_sources.map((r) => r.source))].sort() : [];
  const daily = m ? dailySeries(m.throughput.by_annotator_day, volume) : null;
  const binary = project ? !project.rating_values.includes(0) : false;

  return (
    <>
      <AppHeader
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: project?.name ?? "…", to: `/projects/${projectId}` },
          { label: "Dashboard" },
        ]}
      />
      <main className="page dashboard-page">
        <div className="page-head">
          <div>
            <h1 className="page-title">Dashboard</h1>
            <p className="muted">
              Agreement, annotator quality, throughput and review progress.
              {m && <MetricsAge m={m} />}
            </p>
          </div>
        </div>
        <ReviewNav projectId={projectId} />
        {error && <ErrorBox>{error}</ErrorBox>}
        {!m && !error && <Spinner label={computing ? "Computing the metrics of a large project…" : "Loading metrics…"} />}
        {m && m.step_ratings.steps === 0 && m.label_distribution.length === 0 && (
          <EmptyState title="No submitted labels yet">Metrics appear once annotators submit solutions.</EmptyState>
        )}
        {m && (
          <>
            <div className="stat-cards dashboard-stats">
              <Stat
                label="Krippendorff's α (ordinal)"
                value={fmt(m.step_ratings.alpha_ordinal)}
                help={`Step ratings, ${formatNumber(m.step_ratings.steps)} steps rated by 2+`}
                testId="stat-alpha"
              />
              <Stat
                label="Fleiss' κ"
                value={fmt(m.step_ratings.fleiss_kappa)}
                help={m.step_ratings.fleiss_raters ? `${formatNumber(m.step_ratings.fleiss_steps)} steps with ${m.step_ratings.fleiss_raters} raters` : "Needs steps with 2+ raters"}
                testId="stat-fleiss"
              />
              <Stat
                label="Step agreement"
                value={pct(m.step_ratings.pairwise_agreement)}
                help="Share of rater pairs that agree on a step"
                testId="stat-pairwise"
              />
              <Stat
                label="First-error α (nominal)"
                value={fmt(m.first_error.alpha_nominal)}
                help={`${formatNumber(m.first_error.solutions)} solutions with 2+ annotations`}
                testId="stat-first-error"
              />
              <Stat
                label="First-error agreement"
                value={pct(m.first_error.pairwise_agreement)}
                help="Pairs that chose the same first wrong step"
              />
            </div>

            {m.annotators && m.annotators.length > 0 && <AnnotatorCards rows={m.annotators} />}

            {m.domains && m.domains.length > 0 && <DomainTable rows={m.domains} />}

            <div className="dashboard-charts">
              {m.coverage && <CoverageCard coverage={m.coverage} />}
              <ChartCard title="Review progress" sub="Solutions with submitted labels" testId="chart-queue">
                {progress ? (
                  <>
                    <StackedBars
                      share
                      unit="solutions"
                      testId="queue-progress"
                      rows={[
                        {
                          label: "Review",
                          parts: [
                            { key: "resolved", name: "Resolved", value: progress.resolved, color: "#16a34a" },
                            { key: "open", name: "To review", value: progress.unresolved.total, color: "#c7d2fe" },
                          ],
                        },
                        ...(project
                          ? [
                              {
                                label: "Labeling",
                                parts: [
                                  { key: "complete", name: "Complete (overlap reached)", value: project.stats.complete_solutions, color: "#4f46e5" },
                                  {
                                    key: "rest",
                                    name: "Not complete",
                                    value: Math.max(0, project.stats.solutions - project.stats.complete_solutions),
                                    color: "#e5e7eb",
                                  },
                                ],
                              },
                            ]
                          : []),
                      ]}
                    />
                    <Legend
                      items={[
                        { name: "Resolved", color: "#16a34a" },
                        { name: "To review", color: "#c7d2fe" },
                        { name: "Complete", color: "#4f46e5" },
                        { name: "Not complete", color: "#e5e7eb" },
                      ]}
                    />
                    <div className="reason-mini" data-testid="queue-reasons">
                      {(["disagreement", "unsure", "gold_failure", "auto_conflict", "single_annotator", "rest"] as const).map((r) => (
                        <span key={r} className={`reason-mini-item reason-${r}`}>
                          {REASON_LABEL[r]} <strong>{formatNumber(progress.unresolved[r])}</strong>
                        </span>
                      ))}
                    </div>
                  </>
                ) : (
                  <Spinner />
                )}
              </ChartCard>

              <ChartCard title="Label distribution" sub="Share of each annotator's submitted steps" testId="chart-distribution">
                {m.label_distribution.length ? (
                  <>
                    <StackedBars
                      share
                      testId="label-distribution"
                      rows={m.label_distribution.map((r) => ({
                        label: r.annotator,
                        parts: [
                          { key: "wrong", name: "Wrong (−1)", value: r.wrong, color: RATING_COLORS.wrong },
                          ...(binary ? [] : [{ key: "neutral", name: "Neutral (0)", value: r.neutral, color: RATING_COLORS.neutral }]),
                          { key: "correct", name: "Correct (+1)", value: r.correct, color: RATING_COLORS.correct },
                          { key: "unrated", name: "Unrated", value: r.unrated, color: RATING_COLORS.unrated },
                        ],
                      }))}
                    />
                    <Legend
                      items={[
                        { name: "Wrong (−1)", color: RATING_COLORS.wrong },
                        ...(binary ? [] : [{ name: "Neutral (0)", color: RATING_COLORS.neutral }]),
                        { name: "Correct (+1)", color: RATING_COLORS.correct },
                        { name: "Unrated", color: RATING_COLORS.unrated },
                      ]}
                    />
                  </>
                ) : (
                  <NoData>No submitted labels yet.</NoData>
                )}
              </ChartCard>

              <ChartCard
                title="Agreement per annotator pair"
                sub={
                  <div className="segmented" role="group" aria-label="Measure">
                    <button type="button" className={measure === "kappa" ? "on" : undefined} onClick={() => setMeasure("kappa")}>
                      Cohen&rsquo;s κ
                    </button>
                    <button type="button" className={measure === "agreement" ? "on" : undefined} onClick={() => setMeasure("agreement")}>
                      % agree
                    </button>
                  </div>
                }
                testId="chart-pairs"
              >
                {pairs && pairs.names.length ? (
                  <>
                    <Heatmap
                      testId="pair-heatmap"
                      caption="Agreement per annotator pair"
                      rows={pairs.names}
                      cols={pairs.names}
                      cell={(i, j) => {
                        const p = pairs.cell(i, j);
                        if (!p) return null;
                        const v = measure === "kappa" ? p.cohen_kappa : p.agreement;
                        return {
                          value: v,
                          text: measure === "kappa" ? fmt(v) : pct(v),
                          title: `${p.a} & ${p.b}: κ ${fmt(p.cohen_kappa)}, ${pct(p.agreement)} agree on ${formatNumber(p.steps)} shared steps`,
                        };
                      }}
                    />
                    <HeatLegend label={measure === "kappa" ? "κ" : "agreement"} />
                  </>
                ) : (
                  <NoData>No two annotators have rated the same step yet.</NoData>
                )}
              </ChartCard>

              <ChartCard title="Annotators vs gold" sub="On gold questions: rated steps and first errors that match" testId="chart-gold">
                {m.gold.length ? (
                  <>
                    <ShareBars
                      testId="gold-bars"
                      measures={[
                        { name: "Step accuracy", color: "#4f46e5" },
                        { name: "First-error accuracy", color: "#0891b2" },
                      ]}
                      rows={m.gold.map((g) => ({
                        label: g.annotator,
                        values: [g.step_accuracy, g.first_error_accuracy],
                        notes: [`${formatNumber(g.steps)} steps`, `${formatNumber(g.solutions)} solutions`],
                      }))}
                    />
                    <Legend
                      items={[
                        { name: "Step accuracy", color: "#4f46e5" },
                        { name: "First-error accuracy", color: "#0891b2" },
                      ]}
                    />
                  </>
                ) : (
                  <NoData>No gold questions answered yet. Admins mark gold solutions on the review page.</NoData>
                )}
              </ChartCard>

              <ChartCard title="Annotators vs machine sources" sub={measure === "kappa" ? "Cohen's κ with each source's suggestions" : "Share of steps where the annotator and the source agree"} testId="chart-auto">
                {autoNames.length ? (
                  <>
                    <Heatmap
                      testId="auto-heatmap"
                      caption="Annotators against machine sources"
                      rows={autoNames}
                      cols={autoSources}
                      cell={(i, j) => {
                        const r = m.auto_sources.find((a) => a.annotator === autoNames[i] && a.source === autoSources[j]);
                        if (!r) return null;
                        const v = measure === "kappa" ? r.cohen_kappa : r.agreement;
                        return {
                          value: v,
                          text: measure === "kappa" ? fmt(v) : pct(v),
                          title: `${r.annotator} vs ${r.source}: ${pct(r.agreement)} agree, κ ${fmt(r.cohen_kappa)}, ${formatNumber(r.steps)} steps`,
                        };
                      }}
                    />
                    <HeatLegend label={measure === "kappa" ? "κ" : "agreement"} />
                  </>
                ) : (
                  <NoData>No step is both labeled and auto-labeled yet.</NoData>
                )}
              </ChartCard>

              <ChartCard
                title="Throughput over time"
                sub={
                  <div className="segmented" role="group" aria-label="Volume">
                    <button type="button" className={volume === "steps" ? "on" : undefined} onClick={() => setVolume("steps")}>
                      Steps
                    </button>
                    <button type="button" className={volume === "solutions" ? "on" : undefined} onClick={() => setVolume("solutions")}>
                      Solutions
                    </button>
                  </div>
                }
                testId="chart-throughput"
              >
                {daily && daily.days.length ? (
                  <>
                    <LineChart testId="throughput-chart" days={daily.days} series={daily.series} unit={volume} />
                    <Legend items={daily.series.map((s, k) => ({ name: s.name, color: SERIES_COLORS[k % SERIES_COLORS.length] }))} />
                  </>
                ) : (
                  <NoData>No submissions yet.</NoData>
                )}
              </ChartCard>
            </div>

            <section className="card card-flush throughput-card" data-testid="throughput-table">
              <div className="card-row card-pad">
                <h2 className="card-title">Throughput per annotator</h2>
                <span className="muted small">Per hour of labeling time (the timer pauses while the tab is hidden)</span>
              </div>
              {m.throughput.by_annotator.length ? (
                <table className="table">
                  <thead>
                    <tr>
                      <th>Annotator</th>
                      <th className="num">Solutions</th>
                      <th className="num">Steps</th>
                      <th className="num">Hours</th>
                      <th className="num">Solutions / h</th>
                      <th className="num">Steps / h</th>
                      <th className="num">Median per solution</th>
                    </tr>
                  </thead>
                  <tbody>
                    {m.throughput.by_annotator.map((r) => (
                      <tr key={r.annotator}>
                        <td>{r.annotator}</td>
                        <td className="num">{formatNumber(r.solutions)}</td>
                        <td className="num">{formatNumber(r.steps)}</td>
                        <td className="num">{fmt(r.hours, 2)}</td>
                        <td className="num">{fmt(r.solutions_per_hour, 1)}</td>
                        <td className="num">{fmt(r.steps_per_hour, 0)}</td>
                        <td className="num">{r.median_seconds_per_solution == null ? "–" : `${Math.round(r.median_seconds_per_solution)} s`}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <NoData>No submissions yet.</NoData>
              )}
            </section>
          </>
        )}
      </main>
    </>
  );
}
