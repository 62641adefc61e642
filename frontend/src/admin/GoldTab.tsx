import { Fragment, useState } from "react";
import { Link } from "react-router-dom";
import * as api from "../api";
import { Markdown } from "../components/Markdown";
import { LoadMore } from "../components/LoadMore";
import { EmptyState, ErrorBox, Spinner } from "../components/ui";
import { usePagedList } from "../components/usePagedList";
import { RatingMark } from "../review/ReviewStepRow";
import "../styles/review.css";
import "../styles/assign.css";

export const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)}%`);
const tone = (x: number | null, pass: number) => (x === null ? "" : x >= pass ? "pct-good" : "pct-bad");

/** Gold questions (marked from the review page with G): their known labels, how annotators do on
 * each, and the project's gold settings at a glance. */
export function GoldTab({ project }: { project: api.Project }) {
  // A page of gold questions at a time, oldest first; "Load more" reads the next.
  const list = usePagedList<api.GoldRow>(api.goldPath(project.id));
  const rows = list.items;
  const [open, setOpen] = useState<Set<number>>(new Set());
  const [actionError, setError] = useState<string | null>(null);
  const error = actionError ?? list.error;

  async function unmark(row: api.GoldRow) {
    if (!window.confirm(`Stop using solution #${row.solution_id} as a gold question? Its gold labels are kept.`)) return;
    setError(null);
    try {
      await api.unsetGold(row.solution_id);
      list.setItems((all) => all.filter((r) => r.solution_id !== row.solution_id));
      list.setCount((n) => n - 1);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const toggle = (id: number) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const pass = project.screening_pass_rate;
  return (
    <div className="stack">
      <div className="card gold-summary" data-testid="gold-summary">
        <span>
          <strong>{rows ? list.count : "…"}</strong> gold question{rows && list.count === 1 ? "" : "s"}
        </span>
        <span>
          Served at <strong>{pct(project.gold_rate)}</strong> of claims
        </span>
        <span>
          {project.screening_size > 0 ? (
            <>
              Screening: first <strong>{project.screening_size}</strong>, pass at <strong>{pct(pass)}</strong>
            </>
          ) : (
            <span className="muted">No screening</span>
          )}
        </span>
        <Link className="btn btn-sm" to={`/projects/${project.id}?tab=settings`} data-testid="gold-settings-link">
          Change in Settings
        </Link>
      </div>
      {error && <ErrorBox>{error}</ErrorBox>}
      <div className="card card-flush">
        {!rows && !error && <Spinner />}
        {rows && rows.length === 0 && (
          <EmptyState title="No gold questions yet" testId="gold-empty">
            Open a solution in the <Link to={`/projects/${project.id}/review?state=all`}>review queue</Link>, decide every step,
            and press <span className="kbd">G</span>: your labels become its gold labels. Annotators are served gold at the
            rate above without being told.
          </EmptyState>
        )}
        {rows && rows.length > 0 && (
          <table className="table gold-table" data-testid="gold-table">
            <thead>
              <tr>
                <th className="num">#</th>
                <th>Problem</th>
                <th>Gold labels</th>
                <th className="num">Answers</th>
                <th className="num" title="Rated steps that match gold, over every answer">
                  Steps right
                </th>
                <th className="num" title="Answers whose first wrong step is gold's">
                  First error right
                </th>
                <th className="num" aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <Fragment key={r.solution_id}>
                  <tr data-testid={`gold-row-${r.solution_id}`}>
                    <td className="num mono">{r.solution_id}</td>
                    <td className="cell-problem" title={r.problem_text}>
                      <Markdown source={r.problem_text} className="clamp-2" prose />
                      {r.problem_source && <span className="muted small">{r.problem_source}</span>}
                    </td>
                    <td>
                      <span className="gold-ratings" aria-label={`Gold labels of solution ${r.solution_id}`}>
                        {r.ratings.map((rating, i) => (
                          <span key={i} className={i === r.first_error ? "is-first-error" : ""}>
                            <RatingMark rating={rating} title={`Step ${i + 1}${i === r.first_error ? ": first error" : ""}`} />
                          </span>
                        ))}
                      </span>
                    </td>
                    <td className="num">
                      {r.answers > 0 ? (
                        <button
                          type="button"
                          className="btn btn-sm btn-ghost"
                          aria-expanded={open.has(r.solution_id)}
                          onClick={() => toggle(r.solution_id)}
                          data-testid={`gold-answers-${r.solution_id}`}
                        >
                          {r.answers} {open.has(r.solution_id) ? "▴" : "▾"}
                        </button>
                      ) : (
                        <span className="muted">0</span>
                      )}
                    </td>
                    <td className={`num ${tone(r.step_accuracy, pass)}`}>{pct(r.step_accuracy)}</td>
                    <td className={`num ${tone(r.first_error_accuracy, pass)}`}>{pct(r.first_error_accuracy)}</td>
                    <td className="num nowrap">
                      <Link className="btn btn-sm btn-ghost" to={`/projects/${project.id}/review/${r.solution_id}`}>
                        Open
                      </Link>
                      <button type="button" className="btn btn-sm btn-danger-ghost" onClick={() => void unmark(r)} data-testid={`gold-unmark-${r.solution_id}`}>
                        Unmark
                      </button>
                    </td>
                  </tr>
                  {open.has(r.solution_id) && (
                    <tr className="gold-annotators" data-testid={`gold-annotators-${r.solution_id}`}>
                      <td />
                      <td colSpan={6}>
                        <div className="gold-annotators-list">
                          {r.annotators.map((a) => (
                            <span key={a.annotator} className="gold-annotator">
                              <strong>{a.annotator}</strong>
                              <span className={tone(a.step_accuracy, pass)}>{pct(a.step_accuracy)} of steps</span>
                              <span className={a.first_error_correct ? "pct-good" : "pct-bad"}>
                                first error {a.first_error === null ? "none" : `step ${a.first_error + 1}`}
                                {a.first_error_correct ? " ✓" : " ✗"}
                              </span>
                            </span>
                          ))}
                        </div>
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        )}
        <LoadMore list={list} noun="gold questions" testId="gold-more" />
      </div>
    </div>
  );
}
