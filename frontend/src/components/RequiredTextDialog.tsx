import { useEffect, useRef, useState, type ReactNode } from "react";

/** A modal that asks for one required text: ⏎ confirms (⇧⏎ a new line), Esc or a click
 *  outside cancels; confirming it empty marks the field and says `missing`. */
export function RequiredTextDialog({
  name,
  title,
  help,
  placeholder,
  missing,
  keys,
  confirmLabel,
  busyLabel,
  confirmClass,
  className = "dialog",
  testIds,
  busy,
  onConfirm,
  onCancel,
}: {
  /** Names the title's id: `${name}-title`. */
  name: string;
  title: ReactNode;
  help: ReactNode;
  placeholder: string;
  missing: string;
  /** The key hints beside the buttons. */
  keys: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  confirmClass: string;
  className?: string;
  testIds: { dialog: string; input: string; confirm: string };
  busy: boolean;
  onConfirm: (text: string) => void;
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
  const titleId = `${name}-title`;
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onCancel()}>
      <div className={className} role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid={testIds.dialog}>
        <h2 className="dialog-title" id={titleId}>
          {title}
        </h2>
        <p className="muted">{help}</p>
        <textarea
          ref={ref}
          className={`input${touched && !text.trim() ? " input-invalid" : ""}`}
          rows={3}
          value={text}
          placeholder={placeholder}
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
          data-testid={testIds.input}
        />
        {touched && !text.trim() && <div className="field-error">{missing}</div>}
        <div className="dialog-actions">
          <span className="muted small">{keys}</span>
          <div className="dialog-buttons">
            <button type="button" className="btn btn-ghost" onClick={onCancel}>
              Cancel
            </button>
            <button type="button" className={`btn ${confirmClass}`} disabled={busy} onClick={confirm} data-testid={testIds.confirm}>
              {busy ? busyLabel : confirmLabel}
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
