import type { StepMeta, TaskStep } from "../api";
import { Markdown } from "../components/Markdown";

/**
 * One step of an embodied episode as a point on a timeline: its kind badge, the time into the
 * episode, the logged success signal, and the preconditions it needed and effects it logged.
 * Frames (step images) follow it through StepContent's ImageStrip (click to enlarge).
 */

export const EMBODIED_KINDS = ["plan", "action", "observation", "subgoal"] as const;
export type EmbodiedKind = (typeof EMBODIED_KINDS)[number];

const KIND_LABEL: Record<EmbodiedKind, string> = {
  plan: "Plan",
  action: "Action",
  observation: "Observation",
  subgoal: "Subgoal",
};

/**
 * Embodied steps carry one of the four kinds; an agent observation has the same kind but always
 * a role ("tool"), which embodied steps never have.
 */
export function isEmbodiedStep(step: Pick<TaskStep, "meta">): boolean {
  const meta = step.meta;
  if (!meta?.kind || !(EMBODIED_KINDS as readonly string[]).includes(meta.kind)) return false;
  return meta.kind !== "observation" || (!meta.role && !meta.tool_call_id);
}

/** "t = 12.5 s", "t = 1 min 04 s". */
export function formatTimestamp(seconds: number | undefined): string | null {
  if (seconds == null || !Number.isFinite(seconds)) return null;
  if (seconds < 60) return `t = ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds - m * 60);
  return `t = ${m} min ${String(s).padStart(2, "0")} s`;
}

function Predicates({ label, items, testId }: { label: string; items: string[] | undefined; testId: string }) {
  if (!items || items.length === 0) return null;
  return (
    <div className="emb-preds" data-testid={testId}>
      <span className="emb-preds-label">{label}</span>
      {items.map((p, i) => (
        <code key={`${p}-${i}`} className={`emb-pred${/^\s*(not\s|!|¬)/i.test(p) ? " emb-pred-neg" : ""}`}>
          {p}
        </code>
      ))}
    </div>
  );
}

function Signal({ meta }: { meta: StepMeta }) {
  if (meta.success === true)
    return (
      <span className="badge badge-green" data-testid="emb-signal" data-success="true" title="The episode log marks this step successful">
        ✓ success
      </span>
    );
  if (meta.success === false)
    return (
      <span className="badge badge-red" data-testid="emb-signal" data-success="false" title="The episode log marks this step failed">
        ✗ failed
      </span>
    );
  return null;
}

export function EmbodiedStepBody({ step }: { step: Pick<TaskStep, "text" | "meta"> }) {
  const meta = step.meta ?? {};
  const kind = (meta.kind ?? "action") as EmbodiedKind;
  const time = formatTimestamp(meta.timestamp);
  return (
    <div className={`emb-step emb-${kind}`} data-testid="embodied-step" data-kind={kind}>
      <span className="emb-dot" aria-hidden="true" />
      <div className="emb-head">
        <span className={`emb-kind emb-kind-${kind}`} data-testid="emb-kind">
          {KIND_LABEL[kind] ?? kind}
        </span>
        <Signal meta={meta} />
        {time && (
          <span className="emb-time" data-testid="emb-time">
            {time}
          </span>
        )}
      </div>
      <Markdown source={step.text} className={`step-text emb-text${kind === "subgoal" ? " emb-text-subgoal" : ""}`} />
      <Predicates label="needs" items={meta.preconditions} testId="emb-preconditions" />
      <Predicates label={kind === "observation" ? "sees" : "effects"} items={meta.effects} testId="emb-effects" />
    </div>
  );
}

/** The episode above the timeline: its goal, its initial state and the logged outcome. */
export function EpisodeSummary({
  episode,
  success,
}: {
  episode: { goal?: string[]; initial_state?: string[] };
  success: boolean | null | undefined;
}) {
  return (
    <div className="emb-episode" data-testid="episode-summary">
      <div className="emb-episode-row">
        <span className="answer-label">Episode outcome</span>
        {success === true && (
          <span className="badge badge-green" data-testid="episode-outcome">
            task succeeded
          </span>
        )}
        {success === false && (
          <span className="badge badge-red" data-testid="episode-outcome">
            task failed
          </span>
        )}
        {success == null && <span className="muted">not logged</span>}
      </div>
      <Predicates label="goal" items={episode.goal} testId="episode-goal" />
      <Predicates label="start" items={episode.initial_state} testId="episode-initial" />
    </div>
  );
}
