import { useEffect, useRef, useState } from "react";
import { Kbd } from "../components/ui";

export type ReasonKind = "give_up" | "bad_problem";

const COPY: Record<ReasonKind, { title: string; help: string; confirm: string; placeholder: string }> = {
  give_up: {
    title: "Give up on this solution",
    help: "Say why you cannot finish it (too long, needs knowledge you do not have, cannot follow the notation…).",
    confirm: "Give up",
    placeholder: "e.g. I cannot verify the contour integral in step 4",
  },
  bad_problem: {
    title: "Report a bad problem",
    help: "Say what is wrong with the problem itself: ambiguous, unsolvable, or its reference answer is wrong.",
    confirm: "Report problem",
    placeholder: "e.g. The reference answer should be 12, not 14",
  },
};

export function ReasonDialog({
  kind,
  busy,
  onConfirm,
  onCancel,
}: {
  kind: ReasonKind;
  busy: boolean;
  onConfirm: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState("");
  const [touched, setTouched] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const copy = COPY[kind];
  useEffect(() => ref.current?.focus(), []);

  const confirm = () => {
    setTouched(true);
    if (text.trim() && !busy) onConfirm(text.trim());
  };

  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onCancel()}>
      <div className="dialog reason-dialog" role="dialog" aria-modal="true" aria-labelledby="reason-title" data-testid="reason-dialog">
        <h2 className="dialog-title" id="reason-title">
          {copy.title}
        </h2>
        <p className="muted">{copy.help}</p>
        <textarea
          ref={ref}
          className={`input${touched && !text.trim() ? " input-invalid" : ""}`}
          rows={3}
          value={text}
          placeholder={copy.placeholder}
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
          data-testid="reason-input"
        />
        {touched && !text.trim() && <div className="field-error">A reason is required.</div>}
        <div className="dialog-actions">
          <span className="muted small">
            <Kbd>⏎</Kbd> confirm · <Kbd>Esc</Kbd> cancel
          </span>
          <div className="dialog-buttons">
            <button type="button" className="btn btn-ghost" onClick={onCancel}>
              Cancel
            </button>
            <button type="button" className="btn btn-primary" disabled={busy} onClick={confirm} data-testid="reason-confirm">
              {busy ? "Submitting…" : copy.confirm}
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
