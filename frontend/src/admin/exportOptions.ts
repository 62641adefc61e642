/**
 * The export tab's pure parts: the option catalogue (what labeling/api/exports.py accepts, with
 * the server's defaults), the form state, the request it sends, client-side checks, and small
 * formatting helpers.
 */
import type {
  BenchmarkSet,
  MachineSource,
  Export,
  ExportFileType,
  ExportFormat,
  ExportLabelSource,
  ExportLabelPolicy,
  ExportRequest,
  ExportStatus,
} from "../api";

export interface Choice<T extends string> {
  value: T;
  label: string;
  help: string;
  disabled?: boolean;
}

export const FORMATS: Array<Choice<ExportFormat>> = [
  {
    value: "trl",
    label: "TRL stepwise supervision",
    help: "prompt, completions (the steps), labels (true/false per step): what TRL's PRMTrainer reads.",
  },
  {
    value: "prm800k",
    label: "PRM800K",
    help: "question + label.steps[].completions[] with ratings −1/0/+1 and finish_reason; keeps every imported rating.",
  },
  {
    value: "math_shepherd",
    label: "Math-Shepherd",
    help: "input with each step tagged “ки”, label with the tags replaced by + or −.",
  },
  {
    value: "processbench",
    label: "ProcessBench",
    help: "steps, label = index of the earliest wrong step (−1: none), final_answer_correct.",
  },
  {
    value: "pairwise",
    label: "Pairwise preferences",
    help: "prompt, prefix, chosen (a correct next step), rejected (a wrong one) at the same prefix.",
  },
  {
    value: "dense_rewards",
    label: "Dense rewards (RL episodes)",
    help: "One episode per line: steps with obs, action, reward (−1/0/+1 label), done and the logged success signal; for embodied projects.",
  },
  {
    value: "openrlhf",
    label: "OpenRLHF PRM",
    help: "input (the problem and steps, a placeholder token after each step) and label (+/− per step, or floats with soft labels): what OpenRLHF's train_prm reads.",
  },
  {
    value: "chat_template",
    label: "Chat template (tokenizer)",
    help: "text rendered by your tokenizer's chat template with a separator (<extra_0>) after each step, the separators' token positions and the labels: ready for a trainer.",
  },
];

export const FILE_TYPES: Array<Choice<ExportFileType>> = [
  { value: "jsonl", label: "JSONL", help: "One JSON object per line." },
  { value: "jsonl.gz", label: "JSONL gzip", help: "The same, gzip-compressed." },
  { value: "parquet", label: "Parquet", help: "Columnar (pyarrow); loads with datasets.load_dataset." },
];

export const LABEL_SOURCES: Array<Choice<ExportLabelSource>> = [
  {
    value: "final",
    label: "Final labels (default)",
    help: "Per step: a reviewer's resolution, else the annotators' majority (a tie is left out), else a single annotator's label. Machine labels only if you tick them.",
  },
  { value: "annotations", label: "All annotations", help: "Submitted labels by annotators here and labels imported with the data." },
  { value: "human", label: "Human annotators", help: "Only labels submitted by this project's annotators." },
  { value: "imported", label: "Imported labels", help: "Only labels imported with a dataset (imported as annotations)." },
  { value: "auto_consensus", label: "Auto: consensus", help: "Suggestions of the consensus source (agreeing auto-labelers)." },
  { value: "auto_any", label: "Auto: any source", help: "Suggestions from the sources ticked below, the first one on a step wins." },
  { value: "reviewed", label: "Reviewed only", help: "Each solution's resolved label: a reviewer's decision, or its annotators' agreement. Unresolved solutions are left out." },
];

/** The sources ticked: the form's choice, or (null) the server's default auto_sources. The
 * sources themselves come from the server (GET /api/machine-sources/), plug-ins included. */
export function autoSourcesTicked(sources: MachineSource[], chosen: string[] | null): string[] {
  return chosen ?? sources.filter((s) => s.default).map((s) => s.name);
}

/** The ticked sources after (un)ticking `name`, in the listed order (most preferred first). */
export function autoSourcesToggled(sources: MachineSource[], chosen: string[] | null, name: string, on: boolean): string[] {
  const ticked = new Set(autoSourcesTicked(sources, chosen));
  if (on) ticked.add(name);
  else ticked.delete(name);
  return sources.map((s) => s.name).filter((n) => ticked.has(n));
}

export const UNSURE: Array<Choice<"drop" | "truncate" | "keep">> = [
  { value: "drop", label: "Drop the solution", help: "Leave out every solution with an unsure step." },
  { value: "truncate", label: "Cut before it", help: "End the row before the first unsure step." },
  { value: "keep", label: "Keep its rating", help: "Unsure steps count with the rating they have." },
];

export const NEUTRAL: Array<Choice<"positive" | "negative">> = [
  { value: "positive", label: "Correct", help: "A neutral (0) step counts as correct, as PRM800K-trained models mostly do." },
  { value: "negative", label: "Wrong", help: "A neutral (0) step counts as wrong (strict)." },
];

export const COMBINE: Array<Choice<"majority" | "per_annotation">> = [
  { value: "majority", label: "Majority per step", help: "One row per solution; ties go to the more negative rating." },
  { value: "per_annotation", label: "One row per annotation", help: "Every annotator's labels as their own row." },
];

export const DEPENDENCY_POLICIES: Array<Choice<"none" | "keep" | "inherit">> = [
  { value: "none", label: "Not exported", help: "No uses column; labels as given." },
  {
    value: "keep",
    label: "Export them",
    help: "Each step gets uses (the earlier steps it uses, 0-based) and inherited: TRL, ProcessBench, PRM800K and dense-rewards rows; pairwise rows get chosen_uses and rejected_uses; Math-Shepherd none. Labels as given.",
  },
  {
    value: "inherit",
    label: "Export, and pass errors on",
    help: "A step that uses a wrong step (directly or through others) is exported as wrong, with inherited: true. Untick \"stop after the first wrong step\" to see it.",
  },
];

export const SPLIT_MODES: Array<Choice<"hash" | "none">> = [
  { value: "hash", label: "Train / validation / test", help: "By a hash of the problem: one problem never lands in two splits." },
  { value: "none", label: "No split", help: "No split column (e.g. to round-trip a dataset)." },
];

export interface ExportForm {
  format: ExportFormat;
  fileType: ExportFileType;
  labelSource: ExportLabelSource;
  /** Final labels: machine labels for the steps no human labeled. */
  machineLabels: boolean;
  /** null: the server's default auto_sources (left out of the request). */
  autoSources: string[] | null;
  minAgreement: string;
  /** Machine label sources only; empty: no threshold. */
  minScore: string;
  unsure: "drop" | "truncate" | "keep";
  /** datetime-local values ("2025-06-01T10:00"), local time; empty: no bound. */
  labeledAfter: string;
  labeledBefore: string;
  /** Comma-separated. */
  annotators: string;
  problemSources: string;
  /** Comma-separated problem domains (math, text, ...); empty: all. */
  domains: string;
  includeGold: boolean;
  /** Benchmarks to decontaminate against, one a line: a file name or hf://owner/name[/config/split]. */
  decontaminate: string;
  neutral: "positive" | "negative";
  truncateAfterFirstError: boolean;
  humanWrittenPositive: boolean;
  softLabels: boolean;
  labelSources: boolean;
  combine: "majority" | "per_annotation";
  dependencyPolicy: "none" | "keep" | "inherit";
  /** openrlhf: the step tag and the positive / negative reward tokens. */
  placeholderToken: string;
  rewardPositive: string;
  rewardNegative: string;
  /** chat_template: tokenizer path or cached name, step separator, system message. */
  tokenizer: string;
  stepSeparator: string;
  systemPrompt: string;
  splitMode: "hash" | "none";
  train: string;
  validation: string;
  test: string;
  seed: string;
}

/** The server's defaults. */
export const DEFAULT_FORM: ExportForm = {
  format: "trl",
  fileType: "jsonl",
  labelSource: "final",
  machineLabels: false,
  autoSources: null,
  minAgreement: "0",
  minScore: "",
  unsure: "drop",
  labeledAfter: "",
  labeledBefore: "",
  annotators: "",
  problemSources: "",
  domains: "",
  includeGold: false,
  decontaminate: "",
  neutral: "positive",
  truncateAfterFirstError: true,
  humanWrittenPositive: true,
  softLabels: false,
  labelSources: false,
  combine: "majority",
  dependencyPolicy: "none",
  placeholderToken: "ки",
  rewardPositive: "+",
  rewardNegative: "-",
  tokenizer: "",
  stepSeparator: "<extra_0>",
  systemPrompt: "",
  splitMode: "hash",
  train: "0.9",
  validation: "0.05",
  test: "0.05",
  seed: "",
};

export const usesAnnotations = (source: ExportLabelSource) =>
  source === "human" || source === "imported" || source === "annotations";

/** Labels from machine suggestions: the ones that carry a score. */
export const usesSuggestions = (source: ExportLabelSource) => source === "auto_consensus" || source === "auto_any";

/** The form takes machine labels: a machine source, or final labels with machine labels ticked. */
export const takesMachineLabels = (form: Pick<ExportForm, "labelSource" | "machineLabels">) =>
  usesSuggestions(form.labelSource) || (form.labelSource === "final" && form.machineLabels);

/** The suggestion sources (and their order) apply: auto_any, or final labels with machine labels. */
export const takesAutoSources = (form: Pick<ExportForm, "labelSource" | "machineLabels">) =>
  form.labelSource === "auto_any" || (form.labelSource === "final" && form.machineLabels);

/** The label_sources column exists in the TRL format only. */
export const hasExtraColumns = (format: ExportFormat) => format === "trl";

/** Formats that carry soft labels: a soft_labels column (TRL, chat template), float labels (OpenRLHF). */
export const hasSoftLabels = (format: ExportFormat) =>
  format === "trl" || format === "openrlhf" || format === "chat_template";

/** The server's bounds (labeling/exporters/options.py). */
export const TOKEN_MAX = 32;
export const TOKENIZER_MAX = 300;
export const SYSTEM_PROMPT_MAX = 4000;

function tokenProblem(text: string): string | null {
  if (!text.trim()) return "Required.";
  if (text.length > TOKEN_MAX) return `At most ${TOKEN_MAX} characters.`;
  if (/[\n\r\t]/.test(text)) return "No line breaks or tabs.";
  return null;
}

export function listOf(text: string): string[] {
  return [...new Set(text.split(",").map((s) => s.trim()).filter(Boolean))];
}

function fraction(text: string): number | null {
  if (text.trim() === "") return null;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : null;
}

/** A datetime-local value as an ISO instant (the browser's time zone), or null. */
export function isoFromLocal(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** Benchmark sets an export can be decontaminated against (labeling/exporters/decontaminate.py). */
export const BENCHMARK_SETS_MAX = 5;

/** One benchmark a line: a JSONL file name in the server's benchmark folder, or
 * hf://owner/name (split test of config default) or hf://owner/name/config/split. */
export function benchmarkSets(text: string): BenchmarkSet[] | string {
  const sets: BenchmarkSet[] = [];
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    if (!line.startsWith("hf://")) {
      sets.push({ file: line });
      continue;
    }
    const parts = line.slice(5).split("/");
    if (parts.length !== 2 && parts.length !== 4) return `${line}: write hf://owner/name or hf://owner/name/config/split.`;
    const [config, split] = parts.length === 4 ? parts.slice(2) : ["default", "test"];
    sets.push({ hub: `${parts[0]}/${parts[1]}`, config, split });
  }
  if (sets.length > BENCHMARK_SETS_MAX) return `At most ${BENCHMARK_SETS_MAX} benchmarks.`;
  return sets;
}

/** What the server would refuse, keyed by the option's path (as the API names it). */
export function formProblems(form: ExportForm): Record<string, string> {
  const problems: Record<string, string> = {};
  if (fraction(form.minAgreement) === null) problems["filters.min_agreement"] = "A number from 0 to 1.";
  if (takesMachineLabels(form) && form.minScore.trim() !== "" && fraction(form.minScore) === null)
    problems["filters.min_score"] = "A number from 0 to 1, or empty for none.";
  if (takesAutoSources(form) && form.autoSources !== null && form.autoSources.length === 0)
    problems["filters.auto_sources"] = "Tick at least one source.";
  const after = isoFromLocal(form.labeledAfter);
  const before = isoFromLocal(form.labeledBefore);
  if (after && before && after >= before) problems["filters.labeled_after"] = "Must be before the end date.";
  if (form.format === "openrlhf") {
    const placeholder = tokenProblem(form.placeholderToken);
    if (placeholder) problems["label_policy.placeholder_token"] = placeholder;
    const reward = tokenProblem(form.rewardPositive) ?? tokenProblem(form.rewardNegative);
    const tokens = [form.placeholderToken, form.rewardPositive, form.rewardNegative];
    if (reward) problems["label_policy.reward_tokens"] = reward;
    else if (new Set(tokens).size < 3) problems["label_policy.reward_tokens"] = "The placeholder and the two reward tokens must all differ.";
  }
  if (form.format === "chat_template") {
    if (!form.tokenizer.trim()) problems["label_policy.tokenizer"] = "Required: a tokenizer directory on the server, or a name in its Hugging Face cache.";
    else if (form.tokenizer.length > TOKENIZER_MAX) problems["label_policy.tokenizer"] = `At most ${TOKENIZER_MAX} characters.`;
    const separator = tokenProblem(form.stepSeparator);
    if (separator) problems["label_policy.step_separator"] = separator;
    if (form.systemPrompt.length > SYSTEM_PROMPT_MAX) problems["label_policy.system_prompt"] = `At most ${SYSTEM_PROMPT_MAX} characters.`;
  }
  const sets = benchmarkSets(form.decontaminate);
  if (typeof sets === "string") problems["filters.decontaminate"] = sets;
  if (form.splitMode === "hash") {
    const parts = [form.train, form.validation, form.test].map(fraction);
    if (parts.some((p) => p === null)) problems.split_policy = "Each fraction is a number from 0 to 1.";
    else {
      const sum = (parts as number[]).reduce((a, b) => a + b, 0);
      if (Math.abs(sum - 1) > 1e-6) problems.split_policy = `Train + validation + test must add up to 1 (now ${+sum.toFixed(4)}).`;
    }
  }
  return problems;
}

/** The POST body. Options that do not apply are left out so the server's defaults hold. */
export function buildExportRequest(form: ExportForm): ExportRequest {
  const filters: NonNullable<ExportRequest["filters"]> = {
    label_source: form.labelSource,
    min_agreement: fraction(form.minAgreement) ?? 0,
    unsure: form.unsure,
    include_gold: form.includeGold,
  };
  if (form.labelSource === "final" && form.machineLabels) filters.machine_labels = true;
  const minScore = fraction(form.minScore);
  if (takesMachineLabels(form) && minScore !== null) filters.min_score = minScore;
  if (takesAutoSources(form) && form.autoSources !== null) filters.auto_sources = form.autoSources;
  const after = isoFromLocal(form.labeledAfter);
  const before = isoFromLocal(form.labeledBefore);
  if (after) filters.labeled_after = after;
  if (before) filters.labeled_before = before;
  const annotators = listOf(form.annotators);
  if (annotators.length && (usesAnnotations(form.labelSource) || form.labelSource === "final")) filters.annotators = annotators;
  const sources = listOf(form.problemSources);
  if (sources.length) filters.problem_sources = sources;
  const domains = listOf(form.domains);
  if (domains.length) filters.domains = domains;
  const sets = benchmarkSets(form.decontaminate);
  if (typeof sets !== "string" && sets.length) filters.decontaminate = sets;

  const label_policy: ExportLabelPolicy = {
    neutral: form.neutral,
    truncate_after_first_error: form.truncateAfterFirstError,
    human_written_positive: form.humanWrittenPositive,
  };
  if (usesAnnotations(form.labelSource)) label_policy.combine = form.combine;
  if (form.dependencyPolicy !== "none") label_policy.dependency_policy = form.dependencyPolicy;
  if (hasSoftLabels(form.format)) label_policy.soft_labels = form.softLabels;
  if (hasExtraColumns(form.format)) label_policy.label_sources = form.labelSources;
  if (form.format === "openrlhf") {
    label_policy.placeholder_token = form.placeholderToken;
    label_policy.reward_tokens = [form.rewardPositive, form.rewardNegative];
  }
  if (form.format === "chat_template") {
    label_policy.tokenizer = form.tokenizer.trim();
    label_policy.step_separator = form.stepSeparator;
    if (form.systemPrompt.trim()) label_policy.system_prompt = form.systemPrompt;
  }

  const split_policy: NonNullable<ExportRequest["split_policy"]> = { mode: form.splitMode };
  if (form.splitMode === "hash") {
    split_policy.train = fraction(form.train) ?? 0;
    split_policy.validation = fraction(form.validation) ?? 0;
    split_policy.test = fraction(form.test) ?? 0;
    if (form.seed.trim()) split_policy.seed = form.seed.trim();
  }

  return { format: form.format, file_type: form.fileType, filters, label_policy, split_policy };
}

export function isActive(e: Pick<Export, "status"> | null | undefined): boolean {
  return !!e && (e.status === "pending" || e.status === "running");
}

/** 0..1: full once done, else the server's fraction of solutions read. */
export function exportFraction(e: Export): number {
  if (e.status === "done") return 1;
  const f = e.progress?.fraction;
  return typeof f === "number" && Number.isFinite(f) ? Math.max(0, Math.min(1, f)) : 0;
}

export function percent(fraction: number): string {
  // A big export at 99.6% must not read "100%" while it is still being written.
  return `${fraction < 1 ? Math.min(99, Math.floor(fraction * 100)) : 100}%`;
}

export const STATUS_TEXT: Record<ExportStatus, string> = {
  pending: "Queued",
  running: "Building",
  done: "Done",
  failed: "Failed",
};

export const FORMAT_LABEL: Record<string, string> = Object.fromEntries(FORMATS.map((f) => [f.value, f.label]));
export const FILE_TYPE_LABEL: Record<string, string> = Object.fromEntries(FILE_TYPES.map((f) => [f.value, f.label]));

export function shortSha(sha: string): string {
  return sha ? sha.slice(0, 12) : "";
}

/** A short summary of an export's non-default options, for the list ("human · min agreement 0.8"). */
export function optionsSummary(e: Export): string {
  const parts: string[] = [];
  const f = e.filters ?? {};
  const p = e.label_policy ?? {};
  const s = e.split_policy ?? {};
  const source = LABEL_SOURCES.find((c) => c.value === f.label_source);
  if (source) parts.push(source.label.replace(" (default)", "").toLowerCase());
  if (f.machine_labels) parts.push("with machine labels");
  if (f.min_agreement) parts.push(`agreement ≥ ${f.min_agreement}`);
  if (f.min_score != null) parts.push(`machine score ≥ ${f.min_score}`);
  if (f.unsure && f.unsure !== "drop") parts.push(`unsure: ${f.unsure}`);
  if (f.annotators?.length) parts.push(`${f.annotators.length} annotator${f.annotators.length === 1 ? "" : "s"}`);
  if (f.problem_sources?.length) parts.push(`sources: ${f.problem_sources.join(", ")}`);
  if (f.domains?.length) parts.push(`domains: ${f.domains.join(", ")}`);
  if (f.decontaminate?.length) parts.push(`decontaminated (${f.decontaminate.length} benchmark${f.decontaminate.length === 1 ? "" : "s"})`);
  if (f.labeled_after || f.labeled_before) parts.push("date range");
  if (p.neutral === "negative") parts.push("neutral → wrong");
  if (p.truncate_after_first_error === false) parts.push("not truncated");
  if (p.soft_labels) parts.push("soft labels");
  if (p.label_sources) parts.push("label sources");
  if (p.combine === "per_annotation") parts.push("per annotation");
  if (p.dependency_policy === "keep") parts.push("step dependencies");
  if (p.dependency_policy === "inherit") parts.push("dependencies, errors passed on");
  if (e.format === "openrlhf" && p.placeholder_token && p.placeholder_token !== "ки") parts.push(`placeholder ${p.placeholder_token}`);
  if (e.format === "chat_template" && p.tokenizer) parts.push(`tokenizer ${p.tokenizer.split("/").filter(Boolean).pop()}`);
  if (s.mode === "none") parts.push("no split");
  else if (s.train !== undefined && (s.train !== 0.9 || s.validation !== 0.05 || s.test !== 0.05))
    parts.push(`split ${s.train}/${s.validation}/${s.test}`);
  return parts.join(" · ");
}

export { errorField, errorLines, FINAL_ORIGINS, finalLabelsOf, skippedLines, splitFrontMatter } from "./exportResults";
