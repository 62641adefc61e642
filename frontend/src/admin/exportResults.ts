/** What the export tab shows of an answer: API errors by line and field, the card's front matter, where final labels came from and what was left out. */
import type { ApiError, FinalLabelCounts, FinalOrigin } from "../api";

/**
 * An API error as lines: the message, then any field details it does not already say.
 * DRF nests details by option (`{"filters": {"min_agreement": ["…"]}}`); they are flattened
 * to "filters.min_agreement: …".
 */
export function errorLines(err: ApiError): string[] {
  const lines = [err.message];
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) value.forEach((v) => walk(v, path));
    else if (value && typeof value === "object")
      for (const [k, v] of Object.entries(value)) walk(v, k === "non_field_errors" ? path : path ? `${path}.${k}` : k);
    else if (value != null) {
      const text = String(value);
      if (!text || err.message.includes(text)) return;
      const line = path ? `${path}: ${text}` : text;
      if (!lines.includes(line)) lines.push(line);
    }
  };
  const { field, ...rest } = err.details ?? {};
  void field;
  walk(rest, "");
  return lines;
}

/** The option an error is about ("filters.min_agreement"), from the service's `field` or DRF's nesting. */
export function errorField(err: ApiError): string | null {
  const details = err.details ?? {};
  if (typeof details.field === "string") return details.field;
  let path = "";
  let node: unknown = details;
  while (node && typeof node === "object" && !Array.isArray(node)) {
    const keys = Object.keys(node as object);
    if (!keys.length) break;
    path = path ? `${path}.${keys[0]}` : keys[0];
    node = (node as Record<string, unknown>)[keys[0]];
  }
  return path || null;
}

/** A dataset card's YAML front matter (Hugging Face Hub metadata) apart from its Markdown body. */
export function splitFrontMatter(card: string): { meta: string | null; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(card);
  return m ? { meta: m[1], body: card.slice(m[0].length) } : { meta: null, body: card };
}

/** Final labels' origins and reasons left out, in the dataset card's order. */
export const FINAL_ORIGINS: Array<{ key: FinalOrigin; label: string; leftOut: boolean }> = [
  { key: "review", label: "Review", leftOut: false },
  { key: "agreement", label: "Annotators' majority", leftOut: false },
  { key: "single", label: "Single annotator", leftOut: false },
  { key: "machine", label: "Machine source", leftOut: false },
  { key: "tie", label: "Left out: tie", leftOut: true },
  { key: "no_label", label: "Left out: no label", leftOut: true },
];

/** An export's stats.final_labels (label_source final), or null. */
export function finalLabelsOf(stats: Record<string, unknown> | null | undefined): FinalLabelCounts | null {
  const value = stats?.final_labels as Partial<FinalLabelCounts> | undefined;
  if (!value || typeof value !== "object" || !value.solutions || !value.steps) return null;
  return value as FinalLabelCounts;
}

const SKIP_TEXT: Record<string, string> = {
  unsure: "an unsure step",
  agreement: "agreement below the minimum",
  placeholder_in_text: "the placeholder token inside their text",
  separator_in_text: "the step separator inside their text",
};

/** Solutions the label policy left out whole (stats.skipped), as "2 for an unsure step", or []. */
export function skippedLines(stats: Record<string, unknown> | null | undefined): string[] {
  const skipped = stats?.skipped;
  if (!skipped || typeof skipped !== "object") return [];
  return Object.entries(skipped as Record<string, unknown>)
    .filter(([, n]) => typeof n === "number" && n > 0)
    .map(([reason, n]) => `${n} for ${SKIP_TEXT[reason] ?? reason}`);
}
