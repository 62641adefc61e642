/**
 * The review queue: solutions with submitted labels, most in need of review first, each with
 * its reasons; counts per reason (click one to filter), filters kept in the URL, paging.
 * Keys: j/k move, Enter opens the highlighted item.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router-dom";
import * as api from "../api";
import { AppHeader } from "../components/AppHeader";
import { Markdown } from "../components/Markdown";
import { EmptyState, ErrorBox, Spinner, formatCount, formatDate, formatNumber } from "../components/ui";
import { isTypingTarget } from "../label/keyboard";
import { DOMAINS, domainLabel } from "../lib/domains";
import "../styles/review.css";
import { FILTER_KEYS, PAGE_SIZE, REASONS, filterQuery, filtersFromParams } from "./queueFilters";
import { ReasonBadge, ReviewNav } from "./ReviewNav";
import { PROVENANCE_LABEL, REASON_HELP, REASON_LABEL } from "./reviewState";

const STATE_LABEL: Record<api.QueueState, string> = { unresolved: "To review", resolved: "Resolved", all: "All" };

export function ReviewQueuePage() {
  const projectId = Number(useParams().projectId);
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [project, setProject] = useState<api.Project | null>(null);
  const [page, setPage] = useState<api.ReviewQueuePage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [cursor, setCursor] = useState(0);
  const [sources, setSources] = useState<string[]>([]);
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const query = filterQuery(params);

  useEffect(() => {
    api
      .getProject(projectId)
      .then((p) => {
        setProject(p);
        document.title = `Review · ${p.name} · steplab`;
      })
      .catch((e: Error) => setError(e.message));
  }, [projectId]);

  useEffect(() => {
    let alive = true;
    setError(null);
    api
      .getReviewQueue(projectId, filters)
      .then((p) => {
        if (!alive) return;
        setPage(p);
        setCursor(0);
        setSources((prev) => [...new Set([...prev, ...p.results.map((r) => r.problem_source).filter(Boolean)])].sort());
      })
      .catch((e: api.ApiError) => alive && setError(e.message));
    return () => {
      alive = false;
    };
  }, [projectId, filters]);

  const setFilter = (key: (typeof FILTER_KEYS)[number], value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete("offset");
    setParams(next, { replace: true });
  };
  const setOffset = (offset: number) => {
    const next = new URLSearchParams(params);
    if (offset > 0) next.set("offset", String(offset));
    else next.delete("offset");
    setParams(next);
  };

  const open = (item: api.ReviewQueueItem) => navigate(`/projects/${projectId}/review/${item.id}${query}`);
  const items = page?.results ?? [];
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const cursorRef = useRef(cursor);
  cursorRef.current = cursor;
  const openRef = useRef(open);
  openRef.current = open;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      const n = itemsRef.current.length;
      if (!n) return;
      if (e.key === "j" || e.key === "ArrowDown") setCursor((c) => Math.min(n - 1, c + 1));
      else if (e.key === "k" || e.key === "ArrowUp") setCursor((c) => Math.max(0, c - 1));
      else if (e.key === "Enter" && !(e.target as HTMLElement)?.closest?.("a, button")) openRef.current(itemsRef.current[cursorRef.current]);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const counts = page?.counts;
  const annotators = page?.annotators ?? [];
  const offset = filters.offset ?? 0;
  const total = page?.count ?? 0;
  const capped = new Set(page?.counts_capped ?? []);

  return (
    <>
      <AppHeader
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: project?.name ?? "…", to: `/projects/${projectId}` },
          { label: "Review" },
        ]}
      />
      <main className="page review-queue-page">
        <div className="page-head">
          <div>
            <h1 className="page-title">Review queue</h1>
            <p className="muted">Solutions with submitted labels, the ones that most need a reviewer first.</p>
          </div>
          {items.length > 0 && (
            <button type="button" className="btn btn-primary" onClick={() => open(items[0])} data-testid="review-first">
              Review the first <span className="kbd">⏎</span>
            </button>
          )}
        </div>
        <ReviewNav projectId={projectId} />

        <div className="reason-cards" role="group" aria-label="Counts per reason">
          {REASONS.map((r) => {
            const active = filters.reason === r;
            return (
              <button
                key={r}
                type="button"
                className={`reason-card reason-card-${r}${active ? " is-active" : ""}`}
                onClick={() => setFilter("reason", active ? "" : r)}
                aria-pressed={active}
                title={REASON_HELP[r]}
                data-testid={`count-${r}`}
              >
                <span className="reason-card-label">{REASON_LABEL[r]}</span>
                <span className="reason-card-value">{counts ? formatCount(counts[r], capped.has(r)) : "–"}</span>
              </button>
            );
          })}
          <div className="reason-card reason-card-total" data-testid="count-total">
            <span className="reason-card-label">{filters.state === "resolved" ? "Resolved" : filters.state === "all" ? "All" : "To review"}</span>
            <span className="reason-card-value">{counts ? formatCount(counts.total, capped.has("total")) : "–"}</span>
          </div>
        </div>

        <div className="card queue-filters" data-testid="queue-filters">
          <div className="segmented" role="group" aria-label="State">
            {(Object.keys(STATE_LABEL) as api.QueueState[]).map((s) => (
              <button
                key={s}
                type="button"
                className={filters.state === s ? "on" : undefined}
                aria-pressed={filters.state === s}
                onClick={() => setFilter("state", s === "unresolved" ? "" : s)}
                data-testid={`state-${s}`}
              >
                {STATE_LABEL[s]}
              </button>
            ))}
          </div>
          <label className="filter">
            <span className="filter-label">Reason</span>
            <select
              className="input input-sm"
              value={filters.reason ?? ""}
              onChange={(e) => setFilter("reason", e.target.value)}
              data-testid="filter-reason"
            >
              <option value="">Any</option>
              {REASONS.map((r) => (
                <option key={r} value={r}>
                  {REASON_LABEL[r]}
                </option>
              ))}
            </select>
          </label>
          {annotators.length > 0 && (
            <label className="filter">
              <span className="filter-label">Annotator</span>
              <select
                className="input input-sm"
                value={filters.annotator ?? ""}
                onChange={(e) => setFilter("annotator", e.target.value)}
                data-testid="filter-annotator"
              >
                <option value="">Anyone</option>
                {annotators.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.username}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="filter">
            <span className="filter-label">Source</span>
            <input
              className="input input-sm"
              key={params.get("source") ?? ""}
              list="queue-sources"
              placeholder="any"
              defaultValue={params.get("source") ?? ""}
              onKeyDown={(e) => e.key === "Enter" && setFilter("source", (e.target as HTMLInputElement).value.trim())}
              onBlur={(e) => e.target.value.trim() !== (params.get("source") ?? "") && setFilter("source", e.target.value.trim())}
              data-testid="filter-source"
            />
            <datalist id="queue-sources">
              {sources.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          </label>
          {project?.domain === "mixed" && (
            <label className="filter">
              <span className="filter-label">Domain</span>
              <select
                className="input input-sm"
                value={filters.domain ?? ""}
                onChange={(e) => setFilter("domain", e.target.value)}
                data-testid="filter-domain"
              >
                <option value="">Any</option>
                {DOMAINS.filter((d) => d.value !== "mixed").map((d) => (
                  <option key={d.value} value={d.value}>
                    {d.label}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="filter">
            <span className="filter-label">Submitted from</span>
            <input
              type="date"
              className="input input-sm"
              value={params.get("from") ?? ""}
              onChange={(e) => setFilter("from", e.target.value)}
              data-testid="filter-from"
            />
          </label>
          <label className="filter">
            <span className="filter-label">to</span>
            <input
              type="date"
              className="input input-sm"
              value={params.get("to") ?? ""}
              onChange={(e) => setFilter("to", e.target.value)}
              data-testid="filter-to"
            />
          </label>
          {FILTER_KEYS.some((k) => k !== "state" && params.get(k)) && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => setParams(filters.state === "unresolved" ? {} : { state: filters.state ?? "" }, { replace: true })}
            >
              Clear filters
            </button>
          )}
        </div>

        {error && <ErrorBox>{error}</ErrorBox>}
        {!page && !error && <Spinner />}
        {page && items.length === 0 && (
          <EmptyState title={filters.state === "unresolved" ? "Nothing to review" : "No solutions match"} testId="queue-empty">
            {filters.state === "unresolved"
              ? "Every solution with submitted labels has a resolved label, or none matches the filters."
              : "Try other filters."}
          </EmptyState>
        )}
        {items.length > 0 && (
          <div className="card card-flush">
            <table className="table queue-table" data-testid="queue-table">
              <thead>
                <tr>
                  <th className="num">#</th>
                  <th>Problem</th>
                  <th>Why</th>
                  <th className="num">Labels</th>
                  <th>Last submitted</th>
                  <th>Resolved</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item, i) => (
                  <tr
                    key={item.id}
                    className={`queue-row${i === cursor ? " is-selected" : ""}`}
                    onClick={(e) => !(e.target as HTMLElement).closest("a") && open(item)}
                    onMouseEnter={() => setCursor(i)}
                    data-testid="queue-row"
                    data-solution={item.id}
                    aria-selected={i === cursor}
                  >
                    <td className="num mono subtle">{offset + i + 1}</td>
                    <td className="cell-problem">
                      <Link to={`/projects/${projectId}/review/${item.id}${query}`} className="queue-problem-link">
                        <Markdown source={item.problem_text} className="clamp-2" />
                      </Link>
                      <div className="queue-meta">
                        <span className="mono">#{item.id}</span>
                        {project?.domain === "mixed" && item.problem_domain && (
                          <span className="tag tag-domain" data-testid="queue-domain">
                            {domainLabel(item.problem_domain)}
                          </span>
                        )}
                        {item.problem_source && <span className="tag">{item.problem_source}</span>}
                        {item.generator && <span className="tag mono">{item.generator}</span>}
                        {item.is_gold && <span className="badge badge-amber">Gold</span>}
                      </div>
                    </td>
                    <td>
                      <div className="reason-list">
                        {(item.reasons.length ? item.reasons : ["rest"]).map((r) => (
                          <ReasonBadge key={r} reason={r} />
                        ))}
                      </div>
                    </td>
                    <td className="num">{item.annotations_submitted}</td>
                    <td className="nowrap muted">{formatDate(item.last_submitted_at)}</td>
                    <td className="nowrap">
                      {item.resolution_provenance ? (
                        <span className="badge badge-green">{PROVENANCE_LABEL[item.resolution_provenance] ?? item.resolution_provenance}</span>
                      ) : (
                        <span className="subtle">—</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="pager card-pad">
              <span className="muted small" data-testid="queue-range">
                {formatNumber(offset + 1)}–{formatNumber(offset + items.length)} of {formatCount(total, page?.count_capped)} ·{" "}
                <span className="kbd">j</span> <span className="kbd">k</span> move, <span className="kbd">⏎</span> open
              </span>
              <div className="pager-buttons">
                <button type="button" className="btn btn-sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
                  Previous
                </button>
                <button
                  type="button"
                  className="btn btn-sm"
                  disabled={offset + PAGE_SIZE >= total && !page?.count_capped}
                  onClick={() => setOffset(offset + PAGE_SIZE)}
                  data-testid="queue-next-page"
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
