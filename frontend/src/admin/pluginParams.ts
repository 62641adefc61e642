/**
 * The parameter forms of engine plug-ins, from the schema the server lists
 * (GET /api/autolabel-engines/): default values, the values a run sends, and the problems the
 * server would refuse (the same bounds autolabel/plugins/schema.py checks).
 */
import type { AutolabelEngine, EngineParam } from "../api";

/** What the form holds per field: numbers as typed text until they are sent. */
export type FormValues = Record<string, string | boolean>;

export function pluginDefaults(params: EngineParam[]): FormValues {
  return Object.fromEntries(params.map((p) => [p.name, p.type === "bool" ? p.default : String(p.default)]));
}

/** The plug-ins that apply to a project of this domain (all of them in a many-domains one). */
export function pluginsForDomain(engines: AutolabelEngine[], domain: string | undefined): AutolabelEngine[] {
  return engines.filter((e) => !e.builtin && (!domain || domain === "mixed" || e.domains.length === 0 || e.domains.includes(domain)));
}

/** The problem with one field's value, or null when the server will take it. */
export function fieldProblem(p: EngineParam, value: string | boolean | undefined): string | null {
  switch (p.type) {
    case "bool":
      return typeof value === "boolean" ? null : `${p.label}: choose yes or no.`;
    case "int":
    case "float": {
      const text = String(value ?? "").trim();
      const n = Number(text);
      if (text === "" || !Number.isFinite(n)) return `${p.label}: enter a number.`;
      if (p.type === "int" && !Number.isInteger(n)) return `${p.label}: enter a whole number.`;
      if (n < p.minimum || n > p.maximum) return `${p.label}: from ${p.minimum} to ${p.maximum}.`;
      return null;
    }
    case "string": {
      const text = String(value ?? "");
      if (text.length > p.max_length) return `${p.label}: at most ${p.max_length} characters (${text.length} now).`;
      return text.includes("\u0000") ? `${p.label}: no NUL characters.` : null;
    }
    case "choice":
      return p.choices.includes(String(value)) ? null : `${p.label}: choose one of ${p.choices.join(", ")}.`;
  }
}

export function formProblems(params: EngineParam[], values: FormValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of params) {
    const problem = fieldProblem(p, values[p.name]);
    if (problem) out[p.name] = problem;
  }
  return out;
}

/** The params a run sends: only the fields that differ from their default, typed. */
export function pluginRequestParams(params: EngineParam[], values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params) {
    const raw = values[p.name];
    if (raw === undefined) continue;
    const value = p.type === "int" || p.type === "float" ? Number(String(raw).trim()) : p.type === "bool" ? raw === true : String(raw);
    if (value !== p.default) out[p.name] = value;
  }
  return out;
}

/** "min hits 2 · verdict neutral": the folded form's summary of what differs from defaults. */
export function pluginSummary(params: EngineParam[], values: FormValues): string {
  const changed = pluginRequestParams(params, values);
  const parts = params.filter((p) => p.name in changed).map((p) => `${p.label} ${String(changed[p.name])}`);
  return parts.length ? parts.join(" · ") : "defaults";
}
