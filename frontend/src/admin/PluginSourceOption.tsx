/**
 * An engine plug-in in the Auto-label tab: its checkbox, label, description and package, and
 * its parameters form rendered from the schema the server lists.
 */
import { useState } from "react";
import type { AutolabelEngine } from "../api";
import { PluginParamsForm } from "./PluginParamsForm";
import { formProblems, pluginSummary, type FormValues } from "./pluginParams";

export function PluginSourceOption({
  engine,
  checked,
  onToggle,
  values,
  onValues,
  disabled,
}: {
  engine: AutolabelEngine;
  checked: boolean;
  onToggle: (on: boolean) => void;
  values: FormValues;
  onValues: (v: FormValues) => void;
  disabled: boolean;
}) {
  const [open, setOpen] = useState(false);
  const params = engine.params ?? [];
  const problems = Object.values(formProblems(params, values));
  return (
    <div className={`source-option${checked ? " is-checked" : ""}`} data-testid={`autolabel-plugin-${engine.name}`}>
      <label className="check">
        <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onToggle(e.target.checked)} data-testid={`autolabel-source-${engine.name}`} />
        <span className="source-text">
          <span className="source-title">
            <strong>{engine.label}</strong>
            <code className="source-code">{engine.name}</code>
            <span className="tag" title={engine.plugin ?? undefined}>
              plug-in{engine.plugin ? ` · ${engine.plugin}` : ""}
            </span>
          </span>
          {engine.description && <span className="muted small">{engine.description}</span>}
        </span>
      </label>
      {params.length > 0 && (
        <div className="source-params">
          <button type="button" className="disclosure" aria-expanded={open} onClick={() => setOpen((v) => !v)} data-testid={`autolabel-params-toggle-${engine.name}`}>
            <span className="disclosure-caret" aria-hidden="true">
              ▸
            </span>
            Parameters
            {!open && <span className="subtle small"> · {pluginSummary(params, values)}</span>}
          </button>
          {open && <PluginParamsForm source={engine.name} params={params} values={values} onChange={onValues} disabled={disabled} />}
          {checked && !open && problems.length > 0 && <div className="field-error">{problems[0]}</div>}
        </div>
      )}
    </div>
  );
}
