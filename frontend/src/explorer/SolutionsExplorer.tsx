import { useCallback, useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router-dom";
import * as api from "../api";
import type { BulkAction, ExplorerFilters, ExplorerPage, ExplorerRow } from "../api/explorer";
import { Markdown } from "../components/Markdown";
import { ErrorBox, Spinner, formatNumber } from "../components/ui";
import { useMachineSources } from "../lib/useMachineSources";
import { bulkSummary, filtersFromParams, nextSort, pageFromParams, paramsWithFilters } from "./explorerFilters";
import { SolutionDrawer } from "./SolutionDrawer";
import "../styles/explorer.css";

const PAGE_SIZE = 50;
const STATE_TEXT: Record<string, [string, string]> = {
  unlabeled: ["Unlabeled", ""],
  in_progress: ["In progress", "badge-blue"],
  labeled: ["Labeled", "badge-green"],
  reviewed: ["Reviewed", "badge-green"],
};
const ACTIONS: Array<{ id: BulkAction; label: string; confirm: string }> = [
  { id: "mark_gold", label: "Mark gold", confirm: "mark as gold questions (reviewed ones, with their resolved labels)" },
  { id: "unmark_gold", label: "Unmark gold", confirm: "stop using as gold questions" },
  { id: "send_to_review", label: "Send to review", confirm: "send back to the review queue (current resolutions withdrawn)" },
  {
    id: "requeue",
    label: "Requeue",
    confirm:
      "release back into the open labeling pool (assignments removed); complete ones get one more label from an annotator who has not labeled them",
  },
];

type SelectProps = {
  id: keyof ExplorerFilters;
  label: string;
  options: Array<[string, string]>;
  filters: ExplorerFilters;
  set: (patch: Partial<ExplorerFilters>) => void;
};

function FilterSelect({ id, label, options, filters, set }: SelectProps) {
  return (
    <label className={`explorer-filter${filters[id] ? " explorer-filter-on" : ""}`}>
      <span className="explorer-filter-label">{label}</span>
      <select
        className="input input-sm input-auto"
        value={filters[id]}
        onChange={(e) => set({ [id]: e.target.value } as Partial<ExplorerFilters>)}
        data-testid={`filter-${id}`}
      >
        <option value="">Any</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The project's solutions: search, filters, sortable columns, rendered math, a read-only view of
 * one solution, and bulk actions on a selection or on everything the filters match. The filters
 * and page live in the URL. */
export function SolutionsExplorer({ project }: { project: api.Project }) {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const page = pageFromParams(params);
  const [data, setData] = useState<ExplorerPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState(filters.q);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [imports, setImports] = useState<api.ImportJob[]>([]);
  // The verdict filter's sources: the built-in ones and the server's engine plug-ins.
  const sources = useMachineSources();
  const key = JSON.stringify([filters, page]);

  useEffect(() => {
    // The import filter's choices: the project's uploaded files (newest first); none on failure.
    api
      .listImports(project.id)
      .then((p) => setImports(p.results.filter((j) => j.status === "done")))
      .catch(() => setImports([]));
  }, [project.id]);
  const importOptions: Array<[string, string]> = imports.map((j) => [String(j.id), `#${j.id} ${j.filename}`]);
  if (filters.import_job && !imports.some((j) => String(j.id) === filters.import_job))
    importOptions.push([filters.import_job, `#${filters.import_job}`]);

  const load = useCallback(() => {
    let live = true;
    setError(null);
    api
      .listExplorer(project.id, filters, PAGE_SIZE, page * PAGE_SIZE)
      .then((d) => live && setData(d))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [project.id, key]);
  useEffect(load, [load]);
  useEffect(() => setQuery(filters.q), [filters.q]);
  useEffect(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, [key]);

  const set = (patch: Partial<ExplorerFilters>, toPage = 0) =>
    setParams(paramsWithFilters(params, { ...filters, ...patch }, toPage), { replace: true });
  const rows = data?.results ?? [];
  const pageIds = rows.map((r) => r.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const chosen = allMatching ? (data?.count ?? 0) : selected.size;
  const activeFilters = Object.entries(filters).filter(([k, v]) => k !== "sort" && v !== "").length;

  function toggle(id: number) {
    setAllMatching(false);
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  async function run(action: (typeof ACTIONS)[number]) {
    const what = allMatching
      ? `all ${data?.count_capped ? "" : formatNumber(data?.count ?? 0) + " "}solutions matching the filters`
      : `${selected.size} selected solution${selected.size === 1 ? "" : "s"}`;
    if (!window.confirm(`${action.label}: ${action.confirm}: ${what}?`)) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api.explorerBulk(project.id, action.id, allMatching ? null : [...selected], filters);
      setResult(bulkSummary(r));
      setSelected(new Set());
      setAllMatching(false);
      load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const SortHeader = ({ id, children, className }: { id: string; children: string; className?: string }) => {
    const dir = filters.sort === id ? "▲" : filters.sort === `-${id}` ? "▼" : "";
    return (
      <th className={className} aria-sort={dir === "▲" ? "ascending" : dir === "▼" ? "descending" : "none"}>
        <button type="button" className="explorer-sort" onClick={() => set({ sort: nextSort(filters.sort, id) })} data-testid={`sort-${id}`}>
          {children} <span className="explorer-sort-dir">{dir}</span>
        </button>
      </th>
    );
  };

  return (
    <div className="stack" data-testid="solutions-explorer">
      <div className="card explorer-controls">
        <form
          className="explorer-search"
          onSubmit={(e) => {
            e.preventDefault();
            set({ q: query.trim() });
          }}
        >
          <input
            className="input"
            type="search"
            placeholder="Search problem text…"
            maxLength={200}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="explorer-search"
          />
          <button type="submit" className="btn">
            Search
          </button>
        </form>
        <div className="explorer-filters">
          <FilterSelect id="state" label="Labels" filters={filters} set={set} options={[["unlabeled", "Unlabeled"], ["in_progress", "In progress"], ["labeled", "Labeled"], ["reviewed", "Reviewed"]]} />
          <FilterSelect id="status" label="Queue" filters={filters} set={set} options={[["open", "Open"], ["closed", "Closed"]]} />
          <FilterSelect id="disagreement" label="Disagreement" filters={filters} set={set} options={[["true", "Yes"], ["false", "No"]]} />
          <FilterSelect id="verdict" label="Machine verdict" filters={filters} set={set} options={[["error", "Marks an error"], ["no_error", "No error found"], ["none", "Not checked"]]} />
          {filters.verdict && (
            <FilterSelect
              id="verdict_source"
              label="Source"
              filters={filters}
              set={set}
              options={(sources ?? []).map((s): [string, string] => [s.name, s.label])}
            />
          )}
          <FilterSelect id="answer" label="Answer" filters={filters} set={set} options={[["correct", "Correct"], ["wrong", "Wrong"], ["unknown", "Unchecked"]]} />
          <FilterSelect id="gold" label="Gold" filters={filters} set={set} options={[["true", "Gold"], ["false", "Not gold"]]} />
          <FilterSelect id="import_job" label="Import" filters={filters} set={set} options={importOptions} />
          {activeFilters > 0 && (
            <button type="button" className="btn btn-sm btn-ghost" onClick={() => setParams(paramsWithFilters(params, { ...filtersFromParams(new URLSearchParams()), sort: filters.sort }), { replace: true })} data-testid="filters-clear">
              Clear filters
            </button>
          )}
        </div>
      </div>

      {result && (
        <div className="callout callout-success explorer-result" data-testid="bulk-result">
          {result}
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setResult(null)} aria-label="Dismiss">
            ✕
          </button>
        </div>
      )}
      {error && <ErrorBox testId="explorer-error">{error}</ErrorBox>}

      <div className="card card-flush">
        <div className="card-row card-pad explorer-bar">
          {chosen > 0 ? (
            <div className="explorer-bulk" data-testid="bulk-bar">
              <strong data-testid="bulk-count">
                {allMatching && data?.count_capped ? `All ${formatNumber(data.count)}+` : formatNumber(chosen)} selected
              </strong>
              {!allMatching && allOnPage && data && data.count > rows.length && (
                <button type="button" className="btn btn-sm btn-ghost" onClick={() => setAllMatching(true)} data-testid="select-all-matching">
                  Select all {data.count_capped ? `${formatNumber(data.count)}+` : formatNumber(data.count)} matching
                </button>
              )}
              {ACTIONS.map((a) => (
                <button key={a.id} type="button" className="btn btn-sm" disabled={busy} onClick={() => run(a)} data-testid={`bulk-${a.id}`}>
                  {a.label}
                </button>
              ))}
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => (setSelected(new Set()), setAllMatching(false))}>
                Clear
              </button>
            </div>
          ) : (
            <span className="card-title">Solutions</span>
          )}
          {data && (
            <span className="muted" data-testid="explorer-count">
              {formatNumber(data.count)}
              {data.count_capped ? "+" : ""} {activeFilters || filters.q ? "matching" : "total"}
            </span>
          )}
        </div>
        {!data && !error && <Spinner />}
        {data && rows.length === 0 && (
          <div className="card-pad muted" data-testid="explorer-empty">
            {activeFilters ? "No solution matches these filters." : "No solutions yet. Import a data set in the Import tab."}
          </div>
        )}
        {rows.length > 0 && (
          <table className="table explorer-table" data-testid="explorer-table">
            <thead>
              <tr>
                <th className="explorer-check">
                  <input
                    type="checkbox"
                    aria-label="Select this page"
                    checked={allOnPage}
                    onChange={() => {
                      setAllMatching(false);
                      setSelected(allOnPage ? new Set() : new Set(pageIds));
                    }}
                    data-testid="select-page"
                  />
                </th>
                <SortHeader id="created" className="num">ID</SortHeader>
                <SortHeader id="problem">Problem</SortHeader>
                <th>Generator</th>
                <th className="num">Steps</th>
                <SortHeader id="annotations" className="num">Labels</SortHeader>
                <th>State</th>
                <SortHeader id="agreement">Flags</SortHeader>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <Row key={row.id} row={row} project={project} checked={allMatching || selected.has(row.id)} onToggle={toggle} onOpen={setOpen} />
              ))}
            </tbody>
          </table>
        )}
        {data && (page > 0 || data.count > (page + 1) * PAGE_SIZE) && (
          <div className="pager card-pad">
            <span className="muted">
              {formatNumber(page * PAGE_SIZE + 1)}–{formatNumber(page * PAGE_SIZE + rows.length)} of {formatNumber(data.count)}
              {data.count_capped ? "+" : ""}
            </span>
            <div className="pager-buttons">
              <button type="button" className="btn btn-sm" disabled={page === 0} onClick={() => set({}, page - 1)} data-testid="page-prev">
                Previous
              </button>
              <button type="button" className="btn btn-sm" disabled={rows.length < PAGE_SIZE} onClick={() => set({}, page + 1)} data-testid="page-next">
                Next
              </button>
            </div>
          </div>
        )}
      </div>
      {open !== null && <SolutionDrawer solutionId={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

function Row({
  row,
  project,
  checked,
  onToggle,
  onOpen,
}: {
  row: ExplorerRow;
  project: api.Project;
  checked: boolean;
  onToggle: (id: number) => void;
  onOpen: (id: number) => void;
}) {
  const [text, tone] = STATE_TEXT[row.label_state] ?? [row.label_state, ""];
  return (
    <tr className={`explorer-row${checked ? " explorer-row-selected" : ""}`} onClick={() => onOpen(row.id)} data-testid={`explorer-row-${row.id}`}>
      <td className="explorer-check" onClick={(e) => e.stopPropagation()}>
        <input type="checkbox" aria-label={`Select solution ${row.id}`} checked={checked} onChange={() => onToggle(row.id)} data-testid={`select-${row.id}`} />
      </td>
      <td className="num mono">{row.id}</td>
      <td className="cell-problem">
        <Markdown source={row.problem_text} className="clamp-2" math={project.domain !== "text"} />
        {row.problem_source && <span className="subtle small">{row.problem_source}</span>}
      </td>
      <td className="mono small">{row.generator || "—"}</td>
      <td className="num">{row.steps_count}</td>
      <td className="num">
        <span
          className={row.submitted_count >= project.overlap + row.extra_overlap ? "text-green" : ""}
          title={row.extra_overlap ? `${row.extra_overlap} more than the project's overlap (requeued)` : undefined}
        >
          {row.submitted_count}/{project.overlap + row.extra_overlap}
        </span>
      </td>
      <td>
        <span className={`badge ${tone}`}>{text}</span>
      </td>
      <td>
        <div className="explorer-flags">
        {row.is_gold && <span className="badge badge-amber">Gold</span>}
        {row.reasons.includes("disagreement") && <span className="badge badge-red">Disagreement</span>}
        {row.verdict === "error" && <span className="badge badge-red" title="A machine source marks a step wrong">Machine: error</span>}
        {row.answer_correct === false && <span className="badge">Wrong answer</span>}
        {row.queue_open && row.label_state !== "reviewed" && <span className="tag">open</span>}
        </div>
      </td>
    </tr>
  );
}
