import type { Suggestion } from "../api";

export const SIGN: Record<string, string> = { "-1": "−", "0": "0", "1": "+" };
export const TONE: Record<string, string> = { "-1": "neg", "0": "neu", "1": "pos" };

/** Evidence as hover text: a message if it has one, else compact JSON. */
export function evidenceText(evidence: unknown): string {
  if (evidence == null) return "";
  if (typeof evidence === "string") return evidence;
  if (typeof evidence === "object") {
    const e = evidence as Record<string, unknown>;
    for (const key of ["message", "reason", "explanation", "text", "detail"]) {
      if (typeof e[key] === "string" && e[key]) return e[key] as string;
    }
    if (Object.keys(e).length === 0) return "";
    const json = JSON.stringify(evidence);
    return json.length > 600 ? `${json.slice(0, 599)}…` : json;
  }
  return String(evidence);
}

export function SuggestionChip({ suggestion }: { suggestion: Suggestion }) {
  const value = suggestion.value;
  const key = value === null ? "none" : String(value);
  const tone = TONE[key] ?? "none";
  const evidence = evidenceText(suggestion.evidence);
  const title = [`${suggestion.source}${suggestion.agent ? ` · ${suggestion.agent}` : ""}`, evidence]
    .filter(Boolean)
    .join("\n");
  return (
    <span
      className={`chip chip-${tone}`}
      title={title}
      data-testid="suggestion-chip"
      data-value={value === null ? "" : String(value)}
    >
      <span className="chip-source">{suggestion.source}</span>
      <span className="chip-value">{value === null ? "?" : SIGN[key]}</span>
      {suggestion.score != null && <span className="chip-score">{suggestion.score.toFixed(2)}</span>}
    </span>
  );
}
