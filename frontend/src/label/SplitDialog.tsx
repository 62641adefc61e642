import { useEffect, useRef, useState } from "react";

/** The code-point offset of a UTF-16 position in `text` (what the server's offset counts). */
export function codePointOffset(text: string, utf16: number): number {
  return Array.from(text.slice(0, utf16)).length;
}

/** Where a split at `utf16` would cut `text`: both parts, trimmed at the cut, or null when one
 *  would be empty. */
export function splitParts(text: string, utf16: number): [string, string] | null {
  const left = text.slice(0, utf16).trimEnd();
  const right = text.slice(utf16).trimStart();
  return left && right ? [left, right] : null;
}

/**
 * Split one step: its source text (math as written, `$…$`) in a read-only box where the cursor
 * marks the cut; ⏎ splits there, Esc cancels. The parts are previewed as they will be stored.
 */
export function SplitDialog({
  stepNumber,
  text,
  busy,
  onConfirm,
  onCancel,
}: {
  stepNumber: number;
  text: string;
  busy: boolean;
  /** The cut, as a code-point offset into `text`. */
  onConfirm: (offset: number) => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [cut, setCut] = useState(() => {
    // Start after the first sentence end or line break past the middle, else the middle.
    const mid = Math.floor(text.length / 2);
    const m = /[.!?](\s)|\n/g;
    m.lastIndex = mid;
    const found = m.exec(text);
    return found ? found.index + 1 : mid;
  });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(cut, cut);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const parts = splitParts(text, cut);
  const confirm = () => {
    if (parts && !busy) onConfirm(codePointOffset(text, cut));
  };
  const track = () => setCut(ref.current?.selectionStart ?? cut);
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onCancel()}>
      <div className="dialog split-dialog" role="dialog" aria-modal="true" aria-labelledby="split-title" data-testid="split-dialog">
        <h2 className="dialog-title" id="split-title">
          Split step {stepNumber} in two
        </h2>
        <p className="muted">
          Put the cursor where the first part ends (arrow keys or a click), then press <span className="kbd">⏎</span>.
          Both parts start unrated.
        </p>
        <textarea
          ref={ref}
          className="input split-text"
          readOnly
          rows={Math.min(10, Math.max(3, Math.ceil(text.length / 70)))}
          value={text}
          onSelect={track}
          onKeyUp={track}
          onClick={track}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.nativeEvent.isComposing) {
              e.preventDefault();
              confirm();
            } else if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              onCancel();
            }
          }}
          data-testid="split-text"
        />
        <div className="split-preview" aria-live="polite">
          {parts ? (
            <>
              <div className="split-part" data-testid="split-first">
                <span className="muted small">Step {stepNumber}</span> {parts[0]}
              </div>
              <div className="split-part" data-testid="split-second">
                <span className="muted small">Step {stepNumber + 1}</span> {parts[1]}
              </div>
            </>
          ) : (
            <div className="field-error">Here one part would be empty: move the cursor between two words.</div>
          )}
        </div>
        <div className="dialog-actions">
          <span className="muted small">
            <span className="kbd">⏎</span> split · <span className="kbd">Esc</span> cancel
          </span>
          <div className="dialog-buttons">
            <button type="button" className="btn btn-ghost" onClick={onCancel}>
              Cancel
            </button>
            <button type="button" className="btn btn-primary" disabled={busy || !parts} onClick={confirm} data-testid="split-confirm">
              {busy ? "Splitting…" : "Split here"}
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
