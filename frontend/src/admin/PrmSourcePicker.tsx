/** The prm source's parameters on the Auto-label tab: which registered model, how it reads
 * (trained here, or a public PRM's convention), and the threshold. */
import { useEffect, useState } from "react";
import * as api from "../api";
import { PRM_CONVENTIONS, prmProblem, type PrmConvention, type PrmParams } from "./autolabel";
import { metric, modelMetrics } from "./training";

export function PrmSourcePicker({
  projectId,
  value,
  onChange,
  disabled,
}: {
  projectId: number;
  value: PrmParams;
  onChange: (p: PrmParams) => void;
  disabled: boolean;
}) {
  const [models, setModels] = useState<api.PrmModel[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    api.listPrmModels(projectId).then(
      (m) => {
        if (!alive) return;
        setModels(m);
        if (value.model_id === null && m.length) onChange({ ...value, model_id: m[0].id });
      },
      (e: api.ApiError) => alive && setError(e.message),
    );
    return () => {
      alive = false;
    };
    // Loaded once per project; choosing a model is the user's from then on.
  }, [projectId]);

  const hint = prmProblem(value);
  return (
    <div className="source-params autolabel-params" data-testid="autolabel-params-prm">
      <label className="field">
        <span className="field-label">Model</span>
        <select
          className="input input-sm"
          value={value.model_id ?? ""}
          disabled={disabled || !models?.length}
          onChange={(e) => onChange({ ...value, model_id: e.target.value ? Number(e.target.value) : null })}
          data-testid="autolabel-prm-model"
        >
          {!models?.length && <option value="">{models ? "No trained models yet" : "Loading…"}</option>}
          {models?.map((m) => {
            const shown = modelMetrics(m);
            return (
              <option key={m.id} value={m.id}>
                {m.name}
                {shown ? ` · ${shown.split} F1 ${metric(shown.record.f1)}` : ""}
              </option>
            );
          })}
        </select>
      </label>
      <label className="field">
        <span className="field-label">Reads as</span>
        <select
          className="input input-sm"
          value={value.convention}
          disabled={disabled}
          onChange={(e) => onChange({ ...value, convention: e.target.value as PrmConvention })}
          data-testid="autolabel-prm-convention"
          title="How the model reads a solution: as trained here, or a public PRM's own input format"
        >
          {PRM_CONVENTIONS.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">Threshold</span>
        <input
          className="input input-sm"
          type="number"
          min={0.01}
          max={0.99}
          step="any"
          value={value.threshold}
          disabled={disabled}
          onChange={(e) => onChange({ ...value, threshold: Number(e.target.value) })}
          data-testid="autolabel-prm-threshold"
        />
      </label>
      {(error || hint) && <div className="field-help text-amber">{error ?? hint}</div>}
    </div>
  );
}
