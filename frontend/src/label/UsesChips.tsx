import { usesText } from "./dependencies";

const ORIGIN: Record<string, string> = {
  marked: "marked by you (d + step number)",
  import: "from the imported data",
  detected: "found in the text (a reference or a reused result); d + step number to change",
  decided: "resolved with the adjudication (d + step number to change)",
};

/**
 * "uses 1, 3": the earlier steps a step builds on, one chip per step; hovering a chip (or the
 * label) asks the page to highlight those steps. Shared by the labeling and review pages.
 */
export function UsesChips({
  uses,
  origin,
  who,
  onHover,
}: {
  uses: readonly number[];
  /** "marked", "import", "detected" or "". */
  origin: string;
  /** The review page: whose marks these are. */
  who?: string;
  onHover?: (steps: number[] | null) => void;
}) {
  const title = `${who ? `${who}: ` : ""}${usesText(uses)}${ORIGIN[origin] ? ` — ${ORIGIN[origin]}` : ""}`;
  return (
    <div
      className={`step-uses step-uses-${origin || "none"}`}
      data-testid="uses-chips"
      data-uses={uses.join(",")}
      title={title}
      onMouseLeave={() => onHover?.(null)}
    >
      <span className="step-uses-label" onMouseEnter={() => onHover?.([...uses])}>
        {who ? `${who} · uses` : "uses"}
      </span>
      {uses.length === 0 && <span className="uses-none">none</span>}
      {uses.map((k) => (
        <span
          key={k}
          className="uses-chip"
          data-testid="uses-chip"
          data-step={k}
          onMouseEnter={() => onHover?.([k])}
        >
          {k + 1}
        </span>
      ))}
    </div>
  );
}
