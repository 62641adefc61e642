import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import * as api from "../api";
import { Markdown } from "../components/Markdown";
import { ErrorBox, ProgressBar, Spinner, formatDate, formatNumber } from "../components/ui";

const PAGE_SIZE = 25;


export function OverviewTab({ project }: { project: api.Project }) {
  const s = project.stats;
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<api.Page<api.SolutionRow> | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    setError(null);
    api
      .listSolutions(project.id, PAGE_SIZE, offset)
      .then((p) => alive && setPage(p))
      .catch((e: Error) => alive && setError(e.message));
    return () => {
      alive = false;
    };
  }, [project.id, offset]);

  const stats: Array<[string, number]> = [
    ["Problems", s.problems],
    ["Solutions", s.solutions],
    ["Steps", s.steps],
    ["Submitted annotations", s.submitted_annotations],
    ["Complete solutions", s.complete_solutions],
  ];

  return (
    <div className="stack">
      <div className="stat-cards">
        {stats.map(([label, value]) => (
          <div className="card stat-card" key={label}>
            <div className="stat-label">{label}</div>
            <div className="stat-value">{formatNumber(value)}</div>
          </div>
        ))}
      </div>
      {project.stats_computed_at && (
        <p className="muted small" data-testid="stats-computed">
          Counted {formatDate(project.stats_computed_at)} (refreshed in the background while people label).
        </p>
      )}
      <div className="card">
        <div className="card-row">
          <span className="card-title">Completion</span>
          <span className="muted">
            {formatNumber(s.complete_solutions)} of {formatNumber(s.solutions)} solutions have {project.overlap}{" "}
            submitted {project.overlap === 1 ? "annotation" : "annotations"}
          </span>
        </div>
        <ProgressBar value={s.complete_solutions} max={s.solutions} tone="green" label="Completion" />
      </div>
      <div className="card card-flush">
        <div className="card-row card-pad">
          <span className="card-title">Solutions</span>
          {page && (
            <span className="muted">
              {formatNumber(page.count)} total
              {project.role === "admin" && (
                <>
                  {" · "}
                  <Link to={`/projects/${project.id}?tab=solutions`} data-testid="open-explorer">
                    Search, filter and act in Solutions
                  </Link>
                </>
              )}
            </span>
          )}
        </div>
        {error && <ErrorBox>{error}</ErrorBox>}
        {!page && !error && <Spinner />}
        {page && page.results.length === 0 && (
          <div className="card-pad muted">No solutions yet. Import a data set in the Import tab.</div>
        )}
        {page && page.results.length > 0 && (
          <table className="table" data-testid="solutions-table">
            <thead>
              <tr>
                <th className="num">ID</th>
                <th>Problem</th>
                <th>Generator</th>
                <th className="num">Steps</th>
                <th className="num">Submitted</th>
                <th>Answer</th>
              </tr>
            </thead>
            <tbody>
              {page.results.map((row) => (
                <tr key={row.id}>
                  <td className="num mono">{row.id}</td>
                  <td className="cell-problem" title={row.problem_text}>
                    <Markdown source={row.problem_text.slice(0, 600)} className="clamp-2" prose />
                  </td>
                  <td className="mono small">{row.generator || "—"}</td>
                  <td className="num">{row.steps_count}</td>
                  <td className="num">
                    <span className={row.submitted_count >= project.overlap ? "text-green" : ""}>
                      {row.submitted_count}/{project.overlap}
                    </span>
                  </td>
                  <td>
                    {row.answer_correct === true && <span className="badge badge-green">Correct</span>}
                    {row.answer_correct === false && <span className="badge badge-red">Wrong</span>}
                    {row.answer_correct == null && (
                      <span className="subtle" title="Not checked against the reference answer">
                        —
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {page && page.count > PAGE_SIZE && (
          <div className="pager card-pad">
            <span className="muted">
              {offset + 1}–{Math.min(offset + PAGE_SIZE, page.count)} of {formatNumber(page.count)}
            </span>
            <div className="pager-buttons">
              <button type="button" className="btn btn-sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
                Previous
              </button>
              <button
                type="button"
                className="btn btn-sm"
                disabled={offset + PAGE_SIZE >= page.count}
                onClick={() => setOffset(offset + PAGE_SIZE)}
              >
                Next
              </button>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
