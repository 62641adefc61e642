/**
 * My work: what the annotator submitted or skipped in a project, newest first, with search
 * (the problem's text), a status filter and paging, all server-side; "Open" reopens one on the
 * labeling page (a submission to change and resubmit, a skip claimed again).
 * Filters live in the URL (?q=&status=&offset=), so Back from the labeling page keeps them.
 */
import { useEffect, useState, type FormEvent } from "react";
import { Link, useParams, useSearchParams } from "react-router-dom";
import type { ApiError, Page } from "../api/client";
import { listMyWork, type MyWorkRow } from "../api/myWork";
import { getProject, type Project } from "../api/projects";
import { AppHeader } from "../components/AppHeader";
import { Markdown } from "../components/Markdown";
import { EmptyState, ErrorBox, Spinner, formatDate, formatNumber } from "../components/ui";
import "../styles/mywork.css";

export const MY_WORK_PAGE_SIZE = 20;

const FINISH_TEXT: Record<string, string> = {
  found_error: "stopped at the first error",
  give_up: "gave up",
  bad_problem: "bad problem",
};

type StatusFilter = "" | "submitted" | "skipped";

export function MyWorkPage() {
  const projectId = Number(useParams().projectId);
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const status = (["submitted", "skipped"].includes(params.get("status") ?? "") ? params.get("status") : "") as StatusFilter;
  const offset = Math.max(0, Number(params.get("offset")) || 0);
  const [typed, setTyped] = useState(q);
  const [project, setProject] = useState<Project | null>(null);
  const [page, setPage] = useState<Page<MyWorkRow> | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    getProject(projectId)
      .then((p) => {
        setProject(p);
        document.title = `My work · ${p.name} · steplab`;
      })
      .catch(() => undefined);
  }, [projectId]);

  useEffect(() => {
    let alive = true;
    setError(null);
    listMyWork(projectId, { q, status, offset, limit: MY_WORK_PAGE_SIZE })
      .then((p) => alive && setPage(p))
      .catch((e: ApiError) => alive && setError(e.message));
    return () => {
      alive = false;
    };
  }, [projectId, q, status, offset]);

  const update = (next: { q?: string; status?: StatusFilter; offset?: number }) => {
    const merged = { q, status, offset: 0, ...next };
    const out = new URLSearchParams();
    if (merged.q.trim()) out.set("q", merged.q.trim());
    if (merged.status) out.set("status", merged.status);
    if (merged.offset > 0) out.set("offset", String(merged.offset));
    setParams(out, { replace: true });
  };
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    update({ q: typed });
  };

  const rows = page?.results ?? [];
  const total = page?.count ?? 0;
  const labelHref = `/projects/${projectId}/label`;
  return (
    <>
      <AppHeader crumbs={[{ label: project?.name ?? "…", to: labelHref }, { label: "My work" }]} />
      <main className="page my-work-page">
        <div className="page-head">
          <div>
            <h1 className="page-title">My work</h1>
            <p className="muted">
              What you submitted or skipped here, newest first. Open one to change it and resubmit, or to take up a
              skipped solution again. On the labeling page, <span className="kbd">o</span> reopens the last one.
            </p>
          </div>
          <Link className="btn btn-primary" to={labelHref} data-testid="continue-labeling">
            Continue labeling
          </Link>
        </div>

        <form className="card my-work-filters" onSubmit={onSearch} role="search">
          <input
            className="input"
            type="search"
            placeholder="Search the problem text…"
            value={typed}
            maxLength={200}
            onChange={(e) => setTyped(e.target.value)}
            aria-label="Search the problem text"
            data-testid="my-work-search"
          />
          <button type="submit" className="btn" data-testid="my-work-search-button">
            Search
          </button>
          <div className="segmented" role="group" aria-label="Status">
            {(["", "submitted", "skipped"] as StatusFilter[]).map((s) => (
              <button
                key={s || "all"}
                type="button"
                className={status === s ? "on" : undefined}
                aria-pressed={status === s}
                onClick={() => update({ status: s })}
                data-testid={`my-work-status-${s || "all"}`}
              >
                {s === "" ? "All" : s === "submitted" ? "Submitted" : "Skipped"}
              </button>
            ))}
          </div>
        </form>

        {error && <ErrorBox>{error}</ErrorBox>}
        {!page && !error && <Spinner />}
        {page && rows.length === 0 && (
          <EmptyState title={q || status ? "Nothing matches" : "Nothing yet"} testId="my-work-empty">
            {q || status
              ? "Try other words or another status."
              : "What you submit or skip on the labeling page is listed here."}
          </EmptyState>
        )}
        {rows.length > 0 && (
          <div className="card card-flush">
            <ul className="my-work-list" data-testid="my-work-list">
              {rows.map((row) => (
                <li key={row.annotation_id} className="my-work-row" data-testid="my-work-row" data-annotation={row.annotation_id}>
                  <div className="my-work-main">
                    <Markdown source={row.problem_text} className="clamp-2 my-work-problem" />
                    <div className="my-work-meta">
                      <span className={`badge ${row.status === "submitted" ? "badge-green" : "badge-amber"}`} data-testid="my-work-status">
                        {row.status === "submitted" ? "Submitted" : "Skipped"}
                      </span>
                      {row.finish_reason && FINISH_TEXT[row.finish_reason] && <span className="tag">{FINISH_TEXT[row.finish_reason]}</span>}
                      {row.reviewed && (
                        <span className="tag" title="A reviewer resolved it; a resubmit sends it back to review">
                          reviewed
                        </span>
                      )}
                      {row.problem_source && <span className="tag">{row.problem_source}</span>}
                      <span className="muted small">{formatDate(row.at)}</span>
                    </div>
                  </div>
                  <Link
                    className="btn btn-sm"
                    to={`${labelHref}?open=${row.annotation_id}`}
                    data-testid="my-work-open"
                    title={row.status === "submitted" ? "Change it and resubmit" : "Label it now (if nobody else took it)"}
                  >
                    Open
                  </Link>
                </li>
              ))}
            </ul>
            <div className="pager card-pad">
              <span className="muted small" data-testid="my-work-range">
                {formatNumber(offset + 1)}–{formatNumber(offset + rows.length)} of {formatNumber(total)}
              </span>
              <div className="pager-buttons">
                <button
                  type="button"
                  className="btn btn-sm"
                  disabled={offset === 0}
                  onClick={() => update({ offset: Math.max(0, offset - MY_WORK_PAGE_SIZE) })}
                  data-testid="my-work-previous"
                >
                  Previous
                </button>
                <button
                  type="button"
                  className="btn btn-sm"
                  disabled={offset + MY_WORK_PAGE_SIZE >= total}
                  onClick={() => update({ offset: offset + MY_WORK_PAGE_SIZE })}
                  data-testid="my-work-next"
                >
                  Next
                </button>
              </div>
            </div>
          </div>
        )}
      </main>
    </>
  );
}
