import { ExportField as Field } from "./ExportField";
import type { ExportForm } from "./exportOptions";

/** The options of the formats that take their own: OpenRLHF's tokens, the chat template's tokenizer. */
export function ExportFormatFields({
  form,
  set,
  disabled,
  cls,
  errorOf,
}: {
  form: ExportForm;
  set: <K extends keyof ExportForm>(k: K, v: ExportForm[K]) => void;
  disabled: boolean;
  /** The input's class for an option path (invalid ones marked). */
  cls: (path: string, extra?: string) => string;
  errorOf: (path: string) => string | null;
}) {
  return (
    <>
    {form.format === "openrlhf" && (
      <>
        <Field label="Placeholder token" help="After each step in input (OpenRLHF's --placeholder_token)." error={errorOf("label_policy.placeholder_token")}>
          <input
            className={cls("label_policy.placeholder_token", " mono")}
            value={form.placeholderToken}
            maxLength={32}
            disabled={disabled}
            onChange={(e) => set("placeholderToken", e.target.value)}
            data-testid="export-placeholder-token"
          />
        </Field>
        <Field label="Reward tokens" help="The labels of correct and wrong steps (--reward_tokens)." error={errorOf("label_policy.reward_tokens")} group>
          <div className="export-token-pair">
            <input
              className={cls("label_policy.reward_tokens", " mono")}
              value={form.rewardPositive}
              maxLength={32}
              aria-label="Correct step token"
              disabled={disabled}
              onChange={(e) => set("rewardPositive", e.target.value)}
              data-testid="export-reward-positive"
            />
            <input
              className={cls("label_policy.reward_tokens", " mono")}
              value={form.rewardNegative}
              maxLength={32}
              aria-label="Wrong step token"
              disabled={disabled}
              onChange={(e) => set("rewardNegative", e.target.value)}
              data-testid="export-reward-negative"
            />
          </div>
        </Field>
      </>
    )}
    {form.format === "chat_template" && (
      <>
        <Field label="Tokenizer" help="A tokenizer directory on the server, or a name in its Hugging Face cache (nothing is downloaded)." error={errorOf("label_policy.tokenizer")} span2>
          <input
            className={cls("label_policy.tokenizer", " mono")}
            value={form.tokenizer}
            maxLength={300}
            placeholder="/models/Qwen2.5-Math-PRM-7B"
            disabled={disabled}
            onChange={(e) => set("tokenizer", e.target.value)}
            data-testid="export-tokenizer"
          />
        </Field>
        <Field label="Step separator" help="One token of the tokenizer, after each step." error={errorOf("label_policy.step_separator")}>
          <input
            className={cls("label_policy.step_separator", " mono")}
            value={form.stepSeparator}
            maxLength={32}
            disabled={disabled}
            onChange={(e) => set("stepSeparator", e.target.value)}
            data-testid="export-step-separator"
          />
        </Field>
        <Field label="System message" help="Before the problem; empty: no system turn." error={errorOf("label_policy.system_prompt")} wide>
          <input
            className={cls("label_policy.system_prompt")}
            value={form.systemPrompt}
            maxLength={4000}
            placeholder="Please reason step by step."
            disabled={disabled}
            onChange={(e) => set("systemPrompt", e.target.value)}
            data-testid="export-system-prompt"
          />
        </Field>
      </>
    )}
    </>
  );
}
