import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import * as api from "../api";
import { ErrorBox, ProgressBar, formatDate, formatNumber } from "../components/ui";
import { duration, percent } from "./autolabel";
import { MetricChart } from "./MetricChart";
import { PrmModelsTable } from "./PrmModelsTable";
import {
  DEFAULT_FORM,
  LABELS,
  TRAINING_STATUS_TEXT,
  buildTrainingRequest,
  formProblem,
  isTrainingActive,
  metric,
  trainableExports,
  trainingFraction,
  type TrainingForm,
} from "./training";
import { requestWhileMounted } from "./whileMounted";
import "../styles/training.css";

export const TRAINING_POLL_MS = 1500;

function StatusBadge({ status }: { status: api.TrainingStatus }) {
  const cls = { pending: "", running: "badge-blue", done: "badge-green", failed: "badge-red", cancelled: "badge-amber" }[status];
  return <span className={`badge ${cls}`}>{TRAINING_STATUS_TEXT[status] ?? status}</span>;
}

function NumberField({ name, form, set, disabled }: { name: keyof TrainingForm; form: TrainingForm; set: (patch: Partial<TrainingForm>) => void; disabled: boolean }) {
  return (
    <label className="field">
      <span className="field-label">{LABELS[name]}</span>
      <input
        className="input input-sm mono"
        value={String(form[name])}
        disabled={disabled}
        placeholder="default"
        onChange={(e) => set({ [name]: e.target.value })}
        data-testid={`training-${name}`}
      />
    </label>
  );
}

function RunDetail({ run, canCancel, onCancel, cancelling }: { run: api.TrainingRun; canCancel: boolean; onCancel: () => void; cancelling: boolean }) {
  const active = isTrainingActive(run);
  const fraction = trainingFraction(run);
  const history = run.history ?? [];
  const tone = run.status === "failed" ? "red" : run.status === "done" ? "green" : "accent";
  return (
    <div className="card training-run" data-testid="training-progress" data-status={run.status} data-run-id={run.id}>
      <div className="card-row">
        <div className="autolabel-run-title">
          <StatusBadge status={run.status} />
          <span className="small">
            Run {run.id} · export {run.export ?? "deleted"} · <span className="mono">{run.base_model}</span>
          </span>
        </div>
        {active && canCancel && (
          <button type="button" className="btn btn-sm" onClick={onCancel} disabled={cancelling} data-testid="training-cancel">
            {cancelling ? "Cancelling…" : "Cancel"}
          </button>
        )}
      </div>
      <ProgressBar value={fraction} max={1} tone={tone} label="Training progress" />
      <div className="autolabel-run-meta small">
        <span data-testid="training-steps">
          step {formatNumber(run.step)} / {run.total_steps ? formatNumber(run.total_steps) : "?"}
        </span>
        <span>{percent(fraction)}</span>
        <span className="grow" />
        {run.status === "pending" && <span className="muted">Waiting for a worker on the gpu queue…</span>}
        {run.metrics.train && <span className="muted">loss {metric(run.metrics.train.loss)}</span>}
        {run.status === "done" && (
          <span className="text-green" data-testid="training-done">
            <strong>Done</strong> · registered as a model{run.artifact_path ? <> at <span className="mono">{run.artifact_path}</span></> : null}
          </span>
        )}
        {!active && <span className="muted">· took {duration(run.started_at, run.finished_at)}</span>}
      </div>
      {run.metrics.truncation && (
        <div
          className={`small ${run.metrics.truncation.startsWith("truncation dropped") ? "text-amber" : "muted"}`}
          data-testid="training-truncation"
        >
          Data: {run.metrics.truncation}
        </div>
      )}
      {run.error && (
        <ErrorBox testId="training-run-error">
          <div className="callout-title">{run.error}</div>
        </ErrorBox>
      )}
      <div className="metric-charts">
        <MetricChart id="loss" title="Loss" history={history} keys={[{ key: "loss", label: "loss" }]} />
        <MetricChart
          id="accuracy"
          title="Step accuracy / F1"
          history={history}
          keys={[
            { key: "accuracy", label: "accuracy" },
            { key: "f1", label: "F1" },
          ]}
          yRange={[0, 1]}
        />
      </div>
      {run.log_tail && (
        <details className="training-log">
          <summary className="small">Trainer log (last lines)</summary>
          <pre className="mono small" data-testid="training-log">
            {run.log_tail}
          </pre>
        </details>
      )}
    </div>
  );
}

export function TrainingTab({ project }: { project: api.Project }) {
  const isAdmin = project.role === "admin";
  const [exports, setExports] = useState<api.Export[]>([]);
  const [runs, setRuns] = useState<api.TrainingRun[] | null>(null);
  const [models, setModels] = useState<api.PrmModel[]>([]);
  const [order, setOrder] = useState<api.QueueOrder>("default");
  const [form, setForm] = useState<TrainingForm>(DEFAULT_FORM);
  // Every edit applies to the latest form: an edit made from a render before the exports
  // arrived must not undo the export chosen for it meanwhile.
  const patch = useCallback((changes: Partial<TrainingForm>) => setForm((f) => ({ ...f, ...changes })), []);
  const [run, setRun] = useState<api.TrainingRun | null>(null);
  const [starting, setStarting] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [register, setRegister] = useState({ name: "", path: "" });
  const [deleting, setDeleting] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const alive = useRef(true);

  const stop = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  const refreshLists = useCallback(() => {
    api.listTrainingRuns(project.id).then((page) => alive.current && setRuns(page.results), () => undefined);
    api.listPrmModels(project.id).then((m) => alive.current && setModels(m), () => undefined);
  }, [project.id]);

  const follow = useCallback(
    (id: number) => {
      stop();
      const tick = () => {
        api
          .getTrainingRun(id)
          .then((r) => {
            if (!alive.current) return;
            setRun(r);
            setRuns((all) => (all ?? []).map((x) => (x.id === r.id ? { ...x, ...r } : x)));
            if (isTrainingActive(r)) timer.current = setTimeout(tick, TRAINING_POLL_MS);
            else refreshLists();
          })
          .catch((e: api.ApiError) => {
            if (!alive.current) return;
            if (e.isNetwork || e.status >= 500) timer.current = setTimeout(tick, TRAINING_POLL_MS * 3);
            else setError(`Lost track of run ${id}: ${e.message}`);
          });
      };
      tick();
    },
    [refreshLists, stop],
  );

  useEffect(() => {
    alive.current = true;
    api.listTrainableExports(project.id).then(
      (rows) => alive.current && setExports(trainableExports(rows)),
      () => undefined,
    );
    api.getQueueOrder(project.id).then((q) => alive.current && setOrder(q.order), () => undefined);
    api.listPrmModels(project.id).then((m) => alive.current && setModels(m), () => undefined);
    api
      .listTrainingRuns(project.id)
      .then((page) => {
        if (!alive.current) return;
        setRuns(page.results);
        const shown = page.results.find(isTrainingActive) ?? page.results[0];
        if (shown) follow(shown.id);
      })
      .catch((e: api.ApiError) => {
        if (!alive.current) return;
        setRuns([]);
        setError(e.message);
      });
    return () => {
      alive.current = false;
      stop();
    };
  }, [project.id, follow, stop]);

  useEffect(() => {
    if (!form.exportId && exports.length) setForm((f) => ({ ...f, exportId: String(exports[0].id) }));
  }, [exports, form.exportId]);

  const problem = formProblem(form);
  const active = isTrainingActive(run);

  async function start(e: FormEvent) {
    e.preventDefault();
    if (problem) return;
    setError(null);
    await requestWhileMounted(
      alive,
      setStarting,
      () => api.startTrainingRun(project.id, buildTrainingRequest(form)),
      (created) => {
        setRuns((all) => [created, ...(all ?? [])]);
        setRun(created);
        follow(created.id);
      },
      (err) => setError(err.message),
    );
  }

  async function cancel() {
    if (!run) return;
    setCancelling(true);
    try {
      await api.cancelTrainingRun(run.id);
    } catch (err) {
      if (alive.current && (err as api.ApiError).status !== 409) setError(`Not cancelled: ${(err as api.ApiError).message}`);
    } finally {
      if (alive.current) {
        setCancelling(false);
        follow(run.id);
      }
    }
  }

  async function registerModel(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const model = await api.registerPrmModel(project.id, { name: register.name.trim(), path: register.path.trim() });
      if (!alive.current) return;
      setModels((m) => [model, ...m]);
      setRegister({ name: "", path: "" });
    } catch (err) {
      if (alive.current) setError((err as api.ApiError).message);
    }
  }

  async function deleteModel(model: api.PrmModel) {
    const words = "Its suggestions stay; its files on disk stay where they are.";
    if (!window.confirm(`Delete the model ${model.name}? ${words}`)) return;
    setError(null);
    setDeleting(model.id);
    try {
      await api.deletePrmModel(project.id, model.id);
      if (alive.current) setModels((all) => all.filter((m) => m.id !== model.id));
    } catch (err) {
      if (alive.current) setError(`Not deleted: ${(err as api.ApiError).message}`);
    } finally {
      if (alive.current) setDeleting(null);
    }
  }

  async function changeOrder(next: api.QueueOrder) {
    setError(null);
    try {
      setOrder((await api.setQueueOrder(project.id, next)).order);
    } catch (err) {
      if (alive.current) setError((err as api.ApiError).message);
    }
  }

  return (
    <div className="stack">
      {isAdmin && (
        <form className="card training-form" onSubmit={start} data-testid="training-form">
          <h2 className="card-title">Train a process reward model</h2>
          <p className="muted">
            A worker on the <code>gpu</code> queue fine-tunes the base model on a TRL stepwise export of this project; the trained PRM is
            registered below and becomes an auto-label source.
          </p>
          <fieldset className="training-fields" disabled={starting || active}>
            <label className="field">
              <span className="field-label">Export</span>
              <select
                className="input input-sm"
                value={form.exportId}
                onChange={(e) => patch({ exportId: e.target.value })}
                data-testid="training-export"
              >
                {exports.length === 0 && <option value="">No finished TRL export: make one in the Export tab</option>}
                {exports.map((x) => (
                  <option key={x.id} value={x.id}>
                    Export {x.id} · {formatNumber(x.row_count)} rows · {formatDate(x.finished_at ?? x.created_at)}
                  </option>
                ))}
              </select>
            </label>
            <label className="field field-wide">
              <span className="field-label">Base model path</span>
              <input
                className="input input-sm mono"
                value={form.baseModel}
                placeholder="/models/Qwen2.5-Math-1.5B"
                onChange={(e) => patch({ baseModel: e.target.value })}
                data-testid="training-base-model"
              />
            </label>
            <div className="training-grid">
              <NumberField name="lr" form={form} set={patch} disabled={false} />
              <NumberField name="epochs" form={form} set={patch} disabled={false} />
              <NumberField name="maxSteps" form={form} set={patch} disabled={false} />
              <NumberField name="batchSize" form={form} set={patch} disabled={false} />
              <NumberField name="gradAccum" form={form} set={patch} disabled={false} />
              <NumberField name="maxLength" form={form} set={patch} disabled={false} />
              <NumberField name="logEvery" form={form} set={patch} disabled={false} />
              <label className="field">
                <span className="field-label">Head</span>
                <select className="input input-sm" value={form.head} onChange={(e) => patch({ head: e.target.value as TrainingForm["head"] })}>
                  <option value="linear">Linear</option>
                  <option value="mlp2">Two layers (Qwen2.5-Math-PRM)</option>
                </select>
              </label>
            </div>
            <label className="check">
              <input type="checkbox" checked={form.lora} onChange={(e) => patch({ lora: e.target.checked })} data-testid="training-lora" />
              <span>LoRA (merged into the saved model)</span>
            </label>
            <label className="check">
              <input type="checkbox" checked={form.bf16} onChange={(e) => patch({ bf16: e.target.checked })} />
              <span>bf16 (GPU)</span>
            </label>
          </fieldset>
          <div className="form-actions">
            {problem && <span className="muted small">{problem}</span>}
            {active && <span className="muted small">A run is in progress.</span>}
            <button type="submit" className="btn btn-primary" disabled={!!problem || starting || active} data-testid="training-start">
              {starting ? "Starting…" : "Start training"}
            </button>
          </div>
        </form>
      )}

      {error && (
        <ErrorBox testId="training-error">
          <div className="callout-title">{error}</div>
        </ErrorBox>
      )}

      {run && <RunDetail run={run} canCancel={isAdmin} onCancel={() => void cancel()} cancelling={cancelling} />}

      <div className="card card-flush">
        <div className="card-row card-pad">
          <span className="card-title">Training runs</span>
        </div>
        {runs && runs.length === 0 && <div className="card-pad muted">No training runs yet.</div>}
        {runs && runs.length > 0 && (
          <table className="table" data-testid="training-runs">
            <thead>
              <tr>
                <th className="num">Run</th>
                <th>Status</th>
                <th className="num">Export</th>
                <th className="num">Steps</th>
                <th className="num">Loss</th>
                <th className="num">Eval F1</th>
                <th>Started</th>
                <th>Took</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr
                  key={r.id}
                  className={`clickable${run?.id === r.id ? " is-selected" : ""}`}
                  onClick={() => follow(r.id)}
                  data-testid={`training-run-${r.id}`}
                >
                  <td className="num">{r.id}</td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td className="num">{r.export ?? "—"}</td>
                  <td className="num">
                    {formatNumber(r.step)} / {r.total_steps ? formatNumber(r.total_steps) : "?"}
                  </td>
                  <td className="num">{metric(r.metrics.train?.loss)}</td>
                  <td className="num">{metric(r.metrics.eval?.f1)}</td>
                  <td className="small muted">{formatDate(r.started_at ?? r.created_at)}</td>
                  <td className="small muted">{isTrainingActive(r) ? "…" : duration(r.started_at, r.finished_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>

      <div className="card card-flush">
        <div className="card-row card-pad">
          <span className="card-title">Trained models</span>
          <span className="muted small">Use one as the PRM source on the Auto-label tab.</span>
        </div>
        <PrmModelsTable models={models} onDelete={isAdmin ? deleteModel : undefined} deleting={deleting} />
        {isAdmin && (
          <form className="card-pad training-register" onSubmit={registerModel} data-testid="prm-register">
            <input className="input input-sm" placeholder="Name" value={register.name} onChange={(e) => setRegister({ ...register, name: e.target.value })} />
            <input
              className="input input-sm mono grow"
              placeholder="/models/my-prm (a saved PRM directory)"
              value={register.path}
              onChange={(e) => setRegister({ ...register, path: e.target.value })}
            />
            <button type="submit" className="btn btn-sm" disabled={!register.name.trim() || !register.path.trim()}>
              Register a model
            </button>
          </form>
        )}
      </div>

      <div className="card">
        <h2 className="card-title">Labeling queue order</h2>
        <label className="check">
          <input
            type="checkbox"
            checked={order === "prm_active"}
            disabled={!isAdmin}
            onChange={(e) => void changeOrder(e.target.checked ? "prm_active" : "default")}
            data-testid="queue-order-active"
          />
          <span>
            <strong>Active learning:</strong>{" "}
            <span className="muted">
              serve annotators first the solutions a PRM rates correct but whose final answer is wrong (convincing wrong answers), then the
              ones it is least sure of. Needs a PRM auto-label run (and the answer check) over the solutions.
            </span>
          </span>
        </label>
      </div>
    </div>
  );
}
