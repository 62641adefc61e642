import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode, type Ref } from "react";
import * as api from "../api";
import { ErrorBox, ProgressBar, formatBytes, formatDate, formatNumber } from "../components/ui";
import { ExportCardDialog } from "./ExportCardDialog";
import { HubPushDialog } from "./HubPushDialog";
import { ExportOptionsForm } from "./ExportOptionsForm";
import { FinalLabelCounts } from "./FinalLabelCounts";
import {
  DEFAULT_FORM,
  FILE_TYPE_LABEL,
  FORMAT_LABEL,
  STATUS_TEXT,
  buildExportRequest,
  errorField,
  errorLines,
  exportFraction,
  finalLabelsOf,
  formProblems,
  skippedLines,
  isActive,
  optionsSummary,
  percent,
  shortSha,
  type ExportForm,
} from "./exportOptions";
import "../styles/export.css";

export const POLL_MS = 1000;

function StatusBadge({ status }: { status: api.ExportStatus }) {
  const cls = { pending: "", running: "badge-blue", done: "badge-green", failed: "badge-red" }[status];
  return <span className={`badge ${cls}`}>{STATUS_TEXT[status] ?? status}</span>;
}

/** The sha256, short, with a button that copies all of it. */
function Sha({ sha }: { sha: string }) {
  const [copied, setCopied] = useState(false);
  if (!sha) return <span className="subtle">—</span>;
  async function copy() {
    try {
      await navigator.clipboard.writeText(sha);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      window.prompt("sha256", sha);
    }
  }
  return (
    <span className="export-sha">
      <code className="mono small" title={sha} data-testid="export-sha" data-sha={sha}>
        {shortSha(sha)}…
      </code>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => void copy()} title="Copy the full sha256" data-testid="export-sha-copy">
        {copied ? "Copied" : "Copy"}
      </button>
    </span>
  );
}

function Actions({
  e,
  canDelete,
  onCard,
  onHub,
  onDelete,
  deleting,
}: {
  e: api.Export;
  canDelete: boolean;
  onCard: () => void;
  /** Admins: push the export to a Hub dataset repo. */
  onHub?: () => void;
  onDelete: () => void;
  deleting: boolean;
}) {
  return (
    <span className="export-actions">
      {e.status === "done" && (
        <>
          <a className="btn btn-sm btn-primary" href={e.download_url ?? api.exportDownloadUrl(e.id)} download={e.file_name ?? true} data-testid="export-download">
            Download
          </a>
          <button type="button" className="btn btn-sm" onClick={onCard} data-testid="export-card">
            Card
          </button>
          {onHub && (
            <button type="button" className="btn btn-sm" onClick={onHub} data-testid="export-hub" title="Push to the Hugging Face Hub">
              Hub
            </button>
          )}
        </>
      )}
      {canDelete && !isActive(e) && (
        <button type="button" className="btn btn-sm btn-danger-ghost" onClick={onDelete} disabled={deleting} data-testid="export-delete">
          {deleting ? "Deleting…" : "Delete"}
        </button>
      )}
    </span>
  );
}

function CurrentExport({ e, innerRef, children }: { e: api.Export; innerRef?: Ref<HTMLDivElement>; children: ReactNode }) {
  const fraction = exportFraction(e);
  const tone = e.status === "failed" ? "red" : e.status === "done" ? "green" : "accent";
  const { solutions_done: done, solutions_total: total } = e.progress ?? { solutions_done: 0, solutions_total: 0 };
  return (
    <div ref={innerRef} className="autolabel-run export-current" data-testid="export-progress" data-status={e.status} data-export-id={e.id}>
      <div className="card-row">
        <div className="autolabel-run-title">
          <StatusBadge status={e.status} />
          <span className="small">
            Export {e.id} · {FORMAT_LABEL[e.format] ?? e.format} · {FILE_TYPE_LABEL[e.file_type] ?? e.file_type}
          </span>
        </div>
        {children}
      </div>
      <ProgressBar value={fraction} max={1} tone={tone} label="Export progress" />
      <div className="autolabel-run-meta small">
        <span data-testid="export-count">
          {formatNumber(e.status === "done" && total ? total : done)} / {formatNumber(total)} solutions read
        </span>
        <span className="autolabel-pct" data-testid="export-percent">
          {percent(fraction)}
        </span>
        <span className="grow" />
        {e.status === "pending" && <span className="muted">Waiting for a worker on the exports queue…</span>}
        {e.status === "running" && <span className="muted">Writing rows…</span>}
        {e.status === "done" && (
          <span className="text-green" data-testid="export-done">
            <strong>Done</strong> · {formatNumber(e.row_count)} {e.row_count === 1 ? "row" : "rows"} · {formatNumber(e.step_count)} steps ·{" "}
            {formatBytes(e.size_bytes)}
          </span>
        )}
        {e.status === "failed" && (
          <span className="text-red" data-testid="export-failed">
            Failed: {e.error?.message || "unknown error"}
          </span>
        )}
      </div>
      {e.status === "done" && finalLabelsOf(e.stats) && (
        <FinalLabelCounts counts={finalLabelsOf(e.stats)!} caption="Where this export's labels came from" testId="export-final-counts" />
      )}
      {e.status === "done" && skippedLines(e.stats).length > 0 && (
        <div className="small muted" data-testid="export-skipped">
          Solutions left out whole by the options: {skippedLines(e.stats).join(" · ")}
        </div>
      )}
      {e.status === "done" && e.row_count === 0 && (
        <div className="callout callout-warn small">
          No rows matched these options. The dataset card says how many solutions were read and why they were skipped.
        </div>
      )}
    </div>
  );
}

/** Before the export: what the final label source would take (the preview endpoint), fetched
 * a moment after the filters change. */
function FinalPreview({ projectId, filtersKey }: { projectId: number; filtersKey: string }) {
  const [preview, setPreview] = useState<api.ExportPreview | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    const timer = setTimeout(() => {
      api
        .previewExport(projectId, { filters: JSON.parse(filtersKey) as api.ExportFilters })
        .then((p) => {
          if (cancelled) return;
          setPreview(p);
          setFailed(false);
        })
        .catch(() => {
          if (!cancelled) setFailed(true);
        });
    }, 300);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [projectId, filtersKey]);
  if (failed && !preview) return null;
  if (!preview?.final_labels) return <div className="small muted" data-testid="export-preview-loading">Counting final labels…</div>;
  const caption = preview.partial
    ? `Before you export: from the first ${formatNumber(preview.solutions_read)} of ${formatNumber(preview.solutions_labeled)} labeled solutions`
    : `Before you export: ${formatNumber(preview.solutions_labeled)} labeled solutions, ${formatNumber(preview.solutions_unlabeled)} without a label`;
  return <FinalLabelCounts counts={preview.final_labels} caption={caption} testId="export-preview-counts" />;
}

export function ExportTab({ project }: { project: api.Project }) {
  const canDelete = project.role === "admin";
  const [form, setForm] = useState<ExportForm>(DEFAULT_FORM);
  const [creating, setCreating] = useState(false);
  const [requestError, setRequestError] = useState<{ lines: string[]; field: string | null } | null>(null);
  const [exports, setExports] = useState<api.Export[] | null>(null);
  const [count, setCount] = useState(0);
  const [listError, setListError] = useState<string | null>(null);
  const [currentId, setCurrentId] = useState<number | null>(null);
  const [cardFor, setCardFor] = useState<api.Export | null>(null);
  const [hubFor, setHubFor] = useState<api.Export | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [pollRound, setPollRound] = useState(0);
  const alive = useRef(true);
  const currentRef = useRef<HTMLDivElement>(null);
  const [scrollToCurrent, setScrollToCurrent] = useState(false);

  useEffect(() => {
    alive.current = true;
    api
      .listExports(project.id)
      .then((page) => {
        if (!alive.current) return;
        setExports(page.results);
        setCount(page.count);
        const active = page.results.find(isActive);
        if (active) setCurrentId(active.id);
      })
      .catch((e: api.ApiError) => {
        if (!alive.current) return;
        setExports([]);
        setListError(e.status === 404 ? "Exports are not available on this server yet." : e.message);
      });
    return () => {
      alive.current = false;
    };
  }, [project.id]);

  const merge = useCallback((e: api.Export) => {
    setExports((list) => {
      if (!list) return [e];
      const i = list.findIndex((x) => x.id === e.id);
      if (i < 0) return [e, ...list];
      const copy = [...list];
      copy[i] = e;
      return copy;
    });
  }, []);

  // Poll every export that is still being built, until none is.
  const activeKey = (exports ?? [])
    .filter(isActive)
    .map((e) => e.id)
    .join(",");
  useEffect(() => {
    if (!activeKey) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      const ids = activeKey.split(",").map(Number);
      const results = await Promise.allSettled(ids.map((id) => api.getExport(id)));
      if (cancelled || !alive.current) return;
      let slow = false;
      results.forEach((r, i) => {
        if (r.status === "fulfilled") merge(r.value);
        else {
          const err = r.reason as api.ApiError;
          if (err?.status === 404) setExports((list) => list?.filter((x) => x.id !== ids[i]) ?? list);
          else slow = true; // network or server trouble: keep polling
        }
      });
      if (slow) await new Promise((resolve) => setTimeout(resolve, POLL_MS * 2));
      if (!cancelled && alive.current) setPollRound((n) => n + 1);
    }, POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [activeKey, pollRound, merge]);

  const problems = formProblems(form);
  const blocked = Object.keys(problems).length > 0;
  const previewKey = !blocked && form.labelSource === "final" ? JSON.stringify(buildExportRequest(form).filters) : null;

  async function create(e: FormEvent) {
    e.preventDefault();
    if (blocked) return;
    setCreating(true);
    setRequestError(null);
    try {
      const created = await api.createExport(project.id, buildExportRequest(form));
      if (!alive.current) return;
      merge(created);
      setCount((c) => c + 1);
      setCurrentId(created.id);
      setScrollToCurrent(true);
    } catch (err) {
      const apiErr = err as api.ApiError;
      if (alive.current) setRequestError({ lines: errorLines(apiErr), field: errorField(apiErr) });
    } finally {
      if (alive.current) setCreating(false);
    }
  }

  async function remove(target: api.Export) {
    if (!window.confirm(`Delete export ${target.id} (${FORMAT_LABEL[target.format] ?? target.format}) and its file?`)) return;
    setDeleting(target.id);
    setListError(null);
    try {
      await api.deleteExport(target.id);
      if (!alive.current) return;
      setExports((list) => list?.filter((x) => x.id !== target.id) ?? list);
      setCount((c) => Math.max(0, c - 1));
      if (currentId === target.id) setCurrentId(null);
    } catch (err) {
      if (alive.current) setListError(`Export ${target.id} was not deleted: ${(err as api.ApiError).message}`);
    } finally {
      if (alive.current) setDeleting(null);
    }
  }

  const current = exports?.find((x) => x.id === currentId) ?? null;

  // The options are long: bring the new export's progress into view once it is shown.
  useEffect(() => {
    if (scrollToCurrent && currentRef.current) {
      currentRef.current.scrollIntoView({ block: "nearest", behavior: "smooth" });
      setScrollToCurrent(false);
    }
  }, [scrollToCurrent, current]);

  return (
    <div className="stack">
      <form className="card export-form" onSubmit={create} data-testid="export-form" noValidate>
        <h2 className="card-title">Export a training set</h2>
        <p className="muted">
          A snapshot of the labeled steps as a PRM training set. A worker builds the file; the same options on the same data always give
          the same bytes (compare the sha256). Each export comes with a dataset card.
        </p>

        <ExportOptionsForm
          form={form}
          onChange={setForm}
          disabled={creating}
          problems={problems}
          serverField={requestError?.field ?? null}
        />

        {previewKey && <FinalPreview projectId={project.id} filtersKey={previewKey} />}

        <div className="form-actions">
          {blocked && <span className="text-red small">Fix the options marked above.</span>}
          {!blocked && (
            <button type="button" className="btn btn-ghost" onClick={() => setForm(DEFAULT_FORM)} disabled={creating} data-testid="export-reset">
              Reset to defaults
            </button>
          )}
          <button type="submit" className="btn btn-primary" disabled={creating || blocked} data-testid="export-create">
            {creating ? "Creating…" : "Create export"}
          </button>
        </div>

        {requestError && (
          <ErrorBox testId="export-error">
            <div className="callout-title">{requestError.lines[0]}</div>
            {requestError.lines.length > 1 && (
              <ul className="autolabel-error-details">
                {requestError.lines.slice(1).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            )}
          </ErrorBox>
        )}

        {current && (
          <CurrentExport e={current} innerRef={currentRef}>
            <Actions
              e={current}
              canDelete={false}
              onCard={() => setCardFor(current)}
              onHub={canDelete ? () => setHubFor(current) : undefined}
              onDelete={() => undefined}
              deleting={false}
            />
          </CurrentExport>
        )}
      </form>

      <div className="card card-flush">
        <div className="card-row card-pad">
          <span className="card-title">Past exports</span>
          {exports && count > exports.length && (
            <span className="muted small">
              latest {exports.length} of {formatNumber(count)}
            </span>
          )}
        </div>
        {listError && (
          <div className="card-pad">
            <ErrorBox testId="export-list-error">{listError}</ErrorBox>
          </div>
        )}
        {exports && exports.length === 0 && !listError && <div className="card-pad muted">No exports yet.</div>}
        {exports && exports.length > 0 && (
          <div className="table-scroll">
            <table className="table export-table" data-testid="export-history">
              <thead>
                <tr>
                  <th className="num">Export</th>
                  <th>Format</th>
                  <th>Status</th>
                  <th className="num">Rows</th>
                  <th className="num">Steps</th>
                  <th className="num">Size</th>
                  <th>sha256</th>
                  <th>Created</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {exports.map((e) => (
                  <tr key={e.id} className={currentId === e.id ? "is-selected" : undefined} data-testid="export-row" data-export-id={e.id} data-status={e.status}>
                    <td className="num">{e.id}</td>
                    <td>
                      <div className="export-format-name">{FORMAT_LABEL[e.format] ?? e.format}</div>
                      <div className="subtle small export-summary">
                        {[FILE_TYPE_LABEL[e.file_type] ?? e.file_type, optionsSummary(e)].filter(Boolean).join(" · ")}
                      </div>
                    </td>
                    <td>
                      <StatusBadge status={e.status} />
                      {isActive(e) && (
                        <div className="export-row-progress">
                          <ProgressBar value={exportFraction(e)} max={1} label={`Export ${e.id} progress`} />
                          <span className="small muted">{percent(exportFraction(e))}</span>
                        </div>
                      )}
                      {e.status === "failed" && <div className="small text-red export-row-error">{e.error?.message || "Failed"}</div>}
                    </td>
                    <td className="num">{e.status === "done" ? formatNumber(e.row_count) : "—"}</td>
                    <td className="num">{e.status === "done" ? formatNumber(e.step_count) : "—"}</td>
                    <td className="num">{e.status === "done" ? formatBytes(e.size_bytes) : "—"}</td>
                    <td>{e.status === "done" ? <Sha sha={e.sha256} /> : <span className="subtle">—</span>}</td>
                    <td className="small export-created">
                      <div>{e.created_by?.username ?? <span className="subtle">—</span>}</div>
                      <div className="muted">{formatDate(e.created_at)}</div>
                    </td>
                    <td className="export-actions-cell">
                      <Actions
                        e={e}
                        canDelete={canDelete}
                        onCard={() => setCardFor(e)}
                        onHub={canDelete ? () => setHubFor(e) : undefined}
                        onDelete={() => void remove(e)}
                        deleting={deleting === e.id}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>

      {cardFor && <ExportCardDialog exp={cardFor} onClose={() => setCardFor(null)} />}
      {hubFor && <HubPushDialog exp={hubFor} onClose={() => setHubFor(null)} />}
    </div>
  );
}
