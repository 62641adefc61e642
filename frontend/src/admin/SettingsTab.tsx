import { useState, type FormEvent } from "react";
import * as api from "../api";
import { Markdown } from "../components/Markdown";
import { ErrorBox } from "../components/ui";
import { DeleteProject } from "./DeleteProject";
import { DOMAINS } from "../lib/domains";
import { StepRuleFields } from "./StepRuleFields";

type Form = Pick<
  api.ProjectSettings,
  | "name"
  | "description"
  | "domain"
  | "guidelines"
  | "overlap"
  | "first_error_mode"
  | "show_suggestions"
  | "allow_resegment"
  | "lock_ttl_seconds"
  | "step_split"
  | "step_split_regex"
  | "step_split_tag"
  | "auto_resolve"
  | "gold_rate"
  | "screening_size"
  | "screening_pass_rate"
>;

function pick(p: api.Project): Form {
  return {
    name: p.name,
    description: p.description,
    domain: p.domain ?? "math",
    guidelines: p.guidelines,
    overlap: p.overlap,
    first_error_mode: p.first_error_mode,
    show_suggestions: p.show_suggestions,
    allow_resegment: p.allow_resegment ?? false,
    lock_ttl_seconds: p.lock_ttl_seconds,
    step_split: p.step_split,
    step_split_regex: p.step_split_regex,
    step_split_tag: p.step_split_tag ?? "",
    auto_resolve: p.auto_resolve,
    gold_rate: p.gold_rate,
    screening_size: p.screening_size,
    screening_pass_rate: p.screening_pass_rate,
  };
}

/** A 0..1 share shown and edited as a whole percentage. */
const toPct = (x: number) => Math.round(x * 1000) / 10;
const fromPct = (text: string) => Math.min(100, Math.max(0, Number(text) || 0)) / 100;

export function SettingsTab({ project, onSaved }: { project: api.Project; onSaved: (p: api.Project) => void }) {
  const [form, setForm] = useState<Form>(() => pick(project));
  const [preview, setPreview] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setSaved(false);
  };

  async function save(e: FormEvent) {
    e.preventDefault();
    if (form.step_split === "regex" && !form.step_split_regex.trim()) {
      setError("Give the regular expression that separates steps.");
      return;
    }
    if (form.step_split === "step_tags" && !form.step_split_tag?.trim()) {
      setError("Give the tag that separates steps.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const p = await api.updateProject(project.id, form);
      onSaved(p);
      setForm(pick(p));
      setSaved(true);
    } catch (err) {
      const apiErr = err as api.ApiError;
      const fields = Object.entries(apiErr.details ?? {})
        .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(" ") : String(v)}`)
        .join("; ");
      setError(fields ? `${apiErr.message} (${fields})` : apiErr.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
    <form className="stack" onSubmit={save} data-testid="settings-form">
      <div className="card">
        <h2 className="card-title">General</h2>
        <div className="form-grid">
          <label className="field">
            <span className="field-label">Name</span>
            <input className="input" value={form.name} onChange={(e) => set("name", e.target.value)} />
          </label>
          <label className="field">
            <span className="field-label">Description</span>
            <input className="input" value={form.description} onChange={(e) => set("description", e.target.value)} />
          </label>
          <label className="field">
            <span className="field-label">Domain</span>
            <select
              className="input"
              value={form.domain}
              onChange={(e) => set("domain", e.target.value as api.Domain)}
              data-testid="settings-domain"
            >
              {DOMAINS.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
            <span className="field-help">
              {DOMAINS.find((d) => d.value === form.domain)?.help} Decides the labeling page&rsquo;s rendering and
              the auto-label sources.
            </span>
          </label>
        </div>
      </div>

      <div className="card">
        <div className="card-row">
          <h2 className="card-title">Guidelines</h2>
          <div className="segmented" role="tablist">
            <button type="button" role="tab" aria-selected={!preview} className={!preview ? "on" : ""} onClick={() => setPreview(false)}>
              Write
            </button>
            <button type="button" role="tab" aria-selected={preview} className={preview ? "on" : ""} onClick={() => setPreview(true)}>
              Preview
            </button>
          </div>
        </div>
        <p className="muted small">Markdown and math ($x^2$). Annotators see this above every solution.</p>
        {preview ? (
          <div className="guidelines-preview">
            <Markdown source={form.guidelines || "_No guidelines._"} prose />
          </div>
        ) : (
          <textarea
            className="input mono guidelines-input"
            rows={14}
            value={form.guidelines}
            onChange={(e) => set("guidelines", e.target.value)}
            data-testid="settings-guidelines"
          />
        )}
      </div>

      <div className="card">
        <h2 className="card-title">Labeling</h2>
        <div className="form-grid">
          <label className="field">
            <span className="field-label">Overlap</span>
            <input
              className="input"
              type="number"
              min={1}
              max={20}
              value={form.overlap}
              onChange={(e) => set("overlap", Math.max(1, Number(e.target.value) || 1))}
            />
            <span className="field-help">
              Annotators who must submit each solution.
              {project.queue_refresh_since ? " The last change is being applied to the queue in the background." : ""}
            </span>
          </label>
          <label className="field">
            <span className="field-label">Lock time (minutes)</span>
            <input
              className="input"
              type="number"
              min={1}
              value={Math.round(form.lock_ttl_seconds / 60)}
              onChange={(e) => set("lock_ttl_seconds", Math.max(1, Number(e.target.value) || 1) * 60)}
            />
            <span className="field-help">How long a solution stays reserved for the annotator who opened it.</span>
          </label>
          <label className="check field-wide">
            <input type="checkbox" checked={form.first_error_mode} onChange={(e) => set("first_error_mode", e.target.checked)} />
            <span>
              <strong>Stop at the first wrong step.</strong>{" "}
              <span className="muted">Steps after the first −1 are not rated (PRM800K phase 2).</span>
            </span>
          </label>
          <label className="check field-wide">
            <input type="checkbox" checked={form.show_suggestions} onChange={(e) => set("show_suggestions", e.target.checked)} />
            <span>
              <strong>Show suggestions.</strong>{" "}
              <span className="muted">Machine labels (imported, symbolic checks, rollouts) appear beside each step.</span>
            </span>
          </label>
          <label className="check field-wide">
            <input
              type="checkbox"
              checked={!!form.allow_resegment}
              onChange={(e) => set("allow_resegment", e.target.checked)}
              data-testid="settings-allow-resegment"
            />
            <span>
              <strong>Let annotators split and merge steps.</strong>{" "}
              <span className="muted">
                While labeling (S / m), on solutions nobody else has claimed; exports use the new steps.
              </span>
            </span>
          </label>
        </div>
      </div>

      <div className="card" data-testid="settings-quality">
        <h2 className="card-title">Review and quality</h2>
        <div className="form-grid">
          <label className="check field-wide">
            <input
              type="checkbox"
              checked={form.auto_resolve}
              onChange={(e) => set("auto_resolve", e.target.checked)}
              data-testid="settings-auto-resolve"
            />
            <span>
              <strong>Resolve agreeing solutions automatically.</strong>{" "}
              <span className="muted">
                When the overlap&apos;s annotators submit identical ratings with no unsure step, their label is the resolved one
                (human consensus); otherwise the solution waits for review.
              </span>
            </span>
          </label>
          <label className="field">
            <span className="field-label">Gold rate (%)</span>
            <input
              className="input"
              type="number"
              min={0}
              max={100}
              step={1}
              value={toPct(form.gold_rate)}
              onChange={(e) => set("gold_rate", fromPct(e.target.value))}
              data-testid="settings-gold-rate"
            />
            <span className="field-help">Share of claims that serve a gold question, unannounced (10 = one in ten). 0: never.</span>
          </label>
          <span />
          <label className="field">
            <span className="field-label">Screening questions</span>
            <input
              className="input"
              type="number"
              min={0}
              max={1000}
              value={form.screening_size}
              onChange={(e) => set("screening_size", Math.max(0, Math.floor(Number(e.target.value) || 0)))}
              data-testid="settings-screening-size"
            />
            <span className="field-help">Gold questions a new annotator answers before any other work (PRM800K used 30). 0: none.</span>
          </label>
          <label className="field">
            <span className="field-label">Screening pass mark (%)</span>
            <input
              className="input"
              type="number"
              min={0}
              max={100}
              value={toPct(form.screening_pass_rate)}
              disabled={form.screening_size === 0}
              onChange={(e) => set("screening_pass_rate", fromPct(e.target.value))}
              data-testid="settings-screening-pass"
            />
            <span className="field-help">Share of their rated steps that must match gold. Below it they get no more work.</span>
          </label>
        </div>
      </div>

      <div className="card">
        <h2 className="card-title">Splitting solutions into steps</h2>
        <p className="muted small">
          Used for imported solutions that come as one text, unless an import picks its own rule. The steps of a
          model's <code>&lt;think&gt;…&lt;/think&gt;</code> block are kept as reasoning steps, folded on the label page.
        </p>
        <div className="form-grid">
          <StepRuleFields
            value={{ step_split: form.step_split, step_split_regex: form.step_split_regex, step_split_tag: form.step_split_tag ?? "" }}
            onChange={(rule) => {
              setForm((f) => ({ ...f, ...rule, step_split: rule.step_split || f.step_split }));
              setSaved(false);
            }}
            testId="settings-step-rule"
          />
        </div>
      </div>

      {error && <ErrorBox>{error}</ErrorBox>}
      <div className="form-actions sticky-actions">
        {saved && <span className="text-green small">Saved</span>}
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="settings-save">
          {busy ? "Saving…" : "Save settings"}
        </button>
      </div>
    </form>
    {project.role === "admin" && <DeleteProject project={project} />}
    </>
  );
}
