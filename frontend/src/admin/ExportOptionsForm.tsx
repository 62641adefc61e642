import type { ExportFileType, ExportFormat, ExportLabelSource } from "../api";
import { useMachineSources } from "../lib/useMachineSources";
import { ExportField as Field } from "./ExportField";
import { ExportFormatFields } from "./ExportFormatFields";
import {
  COMBINE,
  DEPENDENCY_POLICIES,
  FILE_TYPES,
  FORMATS,
  LABEL_SOURCES,
  NEUTRAL,
  SPLIT_MODES,
  UNSURE,
  autoSourcesTicked,
  autoSourcesToggled,
  hasExtraColumns,
  hasSoftLabels,
  takesAutoSources,
  takesMachineLabels,
  usesAnnotations,
  type Choice,
  type ExportForm,
} from "./exportOptions";

function Select<T extends string>({
  value,
  choices,
  onChange,
  disabled,
  testId,
}: {
  value: T;
  choices: Array<Choice<T>>;
  onChange: (v: T) => void;
  disabled: boolean;
  testId: string;
}) {
  return (
    <select className="input" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as T)} data-testid={testId}>
      {choices.map((c) => (
        <option key={c.value} value={c.value} disabled={c.disabled}>
          {c.label}
          {c.disabled ? " (not yet)" : ""}
        </option>
      ))}
    </select>
  );
}

function Check({
  checked,
  onChange,
  disabled,
  title,
  help,
  testId,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  disabled: boolean;
  title: string;
  help: string;
  testId: string;
}) {
  return (
    <label className={`check export-check${disabled ? " is-disabled" : ""}`}>
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} data-testid={testId} />
      <span>
        <strong>{title}</strong> <span className="muted small">{help}</span>
      </span>
    </label>
  );
}

const helpOf = <T extends string>(choices: Array<Choice<T>>, v: T) => choices.find((c) => c.value === v)?.help;

/** Every option the export API takes, with the server's defaults and a line of help each. */
export function ExportOptionsForm({
  form,
  onChange,
  disabled,
  problems,
  serverField,
}: {
  form: ExportForm;
  onChange: (f: ExportForm) => void;
  disabled: boolean;
  /** Client-side problems by option path ("filters.min_agreement"). */
  problems: Record<string, string>;
  /** The option the server's last error named, if any. */
  serverField: string | null;
}) {
  const set = <K extends keyof ExportForm>(k: K, v: ExportForm[K]) => onChange({ ...form, [k]: v });
  const invalid = (path: string) => !!problems[path] || serverField === path;
  const cls = (path: string, extra = "") => `input${extra}${invalid(path) ? " input-invalid" : ""}`;
  const annotations = usesAnnotations(form.labelSource);
  const final = form.labelSource === "final";
  const machine = takesMachineLabels(form);
  const trl = hasExtraColumns(form.format);
  const soft = hasSoftLabels(form.format);
  const errorOf = (path: string) => problems[path] ?? (serverField === path ? "Not accepted." : null);
  const sources = useMachineSources();
  const ticked = autoSourcesTicked(sources ?? [], form.autoSources);
  const toggleAuto = (value: string, on: boolean) => set("autoSources", autoSourcesToggled(sources ?? [], form.autoSources, value, on));

  return (
    <div className="export-sections">
      <section className="export-section">
        <h3 className="export-section-title">Dataset</h3>
        <div className="export-grid">
          <Field label="Format" help={helpOf(FORMATS, form.format)} span2>
            <Select<ExportFormat> value={form.format} choices={FORMATS} onChange={(v) => set("format", v)} disabled={disabled} testId="export-format" />
          </Field>
          <Field label="File type" help={helpOf(FILE_TYPES, form.fileType)} group>
            <div className="segmented export-segmented" role="radiogroup" aria-label="File type" data-testid="export-file-type">
              {FILE_TYPES.map((t) => (
                <button
                  key={t.value}
                  type="button"
                  role="radio"
                  aria-checked={form.fileType === t.value}
                  className={form.fileType === t.value ? "on" : undefined}
                  disabled={disabled}
                  onClick={() => set("fileType", t.value as ExportFileType)}
                  data-testid={`export-file-type-${t.value}`}
                >
                  {t.label}
                </button>
              ))}
            </div>
          </Field>
          <ExportFormatFields form={form} set={set} disabled={disabled} cls={cls} errorOf={errorOf} />
        </div>
      </section>

      <section className="export-section">
        <h3 className="export-section-title">Labels</h3>
        <div className="export-grid">
          <Field label="Label source" help={helpOf(LABEL_SOURCES, form.labelSource)} error={serverField === "filters.label_source" ? "Not accepted." : null}>
            <Select<ExportLabelSource>
              value={form.labelSource}
              choices={LABEL_SOURCES}
              onChange={(v) => set("labelSource", v)}
              disabled={disabled}
              testId="export-label-source"
            />
          </Field>
          <Field label="Minimum agreement" help="0–1: the share of raters who agree with each step's label, averaged over the solution. 0 keeps all." error={problems["filters.min_agreement"]}>
            <input
              className={cls("filters.min_agreement")}
              type="number"
              min={0}
              max={1}
              step={0.05}
              value={form.minAgreement}
              disabled={disabled}
              onChange={(e) => set("minAgreement", e.target.value)}
              data-testid="export-min-agreement"
            />
          </Field>
          <Field
            label="Minimum machine-label score"
            help={
              machine
                ? "0–1: leave out suggestions whose score (the measured probability that the verdict is right) is lower, or unknown. Empty keeps all."
                : "Applies to machine label sources (auto)."
            }
            error={problems["filters.min_score"] ?? (serverField === "filters.min_score" ? "Not accepted." : null)}
          >
            <input
              className={cls("filters.min_score")}
              type="number"
              min={0}
              max={1}
              step={0.05}
              placeholder="none"
              value={machine ? form.minScore : ""}
              disabled={disabled || !machine}
              onChange={(e) => set("minScore", e.target.value)}
              data-testid="export-min-score"
            />
          </Field>
          <Field label="Unsure steps" help={helpOf(UNSURE, form.unsure)}>
            <Select value={form.unsure} choices={UNSURE} onChange={(v) => set("unsure", v)} disabled={disabled} testId="export-unsure" />
          </Field>
          <Field label="Neutral (0) steps count as" help={helpOf(NEUTRAL, form.neutral)}>
            <Select value={form.neutral} choices={NEUTRAL} onChange={(v) => set("neutral", v)} disabled={disabled} testId="export-neutral" />
          </Field>
          <Field
            label="Several annotators"
            help={
              annotations
                ? helpOf(COMBINE, form.combine)
                : final
                  ? "Final labels: one row per solution; each step takes the majority, a tie is left out."
                  : "Applies to annotation label sources."
            }
          >
            <Select value={form.combine} choices={COMBINE} onChange={(v) => set("combine", v)} disabled={disabled || !annotations} testId="export-combine" />
          </Field>
          <Field label="Step dependencies" help={helpOf(DEPENDENCY_POLICIES, form.dependencyPolicy)}>
            <Select
              value={form.dependencyPolicy}
              choices={DEPENDENCY_POLICIES}
              onChange={(v) => set("dependencyPolicy", v)}
              disabled={disabled}
              testId="export-dependency-policy"
            />
          </Field>
          {final && (
            <div className="field field-wide export-checks">
              <Check
                checked={form.machineLabels}
                onChange={(v) => set("machineLabels", v)}
                disabled={disabled}
                title="Use machine labels where no human labeled a step."
                help="Suggestions (in the order ticked below) and resolutions machine sources agreed on; off: humans' labels only."
                testId="export-machine-labels"
              />
            </div>
          )}
          {takesAutoSources(form) && (
            <div className="field field-wide">
              <span className="field-label">Suggestion sources, most preferred first</span>
              <div className="export-auto-sources" data-testid="export-auto-sources">
                {sources === null && <span className="muted small">Loading the server's sources…</span>}
                {sources?.map((s) => (
                  <label key={s.name} className="check" title={s.name}>
                    <input
                      type="checkbox"
                      checked={ticked.includes(s.name)}
                      disabled={disabled}
                      onChange={(e) => toggleAuto(s.name, e.target.checked)}
                      data-testid={`export-auto-source-${s.name}`}
                    />
                    <span>
                      {s.label}
                      {s.plugin && <span className="badge export-plugin-badge">plug-in</span>}
                    </span>
                  </label>
                ))}
              </div>
              {problems["filters.auto_sources"] && <span className="field-error">{problems["filters.auto_sources"]}</span>}
            </div>
          )}
          <div className="field field-wide export-checks">
            <Check
              checked={form.truncateAfterFirstError}
              onChange={(v) => set("truncateAfterFirstError", v)}
              disabled={disabled || form.format === "dense_rewards"}
              title="Stop after the first wrong step."
              help={
                form.format === "dense_rewards"
                  ? "Dense rewards keep every step: an RL episode is the whole trajectory."
                  : "Steps after a mistake are left out, as ProcessBench and first-error labeling assume."
              }
              testId="export-truncate"
            />
            <Check
              checked={form.humanWrittenPositive}
              onChange={(v) => set("humanWrittenPositive", v)}
              disabled={disabled}
              title="Steps a labeler wrote count as correct."
              help="PRM800K human completions without a rating, as TRL's own conversion does."
              testId="export-human-written"
            />
            <Check
              checked={soft && form.softLabels}
              onChange={(v) => set("softLabels", v)}
              disabled={disabled || !soft}
              title="Soft labels."
              help={
                !soft
                  ? "TRL, OpenRLHF and chat template formats only."
                  : form.format === "openrlhf"
                    ? "label holds floats in [0, 1]: the Monte-Carlo fraction or share of positive votes per step."
                    : "soft_labels: the Monte-Carlo fraction or share of positive votes per step, beside the boolean labels."
              }
              testId="export-soft-labels"
            />
            <Check
              checked={trl && form.labelSources}
              onChange={(v) => set("labelSources", v)}
              disabled={disabled || !trl}
              title="Label sources column."
              help={trl ? "label_sources: where each step's label came from." : "TRL format only."}
              testId="export-label-sources"
            />
          </div>
        </div>
      </section>

      <section className="export-section">
        <h3 className="export-section-title">Which solutions</h3>
        <div className="export-grid">
          <Field label="Labeled from" help="Your local time; empty: no start." error={problems["filters.labeled_after"]}>
            <input
              className={cls("filters.labeled_after")}
              type="datetime-local"
              value={form.labeledAfter}
              disabled={disabled}
              onChange={(e) => set("labeledAfter", e.target.value)}
              data-testid="export-labeled-after"
            />
          </Field>
          <Field label="Labeled before" help="Empty: up to now.">
            <input
              className={cls("filters.labeled_before")}
              type="datetime-local"
              value={form.labeledBefore}
              disabled={disabled}
              onChange={(e) => set("labeledBefore", e.target.value)}
              data-testid="export-labeled-before"
            />
          </Field>
          <Field label="Include gold questions" help="Gold (quality-control) questions are left out by default." group>
            <label className="check export-inline-check">
              <input type="checkbox" checked={form.includeGold} disabled={disabled} onChange={(e) => set("includeGold", e.target.checked)} data-testid="export-include-gold" />
              <span>Include them</span>
            </label>
          </Field>
          <Field label="Annotators" help={annotations || final ? "Usernames or imported labeler names, comma-separated; empty: all." : "Applies to annotation label sources."}>
            <input
              className={cls("filters.annotators", " mono")}
              value={form.annotators}
              placeholder="alice, bob"
              disabled={disabled || !(annotations || final)}
              onChange={(e) => set("annotators", e.target.value)}
              data-testid="export-annotators"
            />
          </Field>
          <Field label="Problem sources" help="The problems' source field (e.g. MATH, gsm8k), comma-separated; empty: all.">
            <input
              className={cls("filters.problem_sources", " mono")}
              value={form.problemSources}
              placeholder="MATH, gsm8k"
              disabled={disabled}
              onChange={(e) => set("problemSources", e.target.value)}
              data-testid="export-problem-sources"
            />
          </Field>
          <Field
            label="Decontaminate against benchmarks"
            help="Problems equal to a benchmark's, or near-duplicates of one (reworded copies), are left out; the card counts them. One a line: a JSONL file in the server's benchmark folder (rows with problem or question), or hf://owner/name/config/split. At most 5."
            error={problems["filters.decontaminate"] ?? (serverField?.startsWith("filters.decontaminate") ? "Not accepted." : null)}
          >
            <textarea
              className={cls("filters.decontaminate", " mono")}
              rows={2}
              value={form.decontaminate}
              placeholder={"math500.jsonl\nhf://openai/gsm8k/main/test"}
              disabled={disabled}
              onChange={(e) => set("decontaminate", e.target.value)}
              data-testid="export-decontaminate"
            />
          </Field>
          <Field label="Problem domains" help="Only problems of these domains (math, text, agent, ...), comma-separated; empty: all. A many-domains project's TRL rows carry a domain column.">
            <input
              className={cls("filters.domains", " mono")}
              value={form.domains}
              placeholder="math"
              disabled={disabled}
              onChange={(e) => set("domains", e.target.value)}
              data-testid="export-domains"
            />
          </Field>
        </div>
      </section>

      <section className="export-section">
        <h3 className="export-section-title">Split</h3>
        <div className="export-grid">
          <Field label="Split" help={helpOf(SPLIT_MODES, form.splitMode)}>
            <Select value={form.splitMode} choices={SPLIT_MODES} onChange={(v) => set("splitMode", v)} disabled={disabled} testId="export-split-mode" />
          </Field>
          <div className="field">
            <span className="field-label">Train / validation / test</span>
            <div className="export-fractions">
              {(["train", "validation", "test"] as const).map((k) => (
                <input
                  key={k}
                  className={cls("split_policy", " export-fraction")}
                  type="number"
                  min={0}
                  max={1}
                  step={0.01}
                  aria-label={`${k} fraction`}
                  value={form.splitMode === "none" ? "" : form[k]}
                  placeholder={form.splitMode === "none" ? "—" : undefined}
                  disabled={disabled || form.splitMode === "none"}
                  onChange={(e) => set(k, e.target.value)}
                  data-testid={`export-split-${k}`}
                />
              ))}
            </div>
            {problems.split_policy ? (
              <span className="field-error export-field-error">{problems.split_policy}</span>
            ) : (
              <span className="field-help">Fractions of the problems; they add up to 1.</span>
            )}
          </div>
          <Field label="Seed" help="Any text; a different seed gives a different split of the same problems.">
            <input
              className={cls("split_policy.seed", " mono")}
              value={form.seed}
              maxLength={200}
              placeholder="(none)"
              disabled={disabled || form.splitMode === "none"}
              onChange={(e) => set("seed", e.target.value)}
              data-testid="export-split-seed"
            />
          </Field>
        </div>
      </section>
    </div>
  );
}
