/**
 * A plug-in's parameters form, rendered from the schema the server lists: number inputs with
 * their bounds, checkboxes, selects and text inputs, each with its help and its problem.
 */
import type { EngineParam } from "../api";
import { fieldProblem, type FormValues } from "./pluginParams";

function Field({
  source,
  param,
  value,
  onChange,
  disabled,
}: {
  source: string;
  param: EngineParam;
  value: string | boolean | undefined;
  onChange: (v: string | boolean) => void;
  disabled: boolean;
}) {
  const id = `al-${source}-${param.name}`;
  const problem = fieldProblem(param, value);
  const testId = `plugin-param-${source}-${param.name}`;
  const described = [param.help ? `${id}-help` : "", problem ? `${id}-problem` : ""].filter(Boolean).join(" ") || undefined;
  const note = (
    <>
      {param.help && (
        <span className="field-help" id={`${id}-help`}>
          {param.help}
        </span>
      )}
      {problem && (
        <span className="field-error" id={`${id}-problem`} data-testid={`${testId}-problem`}>
          {problem}
        </span>
      )}
    </>
  );
  if (param.type === "bool") {
    return (
      <div className="field">
        <label className="check">
          <input id={id} type="checkbox" checked={value === true} disabled={disabled} onChange={(e) => onChange(e.target.checked)} aria-describedby={described} data-testid={testId} />
          <span>{param.label}</span>
        </label>
        {note}
      </div>
    );
  }
  let input;
  if (param.type === "choice") {
    input = (
      <select id={id} className="input input-sm" value={String(value ?? "")} disabled={disabled} onChange={(e) => onChange(e.target.value)} aria-describedby={described} data-testid={testId}>
        {param.choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  } else if (param.type === "string") {
    input = (
      <input
        id={id}
        className="input input-sm"
        value={String(value ?? "")}
        maxLength={param.max_length}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described}
        data-testid={testId}
      />
    );
  } else {
    input = (
      <input
        id={id}
        className="input input-sm"
        type="number"
        min={param.minimum}
        max={param.maximum}
        step={param.type === "int" ? 1 : "any"}
        value={String(value ?? "")}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described}
        data-testid={testId}
      />
    );
  }
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {param.label}
        {(param.type === "int" || param.type === "float") && (
          <span className="subtle small">
            {" "}
            ({param.minimum}–{param.maximum})
          </span>
        )}
      </label>
      {input}
      {note}
    </div>
  );
}

export function PluginParamsForm({
  source,
  params,
  values,
  onChange,
  disabled,
}: {
  source: string;
  params: EngineParam[];
  values: FormValues;
  onChange: (v: FormValues) => void;
  disabled: boolean;
}) {
  if (params.length === 0) return <p className="muted small">This plug-in has no parameters.</p>;
  return (
    <div className="autolabel-params" data-testid={`autolabel-params-${source}`}>
      {params.map((p) => (
        <Field key={p.name} source={source} param={p} value={values[p.name]} disabled={disabled} onChange={(v) => onChange({ ...values, [p.name]: v })} />
      ))}
    </div>
  );
}
