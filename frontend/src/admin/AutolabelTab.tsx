import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import * as api from "../api";
import { ErrorBox, ProgressBar, formatDate, formatNumber } from "../components/ui";
import { domainLabel } from "../lib/domains";
import { PrmSourcePicker } from "./PrmSourcePicker";
import { requestWhileMounted } from "./whileMounted";
import {
  DEFAULT_PARAMS,
  DEFAULT_PRM,
  SOURCES,
  STATUS_TEXT,
  buildRunRequest,
  duration,
  errorLines,
  isActive,
  paramsProblem,
  percent,
  processed,
  groupErrors,
  runFraction,
  solutionsText,
  sourcesForDomain,
  sourcesText,
  type ModelParams,
  type SourceInfo,
} from "./autolabel";

export const POLL_MS = 1000;
const ERRORS_SHOWN = 20;

function RunStatusBadge({ status }: { status: api.AutolabelStatus }) {
  const cls = { pending: "", running: "badge-blue", done: "badge-green", failed: "badge-red", cancelled: "badge-amber" }[status];
  return <span className={`badge ${cls}`}>{STATUS_TEXT[status] ?? status}</span>;
}

function ParamsForm({
  form,
  value,
  onChange,
  disabled,
}: {
  form: "rollout" | "judge";
  value: ModelParams;
  onChange: (p: ModelParams) => void;
  disabled: boolean;
}) {
  const set = <K extends keyof ModelParams>(k: K, v: ModelParams[K]) => onChange({ ...value, [k]: v });
  const local = form === "rollout" && value.kind === "transformers";
  const id = `al-${form}`;
  return (
    <div className="autolabel-params" data-testid={`autolabel-params-${form}`}>
      {form === "rollout" && (
        <label className="field">
          <span className="field-label">Backend</span>
          <select className="input input-sm" value={value.kind} disabled={disabled} onChange={(e) => set("kind", e.target.value as ModelParams["kind"])}>
            <option value="openai">OpenAI-compatible server</option>
            <option value="transformers">Local model (transformers)</option>
          </select>
        </label>
      )}
      {local ? (
        <>
          <label className="field">
            <span className="field-label">Model path</span>
            <input className="input input-sm mono" id={`${id}-path`} value={value.path} disabled={disabled} placeholder="/models/qwen2.5-math-1.5b" onChange={(e) => set("path", e.target.value)} />
          </label>
          <label className="field">
            <span className="field-label">GGUF file (optional)</span>
            <input className="input input-sm mono" value={value.gguf_file} disabled={disabled} placeholder="model-q4_k_m.gguf" onChange={(e) => set("gguf_file", e.target.value)} />
          </label>
        </>
      ) : (
        <>
          <label className="field">
            <span className="field-label">Server URL</span>
            <input className="input input-sm mono" id={`${id}-url`} value={value.base_url} disabled={disabled} placeholder="http://localhost:8000/v1" onChange={(e) => set("base_url", e.target.value)} data-testid={`autolabel-${form}-url`} />
          </label>
          <label className="field">
            <span className="field-label">Model</span>
            <input className="input input-sm mono" value={value.model} disabled={disabled} placeholder="Qwen/Qwen2.5-Math-7B-Instruct" onChange={(e) => set("model", e.target.value)} data-testid={`autolabel-${form}-model`} />
          </label>
        </>
      )}
      {form === "rollout" && (
        <>
          <label className="field">
            <span className="field-label">Method</span>
            <select className="input input-sm" value={value.method} disabled={disabled} onChange={(e) => set("method", e.target.value as ModelParams["method"])}>
              <option value="mc">Every step (Monte-Carlo)</option>
              <option value="binary_search">Binary search for the first error</option>
            </select>
          </label>
          <label className="field">
            <span className="field-label">{value.method === "binary_search" ? "Rollouts per probed step" : "Rollouts per step"}</span>
            <input
              className="input input-sm"
              type="number"
              min={1}
              max={64}
              value={value.n}
              disabled={disabled}
              onChange={(e) => set("n", Math.max(1, Math.min(64, Math.round(Number(e.target.value)) || 1)))}
            />
          </label>
        </>
      )}
    </div>
  );
}

function SourceOption({
  info,
  checked,
  onToggle,
  disabled,
  params,
  onParams,
}: {
  info: SourceInfo;
  checked: boolean;
  onToggle: (on: boolean) => void;
  disabled: boolean;
  params?: ModelParams;
  onParams?: (p: ModelParams) => void;
}) {
  const [open, setOpen] = useState(false);
  // The prm source has its own picker (PrmSourcePicker), not this form.
  const form = info.form === "prm" ? undefined : info.form;
  const hint = checked && form && params ? paramsProblem(form, params) : null;
  return (
    <div className={`source-option${checked ? " is-checked" : ""}`}>
      <label className="check">
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(e) => onToggle(e.target.checked)}
          data-testid={`autolabel-source-${info.name}`}
        />
        <span className="source-text">
          <span className="source-title">
            <strong>{info.label}</strong>
            <code className="source-code">{info.name}</code>
            {info.availability === "soon" && <span className="tag">coming soon</span>}
            {info.availability === "model" && <span className="tag tag-model">needs a model</span>}
          </span>
          <span className="muted small">{info.description}</span>
        </span>
      </label>
      {form && params && onParams && (
        <div className="source-params">
          <button
            type="button"
            className="disclosure"
            aria-expanded={open}
            onClick={() => setOpen((v) => !v)}
            data-testid={`autolabel-params-toggle-${info.name}`}
          >
            <span className="disclosure-caret" aria-hidden="true">
              ▸
            </span>
            Parameters
            {!open && (
              <span className="subtle small">
                {info.form === "rollout"
                  ? ` · ${params.kind === "transformers" ? params.path || "local model" : params.model || "no model set"} · ${params.method === "mc" ? "MC" : "binary search"} · n = ${params.n}`
                  : ` · ${params.model || "no model set"}`}
              </span>
            )}
          </button>
          {open && <ParamsForm form={form} value={params} onChange={onParams} disabled={disabled} />}
          {hint && <div className="field-help text-amber">{hint}</div>}
        </div>
      )}
    </div>
  );
}

function RunPanel({ run, onCancel, cancelling }: { run: api.AutolabelRun; onCancel: () => void; cancelling: boolean }) {
  const fraction = runFraction(run);
  const active = isActive(run);
  const tone = run.status === "failed" ? "red" : run.status === "done" ? "green" : "accent";
  const count = run.status === "done" && run.total > 0 ? run.total : processed(run);
  const groups = groupErrors(run.errors);
  const failedCount = Math.max(run.failed, run.errors?.length ?? 0);
  return (
    <div className="autolabel-run" data-testid="autolabel-progress" data-status={run.status} data-run-id={run.id}>
      <div className="card-row">
        <div className="autolabel-run-title">
          <RunStatusBadge status={run.status} />
          <span className="small">
            Run {run.id} · {sourcesText(run.sources)}
            {run.filter?.only_unlabeled ? " · unlabeled solutions only" : ""}
          </span>
        </div>
        {active && (
          <button type="button" className="btn btn-sm" onClick={onCancel} disabled={cancelling} data-testid="autolabel-cancel">
            {cancelling ? "Cancelling…" : "Cancel"}
          </button>
        )}
      </div>
      <ProgressBar value={fraction} max={1} tone={tone} label="Auto-label progress" />
      <div className="autolabel-run-meta small">
        <span data-testid="autolabel-count">
          {formatNumber(count)} / {formatNumber(run.total)} solutions
        </span>
        <span className="autolabel-pct" data-testid="autolabel-percent">
          {percent(fraction)}
        </span>
        <span className="grow" />
        {run.status === "pending" && <span className="muted">Waiting for a worker…</span>}
        {run.status === "running" && <span className="muted">{formatNumber(run.suggestions_written)} suggestions so far</span>}
        {run.status === "done" && (
          <span className="text-green" data-testid="autolabel-done">
            <strong>Done</strong> · {formatNumber(run.suggestions_written)} {run.suggestions_written === 1 ? "suggestion" : "suggestions"} written
            {run.sources.includes("answer") ? ` · final answers checked` : ""}
            {run.failed > 0 ? ` · ${formatNumber(run.failed)} failed` : ""}
          </span>
        )}
        {run.status === "cancelled" && (
          <span className="muted">
            Cancelled · {formatNumber(run.suggestions_written)} suggestions written before it stopped
          </span>
        )}
        {run.status === "failed" && <span className="text-red">Failed · {formatNumber(run.suggestions_written)} suggestions written</span>}
        {!active && <span className="muted">· took {duration(run.started_at, run.finished_at)}</span>}
      </div>
      {groups.length > 0 && (
        <div className="autolabel-errors" data-testid="autolabel-errors">
          <div className="autolabel-errors-title small">
            {formatNumber(failedCount)} {failedCount === 1 ? "solution" : "solutions"} could not be labeled
            {run.errors.length < run.failed && <span className="muted"> · the first {formatNumber(run.errors.length)} errors are kept</span>}
          </div>
          <ul>
            {groups.slice(0, ERRORS_SHOWN).map((g) => (
              <li key={g.error} className="small">
                <span className="autolabel-error-text">{g.error}</span>
                <span className="autolabel-error-where muted">
                  {solutionsText(g.solutionIds)}
                  {g.solutionIds.length === 0 && g.unattributed > 0 ? "Run" : ""}
                </span>
              </li>
            ))}
          </ul>
          {groups.length > ERRORS_SHOWN && (
            <div className="muted small">and {formatNumber(groups.length - ERRORS_SHOWN)} other errors</div>
          )}
        </div>
      )}
    </div>
  );
}

export function AutolabelTab({ project }: { project: api.Project }) {
  const [selected, setSelected] = useState<Set<api.AutolabelSource>>(() => new Set());
  const [params, setParams] = useState({ rollout: { ...DEFAULT_PARAMS }, judge: { ...DEFAULT_PARAMS }, prm: { ...DEFAULT_PRM } });
  const [onlyUnlabeled, setOnlyUnlabeled] = useState(false);
  const [starting, setStarting] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [requestError, setRequestError] = useState<string[] | null>(null);
  const [run, setRun] = useState<api.AutolabelRun | null>(null);
  const [history, setHistory] = useState<api.AutolabelRun[] | null>(null);
  const [historyCount, setHistoryCount] = useState(0);
  const [historyError, setHistoryError] = useState<string | null>(null);
  const pollTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const polling = useRef<number | null>(null);
  const alive = useRef(true);

  const stopPolling = useCallback(() => {
    if (pollTimer.current) clearTimeout(pollTimer.current);
    pollTimer.current = null;
    polling.current = null;
  }, []);

  const mergeIntoHistory = useCallback((r: api.AutolabelRun) => {
    setHistory((h) => {
      if (!h) return h;
      const i = h.findIndex((x) => x.id === r.id);
      if (i < 0) return [r, ...h];
      const copy = [...h];
      copy[i] = r;
      return copy;
    });
  }, []);

  const poll = useCallback(
    (id: number) => {
      polling.current = id;
      const tick = () => {
        api
          .getAutolabelRun(id)
          .then((r) => {
            if (!alive.current || polling.current !== id) return;
            setRun(r);
            mergeIntoHistory(r);
            if (isActive(r)) pollTimer.current = setTimeout(tick, POLL_MS);
            else polling.current = null;
          })
          .catch((e: api.ApiError) => {
            if (!alive.current || polling.current !== id) return;
            if (e.isNetwork || e.status >= 500) pollTimer.current = setTimeout(tick, POLL_MS * 3);
            else {
              polling.current = null;
              setRequestError([`Lost track of run ${id}: ${e.message}`]);
            }
          });
      };
      pollTimer.current = setTimeout(tick, POLL_MS);
    },
    [mergeIntoHistory],
  );

  const follow = useCallback(
    (r: api.AutolabelRun) => {
      stopPolling();
      setRun(r);
      mergeIntoHistory(r);
      if (isActive(r)) poll(r.id);
    },
    [mergeIntoHistory, poll, stopPolling],
  );

  useEffect(() => {
    alive.current = true;
    api
      .listAutolabelRuns(project.id)
      .then((page) => {
        if (!alive.current) return;
        setHistory(page.results);
        setHistoryCount(page.count);
        const shown = page.results.find(isActive) ?? page.results[0];
        if (shown) follow(shown);
      })
      .catch((e: api.ApiError) => {
        if (!alive.current) return;
        setHistory([]);
        setHistoryError(e.status === 404 ? "Auto-labeling is not available on this server yet." : e.message);
      });
    return () => {
      alive.current = false;
      stopPolling();
    };
  }, [project.id, follow, stopPolling]);

  async function start(e: FormEvent) {
    e.preventDefault();
    if (selected.size === 0) return;
    setRequestError(null);
    await requestWhileMounted(
      alive,
      setStarting,
      () => api.startAutolabelRun(project.id, buildRunRequest(selected, params, onlyUnlabeled)),
      (created) => {
        setHistoryCount((c) => c + 1);
        follow(created);
      },
      (err) => setRequestError(errorLines(err)),
    );
  }

  async function cancel() {
    if (!run) return;
    setCancelling(true);
    try {
      follow(await api.cancelAutolabelRun(run.id));
    } catch (err) {
      const apiErr = err as api.ApiError;
      if (apiErr.status === 409) {
        // It finished meanwhile: show how it ended.
        api.getAutolabelRun(run.id).then(follow, () => undefined);
      } else if (alive.current) setRequestError([`Not cancelled: ${apiErr.message}`]);
    } finally {
      if (alive.current) setCancelling(false);
    }
  }

  const toggle = (name: api.AutolabelSource, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });

  const active = isActive(run);
  const busy = starting || active;

  return (
    <div className="stack">
      <form className="card autolabel-form" onSubmit={start} data-testid="autolabel-form">
        <h2 className="card-title">Auto-label solutions</h2>
        <p className="muted">
          Machine checks write <strong>suggestions</strong> beside each step. Annotators see them and can accept one with a click, or all
          of them with <span className="kbd">A</span>. They never count as submitted labels.
        </p>
        {!project.show_suggestions && (
          <div className="callout callout-warn small" data-testid="autolabel-hidden-note">
            This project hides suggestions from annotators (Settings → Show suggestions). Runs still record them.
          </div>
        )}

        <fieldset className="source-list" disabled={busy}>
          <legend className="field-label">Sources</legend>
          {project.domain_sources && (
            <p className="muted small" data-testid="autolabel-domain-note">
              A {domainLabel(project.domain).toLowerCase()} project: the sources that apply to it.
            </p>
          )}
          {sourcesForDomain(SOURCES, project.domain_sources).map((info) => {
            const form = info.form === "rollout" || info.form === "judge" ? info.form : undefined;
            return (
              <div key={info.name}>
                <SourceOption
                  info={info}
                  checked={selected.has(info.name)}
                  onToggle={(on) => toggle(info.name, on)}
                  disabled={busy}
                  params={form ? params[form] : undefined}
                  onParams={form ? (p) => setParams((all) => ({ ...all, [form]: p })) : undefined}
                />
                {info.form === "prm" && selected.has("prm") && (
                  <PrmSourcePicker
                    projectId={project.id}
                    value={params.prm}
                    onChange={(prm) => setParams((all) => ({ ...all, prm }))}
                    disabled={busy}
                  />
                )}
              </div>
            );
          })}
        </fieldset>

        <label className="check autolabel-filter">
          <input
            type="checkbox"
            checked={onlyUnlabeled}
            disabled={busy}
            onChange={(e) => setOnlyUnlabeled(e.target.checked)}
            data-testid="autolabel-only-unlabeled"
          />
          <span>
            <strong>Only solutions nobody has labeled yet.</strong>{" "}
            <span className="muted">Skips solutions that already have a submitted annotation.</span>
          </span>
        </label>

        <div className="form-actions">
          {active && <span className="muted small">A run is in progress.</span>}
          {!active && selected.size === 0 && <span className="muted small">Choose at least one source.</span>}
          <button type="submit" className="btn btn-primary" disabled={busy || selected.size === 0} data-testid="autolabel-start">
            {starting ? "Starting…" : "Start auto-labeling"}
          </button>
        </div>

        {requestError && (
          <ErrorBox testId="autolabel-error">
            <div className="callout-title">{requestError[0]}</div>
            {requestError.length > 1 && (
              <ul className="autolabel-error-details">
                {requestError.slice(1).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            )}
          </ErrorBox>
        )}

        {run && <RunPanel run={run} onCancel={() => void cancel()} cancelling={cancelling} />}
      </form>

      <div className="card card-flush">
        <div className="card-row card-pad">
          <span className="card-title">Past runs</span>
          {history && historyCount > history.length && (
            <span className="muted small">
              latest {history.length} of {formatNumber(historyCount)}
            </span>
          )}
        </div>
        {historyError && <div className="card-pad muted">{historyError}</div>}
        {history && history.length === 0 && !historyError && <div className="card-pad muted">No runs yet.</div>}
        {history && history.length > 0 && (
          <table className="table" data-testid="autolabel-history">
            <thead>
              <tr>
                <th className="num">Run</th>
                <th>Sources</th>
                <th>Status</th>
                <th className="num">Solutions</th>
                <th className="num">Suggestions</th>
                <th className="num">Failed</th>
                <th>Started</th>
                <th>Took</th>
              </tr>
            </thead>
            <tbody>
              {history.map((r) => (
                <tr key={r.id} className={run?.id === r.id ? "is-selected" : undefined}>
                  <td className="num">{r.id}</td>
                  <td>
                    {sourcesText(r.sources)}
                    {r.filter?.only_unlabeled ? <span className="subtle small"> · unlabeled only</span> : null}
                  </td>
                  <td>
                    <RunStatusBadge status={r.status} />
                  </td>
                  <td className="num">
                    {formatNumber(r.status === "done" && r.total > 0 ? r.total : processed(r))} / {formatNumber(r.total)}
                  </td>
                  <td className="num">{formatNumber(r.suggestions_written)}</td>
                  <td className={`num${r.failed ? " text-red" : ""}`}>{formatNumber(r.failed)}</td>
                  <td className="small muted">{formatDate(r.started_at ?? r.created_at)}</td>
                  <td className="small muted">{isActive(r) ? "…" : duration(r.started_at, r.finished_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
