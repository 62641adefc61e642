import { useEffect, useRef, useState } from "react";
import { Kbd } from "../components/ui";

/** Reject an annotation: the comment is required and is what its annotator sees. */
export function RejectDialog({
  annotator,
  busy,
  onConfirm,
  onCancel,
}: {
  annotator: string;
  busy: boolean;
  onConfirm: (comment: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState("");
  const [touched, setTouched] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const confirm = () => {
    setTouched(true);
    if (text.trim() && !busy) onConfirm(text.trim());
  };
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onCancel()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="reject-title" data-testid="reject-dialog">
        <h2 className="dialog-title" id="reject-title">
          Send back to {annotator}
        </h2>
        <p className="muted">
          The annotation returns first in {annotator}&rsquo;s queue with its labels and this comment at the top. Say what to look at again.
        </p>
        <textarea
          ref={ref}
          className={`input${touched && !text.trim() ? " input-invalid" : ""}`}
          rows={3}
          value={text}
          placeholder="e.g. Step 3 divides by zero when x = 1; it should be −1"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              confirm();
            } else if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              onCancel();
            }
          }}
          data-testid="reject-comment"
        />
        {touched && !text.trim() && <div className="field-error">A rejection needs a comment.</div>}
        <div className="dialog-actions">
          <span className="muted small">
            <Kbd>⏎</Kbd> send back · <Kbd>⇧⏎</Kbd> new line · <Kbd>Esc</Kbd> cancel
          </span>
          <div className="dialog-buttons">
            <button type="button" className="btn btn-ghost" onClick={onCancel}>
              Cancel
            </button>
            <button type="button" className="btn btn-reject-solid" disabled={busy} onClick={confirm} data-testid="reject-confirm">
              {busy ? "Sending…" : "Reject"}
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
