/**
 * One auto-label source in the Auto-label tab: its checkbox, what it does, and for the sources
 * that need a model (rollout, judge) a folded parameters form with its summary and warnings.
 */
import { useState } from "react";
import { paramsProblem, type ModelParams, type SourceInfo } from "./autolabel";

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

export function SourceOption({
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
