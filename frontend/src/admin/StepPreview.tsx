/**
 * The Import tab's preview of the chosen step rule: the file's first row, when it is a JSON line
 * whose solution is one string (steplab's `solution`), cut into steps by the server exactly as
 * the import will cut it (POST step-preview). Anything else (a gzipped or columnar file, a row
 * that lists its steps, a line that does not parse) shows no preview, or says why in one line.
 */
import { useEffect, useState } from "react";
import { previewSteps, type ApiError, type StepPreview as Preview, type StepRule } from "../api";

const HEAD_BYTES = 1 << 20; // the first line is looked for in the file's first MiB
const SHOWN = 8; // steps listed; the count says how many there are
const DEBOUNCE_MS = 300;

type FirstRow = { solution: string } | { steps: number } | null;

/** The first line's solution text, or how many steps it lists, or null (no preview). */
export function firstRow(head: string): FirstRow {
  const end = head.indexOf("\n");
  const line = (end < 0 ? head : head.slice(0, end)).trim();
  if (!line.startsWith("{")) return null;
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    return null;
  }
  if (!row || typeof row !== "object") return null;
  const { solution, steps } = row as { solution?: unknown; steps?: unknown };
  if (Array.isArray(steps)) return { steps: steps.length };
  return typeof solution === "string" ? { solution } : null;
}

async function readHead(file: File): Promise<string> {
  if (/\.(gz|parquet|csv)$/i.test(file.name)) return "";
  return file.slice(0, HEAD_BYTES).text();
}

export function StepPreview({ projectId, file, rule }: { projectId: number; file: File | null; rule: StepRule }) {
  const [row, setRow] = useState<FirstRow>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setRow(null);
    if (file) void readHead(file).then((head) => live && setRow(firstRow(head)), () => undefined);
    return () => {
      live = false;
    };
  }, [file]);

  const text = row && "solution" in row ? row.solution : null;
  useEffect(() => {
    setPreview(null);
    setError(null);
    if (text === null) return;
    let live = true;
    const timer = setTimeout(() => {
      previewSteps(projectId, text, rule).then(
        (p) => live && setPreview(p),
        (e: ApiError) => live && setError(e.message),
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [projectId, text, rule.step_split, rule.step_split_regex, rule.step_split_tag]); // the rule's fields, not its identity

  if (row && "steps" in row) {
    return (
      <p className="muted small step-preview" data-testid="step-preview">
        The first row lists its {row.steps} steps: the step rule applies only to solutions given as one text.
      </p>
    );
  }
  if (error) {
    return (
      <p className="small text-red step-preview" data-testid="step-preview-error">
        {error}
      </p>
    );
  }
  if (!preview) return null;
  const more = preview.count - Math.min(SHOWN, preview.steps.length);
  return (
    <div className="step-preview" data-testid="step-preview">
      <div className="small">
        <strong>First solution:</strong> {preview.count} {preview.count === 1 ? "step" : "steps"}
        {preview.thinking > 0 && ` (${preview.thinking} of them reasoning, folded on the label page)`}
      </div>
      <ol className="step-preview-list">
        {preview.steps.slice(0, SHOWN).map((s, i) => (
          <li key={i} className={s.thinking ? "is-thinking" : undefined} data-testid="step-preview-step">
            {s.thinking && <span className="tag">reasoning</span>} <span className="step-preview-text">{s.text}</span>
          </li>
        ))}
      </ol>
      {more > 0 && <div className="muted small">… and {more} more</div>}
    </div>
  );
}
