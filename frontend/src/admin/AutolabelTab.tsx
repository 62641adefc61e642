import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import * as api from "../api";
import { ErrorBox, formatDate, formatNumber } from "../components/ui";
import { domainLabel } from "../lib/domains";
import { RunControls, RunPanel, RunStatusBadge, type RunAction } from "./AutolabelRunPanel";
import { SourceOption } from "./AutolabelSourceOption";
import { PluginSourceOption } from "./PluginSourceOption";
import { formProblems, pluginDefaults, pluginRequestParams, pluginsForDomain, type FormValues } from "./pluginParams";
import { PrmSourcePicker } from "./PrmSourcePicker";
import { requestWhileMounted } from "./whileMounted";
import {
  DEFAULT_PARAMS,
  DEFAULT_PRM,
  SOURCES,
  buildRunRequest,
  duration,
  errorLines,
  isActive,
  processed,
  rateText,
  shownStatus,
  sourcesForDomain,
  sourcesText,
} from "./autolabel";

export const POLL_MS = 1000;

export function AutolabelTab({ project }: { project: api.Project }) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  // Engine plug-ins installed on the server, with their parameter forms' values.
  const [engines, setEngines] = useState<api.AutolabelEngine[]>([]);
  const [pluginValues, setPluginValues] = useState<Record<string, FormValues>>({});
  const [params, setParams] = useState({ rollout: { ...DEFAULT_PARAMS }, judge: { ...DEFAULT_PARAMS }, prm: { ...DEFAULT_PRM } });
  const [onlyUnlabeled, setOnlyUnlabeled] = useState(false);
  const [starting, setStarting] = useState(false);
  const [acting, setActing] = useState<{ id: number; action: RunAction } | null>(null);
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
    let live = true;
    api
      .listAutolabelEngines()
      .then((list) => {
        if (!live) return;
        setEngines(list);
        setPluginValues(Object.fromEntries(list.filter((e) => !e.builtin).map((e) => [e.name, pluginDefaults(e.params ?? [])])));
      })
      .catch(() => undefined); // an older server lists none: the built-in sources still work
    return () => {
      live = false;
    };
  }, []);

  const plugins = pluginsForDomain(engines, project.domain);
  const pluginLabels = Object.fromEntries(engines.filter((e) => !e.builtin).map((e) => [e.name, e.label]));
  const pluginProblems = plugins.filter((e) => selected.has(e.name)).flatMap((e) => Object.values(formProblems(e.params ?? [], pluginValues[e.name] ?? {})));

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
    if (selected.size === 0 || pluginProblems.length > 0) return;
    setRequestError(null);
    const chosen = plugins.map((e) => ({ name: e.name, params: pluginRequestParams(e.params ?? [], pluginValues[e.name] ?? {}) }));
    await requestWhileMounted(
      alive,
      setStarting,
      () => api.startAutolabelRun(project.id, buildRunRequest(selected, params, onlyUnlabeled, chosen)),
      (created) => {
        setHistoryCount((c) => c + 1);
        follow(created);
      },
      (err) => setRequestError(errorLines(err)),
    );
  }

  const ACTIONS = { pause: api.pauseAutolabelRun, resume: api.resumeAutolabelRun, cancel: api.cancelAutolabelRun };
  const PAST = { pause: "Not paused", resume: "Not resumed", cancel: "Not cancelled" };

  /** Pause, resume or cancel a run (the one shown or one in the list), then follow it. */
  async function act(target: api.AutolabelRun, action: RunAction) {
    setActing({ id: target.id, action });
    setRequestError(null);
    try {
      const updated = await ACTIONS[action](target.id);
      if (!alive.current) return;
      if (!run || run.id === updated.id || !isActive(run)) follow(updated);
      else mergeIntoHistory(updated);
    } catch (err) {
      const apiErr = err as api.ApiError;
      if (!alive.current) return;
      if (apiErr.status === 409) {
        // It finished meanwhile: show how it ended.
        api.getAutolabelRun(target.id).then((r) => (run?.id === r.id ? follow(r) : mergeIntoHistory(r)), () => undefined);
      } else setRequestError([`${PAST[action]}: ${apiErr.message}`]);
    } finally {
      if (alive.current) setActing(null);
    }
  }

  const toggle = (name: string, on: boolean) =>
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
              {project.domain === "mixed"
                ? "A many-domains project: every domain's sources; each runs only on the problems of the domains it applies to."
                : `${/^[aeiou]/i.test(domainLabel(project.domain)) ? "An" : "A"} ${domainLabel(project.domain).toLowerCase()} project: the sources that apply to it.`}
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
          {plugins.map((engine) => (
            <PluginSourceOption
              key={engine.name}
              engine={engine}
              checked={selected.has(engine.name)}
              onToggle={(on) => toggle(engine.name, on)}
              values={pluginValues[engine.name] ?? {}}
              onValues={(v) => setPluginValues((all) => ({ ...all, [engine.name]: v }))}
              disabled={busy}
            />
          ))}
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
          {active && <span className="muted small">{run?.status === "paused" ? "A run is paused: resume or cancel it first." : "A run is in progress."}</span>}
          {!active && selected.size === 0 && <span className="muted small">Choose at least one source.</span>}
          {!active && pluginProblems.length > 0 && (
            <span className="small text-red" data-testid="autolabel-plugin-problem">
              {pluginProblems[0]}
            </span>
          )}
          <button type="submit" className="btn btn-primary" disabled={busy || selected.size === 0 || pluginProblems.length > 0} data-testid="autolabel-start">
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

        {run && <RunPanel run={run} busy={acting?.id === run.id ? acting.action : null} onAction={(a) => void act(run, a)} labels={pluginLabels} />}
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
                <th className="num">Rate</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {history.map((r) => (
                <tr key={r.id} className={run?.id === r.id ? "is-selected" : undefined}>
                  <td className="num">{r.id}</td>
                  <td>
                    {sourcesText(r.sources, pluginLabels)}
                    {r.filter?.only_unlabeled ? <span className="subtle small"> · unlabeled only</span> : null}
                  </td>
                  <td>
                    <RunStatusBadge status={shownStatus(r)} />
                  </td>
                  <td className="num">
                    {formatNumber(r.status === "done" && r.total > 0 ? r.total : processed(r))} / {formatNumber(r.total)}
                  </td>
                  <td className="num">{formatNumber(r.suggestions_written)}</td>
                  <td className={`num${r.failed ? " text-red" : ""}`}>{formatNumber(r.failed)}</td>
                  <td className="small muted">{formatDate(r.started_at ?? r.created_at)}</td>
                  <td className="small muted">{isActive(r) ? "…" : duration(r.started_at, r.finished_at)}</td>
                  <td className="num small muted">{rateText(r.rate) ?? "—"}</td>
                  <td className="actions" data-testid={`autolabel-row-actions-${r.id}`}>
                    <RunControls
                      run={r}
                      busy={acting?.id === r.id ? acting.action : null}
                      onAction={(a) => void act(r, a)}
                      testIdPrefix={`autolabel-row-${r.id}`}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
