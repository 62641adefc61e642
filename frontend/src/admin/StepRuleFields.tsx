/**
 * The step rule's fields: how a solution given as one string becomes steps (labeling/steps/splitting.py).
 * The Settings tab edits the project's default with them; the Import tab picks one for an import
 * (`projectRule` set: a first choice "the project's rule").
 */
import type { StepRule, StepSplit } from "../api";

export const SPLITS: Array<{ value: StepSplit; label: string }> = [
  { value: "line", label: "One step per line" },
  { value: "paragraph", label: "One step per paragraph (blank line)" },
  { value: "sentence", label: "One step per sentence" },
  { value: "step_marker", label: '"Step k:" markers' },
  { value: "step_tags", label: "A model's step tags" },
  { value: "regex", label: "Regular expression" },
];

/** Step separator tags of well-known PRM data (labeling.models.project.STEP_TAG_PRESETS). */
export const TAG_PRESETS: Array<{ tag: string; label: string }> = [
  { tag: "<extra_0>", label: "Qwen PRM: <extra_0> after each step" },
  { tag: "ки", label: "Math-Shepherd: ки after each step" },
  { tag: "<step>", label: "<step> … </step> around each step" },
];

export function splitLabel(split: string): string {
  return SPLITS.find((s) => s.value === split)?.label ?? split;
}

/** A rule in a few words: "One step per sentence", "A model's step tags <extra_0>". */
export function ruleSummary(rule: { step_split?: string; step_split_regex?: string; step_split_tag?: string }): string {
  if (!rule.step_split) return "";
  const extra = rule.step_split === "regex" ? rule.step_split_regex : rule.step_split === "step_tags" ? rule.step_split_tag : "";
  return extra ? `${splitLabel(rule.step_split)} ${extra}` : splitLabel(rule.step_split);
}

export function StepRuleFields(props: {
  value: StepRule;
  onChange: (rule: StepRule) => void;
  disabled?: boolean;
  /** The project's own rule, offered as the first choice (the Import tab). */
  projectRule?: StepRule;
  testId?: string;
}) {
  const { value, disabled, projectRule } = props;
  const testId = props.testId ?? "step-rule";
  const set = (patch: Partial<StepRule>) => props.onChange({ ...value, ...patch });
  const preset = TAG_PRESETS.some((p) => p.tag === value.step_split_tag) ? value.step_split_tag : "custom";
  return (
    <>
      <label className="field">
        <span className="field-label">Step rule</span>
        <select
          className="input"
          value={value.step_split}
          onChange={(e) => {
            const split = e.target.value as StepSplit | "";
            // The tags rule starts on the first preset rather than on an empty tag.
            const tag = split === "step_tags" && !value.step_split_tag ? { step_split_tag: TAG_PRESETS[0].tag } : {};
            set({ step_split: split, ...tag });
          }}
          disabled={disabled}
          data-testid={`${testId}-split`}
        >
          {projectRule && <option value="">The project's rule ({ruleSummary(projectRule)})</option>}
          {SPLITS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      {value.step_split === "regex" && (
        <label className="field">
          <span className="field-label">Regular expression (the separator)</span>
          <input
            className="input mono"
            value={value.step_split_regex}
            maxLength={500}
            placeholder="e.g. \n(?=Step \d+)"
            onChange={(e) => set({ step_split_regex: e.target.value })}
            disabled={disabled}
            data-testid={`${testId}-regex`}
          />
        </label>
      )}
      {value.step_split === "step_tags" && (
        <div className="field step-tag-field">
          <span className="field-label">Step tag</span>
          <div className="step-tag-inputs">
            <select
              className="input"
              value={preset}
              onChange={(e) => set({ step_split_tag: e.target.value === "custom" ? "" : e.target.value })}
              disabled={disabled}
              aria-label="Step tag preset"
              data-testid={`${testId}-tag-preset`}
            >
              {TAG_PRESETS.map((p) => (
                <option key={p.tag} value={p.tag}>
                  {p.label}
                </option>
              ))}
              <option value="custom">Another tag…</option>
            </select>
            {preset === "custom" && (
              <input
                className="input mono"
                value={value.step_split_tag}
                maxLength={100}
                placeholder="the literal tag, e.g. <|step|>"
                onChange={(e) => set({ step_split_tag: e.target.value })}
                disabled={disabled}
                aria-label="Step tag"
                data-testid={`${testId}-tag`}
              />
            )}
          </div>
          <span className="field-help">Removed from the steps' text. A tag like &lt;step&gt; also matches &lt;/step&gt;.</span>
        </div>
      )}
    </>
  );
}
