/** The auto-label tab's pure parts: the source catalogue, the request it sends, run arithmetic. */
import type { ApiError, AutolabelRun, AutolabelRunRequest, AutolabelSource } from "../api";

export interface SourceInfo {
  name: AutolabelSource;
  label: string;
  description: string;
  /**
   * "model": needs a model server or local weights (params form); "soon": listed, but the server
   * may answer 400 that it is not available yet.
   */
  availability: "now" | "model" | "soon";
  /** Which parameters form it has, if any. */
  form?: "rollout" | "judge" | "prm";
}

export const SOURCES: SourceInfo[] = [
  {
    name: "answer",
    label: "Final answer",
    description: "Checks each solution's final answer against the reference answer (math-verify) and records whether it is correct.",
    availability: "now",
  },
  {
    name: "symbolic",
    label: "Symbolic check",
    description:
      "Re-computes the arithmetic and algebra claimed in each step with SymPy: a false claim → −1 only when claims of its kind have earned it on benchmark data, else evidence (“looks wrong, not refuted”); verified → evidence (“checks out”), never +1; undecided → nothing.",
    availability: "now",
  },
  {
    name: "rollout",
    label: "Monte-Carlo rollouts",
    description: "Continues the solution from each step with a model several times; the share of rollouts reaching the right answer scores the step.",
    availability: "model",
    form: "rollout",
  },
  {
    name: "judge",
    label: "LLM judge",
    description: "Asks a model behind an OpenAI-compatible server to rate each step, with a short rationale.",
    availability: "model",
    form: "judge",
  },
  {
    name: "code",
    label: "Code execution",
    description:
      "For code problems: runs the program up to each step in a sandbox (a crash → −1 on the step that raises), then the whole program against the problem's tests (pass → +1, fail → −1 on the last step).",
    availability: "now",
  },
  {
    name: "agent",
    label: "Agent checks",
    description:
      "For agent trajectories: flags malformed tool calls (arguments that are not JSON, unknown tools, arguments against the tool's schema, calls no observation answers) and observations that report an error (tracebacks, error fields, HTTP 4xx/5xx, non-zero exit codes) with −1 and the evidence. Never +1.",
    availability: "now",
  },
  {
    name: "graph",
    label: "Graph check",
    description:
      "For graph problems: reads each step's claims about the problem's graph (distances, path lengths, edge weights, reachability, cycles, topological orders, traversals, matchings) and decides them exactly with networkx: a false claim → −1 with the true value; all claims true → evidence only, never +1.",
    availability: "now",
  },
  {
    name: "citation",
    label: "Citation check",
    description:
      "For evidence-cited steps: a cited quote must be in its document (case and spacing aside), a cited span inside it, and numbers the step states from a cited table cell or passage must match it (currency, thousands separators, %, scale words, rounding). A failure is −1 with the evidence; a step whose every citation checks out gets evidence only, never +1.",
    availability: "now",
  },
  {
    name: "subgoal",
    label: "Subgoal log check",
    description:
      "For embodied episodes: replays the logged success signals and predicates. A step logged as failed → −1; an action whose preconditions the state reached so far does not satisfy → −1; a success that contradicts the episode's outcome is flagged; a verified successful subgoal gets “checks out” evidence (not a rating).",
    availability: "now",
  },
  {
    name: "prm",
    label: "Trained PRM",
    description:
      "Scores every step with a process reward model registered on the Training tab, trained on this project's labels or a public one (Qwen2.5-Math-PRM, Math-Shepherd) read by its own convention: probability ≥ threshold → +1, below → −1, with the probability as the score.",
    availability: "model",
    form: "prm",
  },
  {
    name: "consensus",
    label: "Consensus",
    description:
      "Runs after the other sources: keeps a solution's labels only where rollouts and the judge agree on the first error and no symbolic refutation contradicts them. Choose it with those sources.",
    availability: "now",
  },
];

/** The sources a project's domain allows, in the domain's order (all of them when unknown). */
export function sourcesForDomain(all: SourceInfo[], allowed: string[] | undefined): SourceInfo[] {
  if (!allowed) return all;
  return allowed.map((name) => all.find((s) => s.name === name)).filter((s): s is SourceInfo => s !== undefined);
}

export const SOURCE_LABEL: Record<string, string> = Object.fromEntries(SOURCES.map((s) => [s.name, s.label]));

export interface ModelParams {
  kind: "openai" | "transformers";
  base_url: string;
  model: string;
  path: string;
  gguf_file: string;
  method: "mc" | "binary_search";
  n: number;
}

export const DEFAULT_PARAMS: ModelParams = {
  kind: "openai",
  base_url: "",
  model: "",
  path: "",
  gguf_file: "",
  method: "mc",
  n: 8,
};

function backendOf(p: ModelParams, allowLocal: boolean): Record<string, string> {
  if (allowLocal && p.kind === "transformers") {
    const b: Record<string, string> = { kind: "transformers" };
    if (p.path.trim()) b.path = p.path.trim();
    if (p.gguf_file.trim()) b.gguf_file = p.gguf_file.trim();
    return b;
  }
  const b: Record<string, string> = { kind: "openai" };
  if (p.base_url.trim()) b.base_url = p.base_url.trim();
  if (p.model.trim()) b.model = p.model.trim();
  return b;
}

/** How the prm source reads its model: trained here, or a public PRM's own convention. */
export type PrmConvention = "steplab" | "qwen" | "math-shepherd" | "seq-cls";

export const PRM_CONVENTIONS: { value: PrmConvention; label: string }[] = [
  { value: "steplab", label: "Trained here" },
  { value: "qwen", label: "Qwen2.5-Math-PRM" },
  { value: "math-shepherd", label: "Math-Shepherd" },
  { value: "seq-cls", label: "Sequence classifier" },
];

/** The prm source's parameters: a registered model (Training tab), how it reads, and the
 * +1/−1 threshold. */
export interface PrmParams {
  model_id: number | null;
  threshold: number;
  convention: PrmConvention;
}

export const DEFAULT_PRM: PrmParams = { model_id: null, threshold: 0.5, convention: "steplab" };

export function prmProblem(p: PrmParams): string | null {
  if (p.model_id === null) return "Choose a trained model (train or register one on the Training tab).";
  if (!(p.threshold > 0 && p.threshold < 1)) return "The threshold must be between 0 and 1.";
  return null;
}

/** The POST body. Sources keep the catalogue's order; only the chosen sources get params. */
export function buildRunRequest(
  selected: ReadonlySet<string>,
  params: { rollout: ModelParams; judge: ModelParams; prm?: PrmParams },
  onlyUnlabeled: boolean,
  plugins: { name: string; params: Record<string, unknown> }[] = [],
): AutolabelRunRequest {
  const chosen = plugins.filter((p) => selected.has(p.name));
  const sources: string[] = [...SOURCES.map((s) => s.name).filter((n) => selected.has(n)), ...chosen.map((p) => p.name)];
  const out: NonNullable<AutolabelRunRequest["params"]> = {};
  for (const p of chosen) if (Object.keys(p.params).length) out[p.name] = p.params;
  if (selected.has("rollout")) {
    const p = params.rollout;
    // The engine counts rollouts per step prefix as `n` (mc), per probed prefix as `k` (binary search).
    out.rollout = { backend: backendOf(p, true), method: p.method, [p.method === "binary_search" ? "k" : "n"]: p.n };
  }
  if (selected.has("judge")) out.judge = { backend: backendOf(params.judge, false) };
  if (selected.has("prm") && params.prm) {
    const { model_id, threshold, convention } = params.prm;
    out.prm = model_id === null ? { threshold } : { model_id, threshold };
    if (convention !== "steplab") out.prm.convention = convention;
  }
  const request: AutolabelRunRequest = { sources, filter: { only_unlabeled: onlyUnlabeled } };
  if (Object.keys(out).length) request.params = out;
  return request;
}

/** What a params form leaves out that the run can hardly do without (a hint, not a block). */
export function paramsProblem(form: "rollout" | "judge", p: ModelParams): string | null {
  if (form === "rollout" && p.kind === "transformers") return p.path.trim() ? null : "Give the model's path.";
  if (!p.base_url.trim() || !p.model.trim()) return "Give the server URL and the model name.";
  return null;
}

/** Not finished: queued, running or paused (it may still move, and blocks a new run). */
export function isActive(run: Pick<AutolabelRun, "status"> | null | undefined): boolean {
  return !!run && (run.status === "pending" || run.status === "running" || run.status === "paused");
}

/**
 * The status to show: "pending" (Queued) only while nothing has started; a run whose start
 * task has not marked it yet but whose solutions are being processed reads "running".
 */
export function shownStatus(run: AutolabelRun): AutolabelRun["status"] {
  if (run.status === "pending" && (run.started_at || (run.done ?? 0) + (run.failed ?? 0) > 0)) return "running";
  return run.status;
}

/** "12.4 solutions/s", "3.2 solutions/min" for slow engines, null before the first chunk. */
export function rateText(rate: number | null | undefined): string | null {
  if (rate == null || !Number.isFinite(rate) || rate <= 0) return null;
  if (rate >= 100) return `${Math.round(rate).toLocaleString("en-US")} solutions/s`;
  if (rate >= 0.1) return `${rate >= 10 ? rate.toFixed(0) : rate.toFixed(1)} solutions/s`;
  const perMinute = rate * 60;
  return `${perMinute >= 1 ? perMinute.toFixed(1) : perMinute.toFixed(2)} solutions/min`;
}

/** "about 2m 05s left", "about 3h 10m left", "under a second left"; null when unknown. */
export function etaText(seconds: number | null | undefined): string | null {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return null;
  if (seconds < 1) return "under a second left";
  if (seconds > 366 * 86400) return "more than a year left";
  const s = Math.round(seconds);
  if (s >= 86400) return `about ${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h left`;
  return `about ${duration(new Date(0).toISOString(), new Date(s * 1000).toISOString())} left`;
}

export interface VerdictCount {
  key: "plus" | "zero" | "minus" | "doubtful" | "evidence";
  label: string;
  count: number;
}

const VERDICT_LABELS: Array<[VerdictCount["key"], string]> = [
  ["plus", "+1"],
  ["zero", "0"],
  ["minus", "−1"],
  ["doubtful", "doubtful"],
  ["evidence", "evidence"],
];

/** What the run wrote, by verdict, leaving out the verdicts it wrote none of. */
export function verdictCounts(verdicts: AutolabelRun["verdicts"] | null | undefined): VerdictCount[] {
  return VERDICT_LABELS.map(([key, label]) => ({ key, label, count: verdicts?.[key] ?? 0 })).filter((v) => v.count > 0);
}

/** The run's total and count, or, while its start task still lists its solutions (a run just
 *  created: its total grows batch by batch until then, and chunks already run), that. */
export function countText(run: AutolabelRun, count: string, total: string): string {
  if (run.prepared !== false) return `${count} / ${total} solutions`;
  return run.total > 0 ? `${count} / ${total} so far, listing the solutions…` : "listing the solutions…";
}

/** Solutions processed so far (labeled or failed), never more than the total. */
export function processed(run: AutolabelRun): number {
  const n = (run.done ?? 0) + (run.failed ?? 0);
  return run.total > 0 ? Math.min(run.total, n) : n;
}

/** 0..1. A finished "done" run is full even if the counters lag; otherwise the server's progress. */
export function runFraction(run: AutolabelRun): number {
  if (run.status === "done") return 1;
  if (typeof run.progress === "number" && Number.isFinite(run.progress)) return Math.max(0, Math.min(1, run.progress));
  return run.total > 0 ? processed(run) / run.total : 0;
}

export function percent(fraction: number): string {
  const pct = fraction * 100;
  // 99.6 % of a big run must not read "100%" while it is still running.
  return `${fraction < 1 ? Math.min(99, Math.floor(pct)) : 100}%`;
}

export const STATUS_TEXT: Record<AutolabelRun["status"], string> = {
  pending: "Queued",
  running: "Running",
  paused: "Paused",
  done: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** The sources' labels; `extra` names the installed plug-ins (their labels from the server). */
export function sourcesText(sources: readonly string[], extra: Record<string, string> = {}): string {
  return sources.map((s) => SOURCE_LABEL[s] ?? extra[s] ?? s).join(", ");
}

/** "2m 05s", "14s", "—". */
export function duration(startIso: string | null, endIso: string | null, now: number = Date.now()): string {
  if (!startIso) return "—";
  const start = new Date(startIso).getTime();
  const end = endIso ? new Date(endIso).getTime() : now;
  if (!Number.isFinite(start) || !Number.isFinite(end)) return "—";
  const s = Math.max(0, Math.round((end - start) / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

/**
 * The message and any field details of an error, as lines (details the message already says are
 * left out). A source the server does not know yet is named in words first.
 */
export function errorLines(err: ApiError): string[] {
  const lines = [err.message];
  const flat = (v: unknown): string[] =>
    Array.isArray(v) ? v.flatMap(flat) : v && typeof v === "object" ? Object.values(v).flatMap(flat) : v == null ? [] : [String(v)];
  for (const [key, value] of Object.entries(err.details ?? {})) {
    for (const text of flat(value)) {
      if (!text || err.message.includes(text)) continue;
      const line = key === "non_field_errors" || key === "detail" ? text : `${key}: ${text}`;
      if (!lines.includes(line)) lines.push(line);
    }
  }
  const unknown = [...`${err.message} ${lines.join(" ")}`.matchAll(/"(\w+)" is not a valid choice/g)].map((m) => m[1]);
  const named = [...new Set(unknown)].filter((n) => SOURCE_LABEL[n]);
  if (err.code === "validation_error" && named.length) {
    const list = named.map((n) => `${SOURCE_LABEL[n]} (${n})`).join(", ");
    return [`${list} ${named.length === 1 ? "is" : "are"} not available on this server yet.`, ...lines];
  }
  return lines;
}

export interface ErrorGroup {
  error: string;
  /** How many solutions failed so (the server's count when it has one). */
  count: number;
  /** Some of them, from the first errors kept. */
  solutionIds: number[];
  /** Errors in this group without a solution id (a run-level error). */
  unattributed: number;
}

/**
 * Identical errors together (a backend that is down fails every solution the same way): the
 * server's groups with their counts, each with the solutions of the first errors kept that
 * read so; without server groups, the first errors grouped here.
 */
export function groupErrors(
  errors: AutolabelRun["errors"] | null | undefined,
  serverGroups?: AutolabelRun["error_groups"] | null,
): ErrorGroup[] {
  const groups = new Map<string, ErrorGroup>();
  const keyOf = (text: string) => (text.trim().split("\n")[0] || "Unknown error").slice(0, 300);
  for (const g of serverGroups ?? []) groups.set(g.error, { error: g.error, count: g.count, solutionIds: [], unattributed: 0 });
  const fromServer = groups.size > 0;
  for (const e of errors ?? []) {
    const text = (e?.error ?? "").trim() || "Unknown error";
    const key = fromServer ? keyOf(text) : text;
    let g = groups.get(key);
    if (!g) {
      if (fromServer) continue; // counted under "Other errors"
      groups.set(key, (g = { error: text, count: 0, solutionIds: [], unattributed: 0 }));
    }
    if (!fromServer) g.count += 1;
    if (typeof e?.solution_id === "number") g.solutionIds.push(e.solution_id);
    else g.unattributed += 1;
  }
  return [...groups.values()];
}

/** "Solution 12", "Solutions 1, 2, 3 and 17 more". */
export function solutionsText(ids: readonly number[], shown = 3): string {
  if (ids.length === 0) return "";
  if (ids.length === 1) return `Solution ${ids[0]}`;
  const head = ids.slice(0, shown).join(", ");
  const rest = ids.length - shown;
  return rest > 0 ? `Solutions ${head} and ${rest} more` : `Solutions ${ids.slice(0, -1).join(", ")} and ${ids.at(-1)}`;
}
