import type { StepMeta, TaskStep } from "../api";
import { Markdown } from "../components/Markdown";

/** A tool call's arguments, pretty-printed when they are JSON; `valid` false when not. */
export function formatArguments(raw: string | undefined): { text: string; valid: boolean } {
  const source = raw ?? "";
  if (!source.trim()) return { text: "", valid: false };
  try {
    return { text: JSON.stringify(JSON.parse(source), null, 2), valid: true };
  } catch {
    return { text: source, valid: false };
  }
}

/**
 * An observation for reading: a JSON object as `key: value` lines, where multi-line strings
 * (stdout, tracebacks) keep their line breaks instead of showing `\n`; other JSON
 * pretty-printed; anything else as it is.
 */
export function formatObservation(text: string): string {
  const t = text.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch {
    return text;
  }
  if (parsed === null || Array.isArray(parsed) || typeof parsed !== "object") return JSON.stringify(parsed, null, 2);
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (!entries.some(([, v]) => typeof v === "string" && v.includes("\n"))) return JSON.stringify(parsed, null, 2);
  return entries
    .map(([key, value]) => {
      if (typeof value === "string" && value.includes("\n")) {
        const body = value.replace(/\n$/, "").split("\n").map((line) => `  ${line}`);
        return `${key}:\n${body.join("\n")}`;
      }
      return `${key}: ${JSON.stringify(value)}`;
    })
    .join("\n");
}

/** Observations longer than this start collapsed. */
export const OBSERVATION_OPEN_LINES = 14;

function ToolCallCard({ meta }: { meta: StepMeta }) {
  const args = formatArguments(meta.arguments);
  return (
    <div className="agent-card agent-call" data-testid="tool-call">
      <div className="agent-card-head">
        <span className="agent-kind">Tool call</span>
        <code className="agent-fn" data-testid="tool-call-name">
          {meta.name}
        </code>
        {meta.tool_call_id && <span className="agent-id">{meta.tool_call_id}</span>}
        {!args.valid && (
          <span className="badge badge-red" data-testid="bad-arguments">
            {args.text ? "arguments are not valid JSON" : "no arguments"}
          </span>
        )}
      </div>
      {args.text && (
        <pre className="agent-pre" data-testid="tool-call-arguments">
          {args.text}
        </pre>
      )}
    </div>
  );
}

function ObservationCard({ text, meta }: { text: string; meta: StepMeta }) {
  const body = formatObservation(text);
  const lines = body.split("\n").length;
  return (
    <details className="agent-card agent-obs" open={lines <= OBSERVATION_OPEN_LINES} data-testid="observation">
      <summary className="agent-card-head">
        <span className="agent-kind">Observation</span>
        {meta.name && <code className="agent-fn">{meta.name}</code>}
        {meta.tool_call_id && <span className="agent-id">{meta.tool_call_id}</span>}
        <span className="agent-lines">
          {lines} line{lines === 1 ? "" : "s"}
        </span>
      </summary>
      <pre className="agent-pre" data-testid="observation-output">
        {body}
      </pre>
    </details>
  );
}

/** One step of an agent trajectory: a tool call card, an observation, or a message. */
export function AgentStepBody({ step }: { step: Pick<TaskStep, "text" | "meta"> }) {
  const meta = step.meta ?? {};
  if (meta.kind === "tool_call") return <ToolCallCard meta={meta} />;
  if (meta.kind === "observation") return <ObservationCard text={step.text} meta={meta} />;
  return (
    <div className="agent-message" data-testid="agent-message">
      <span className="agent-role">{meta.role === "user" ? "User" : "Assistant"}</span>
      <Markdown source={step.text} className="step-text" />
    </div>
  );
}

/** Agent steps carry a kind; everything else renders as before (Markdown with math). */
export function isAgentStep(step: Pick<TaskStep, "meta">): boolean {
  return Boolean(step.meta?.kind);
}
