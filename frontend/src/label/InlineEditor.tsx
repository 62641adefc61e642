import { useEffect, useRef, useState } from "react";
import { Kbd } from "../components/ui";

interface Props {
  label: string;
  initial: string;
  placeholder?: string;
  onSave: (text: string) => void;
  onCancel: () => void;
  testId?: string;
}

/** A textarea inside a step row: Enter saves, Shift+Enter is a new line, Esc cancels. */
export function InlineEditor({ label, initial, placeholder, onSave, onCancel, testId }: Props) {
  const [value, setValue] = useState(initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  const done = useRef(false);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus({ preventScroll: true });
    el.setSelectionRange(el.value.length, el.value.length);
    el.parentElement?.scrollIntoView?.({ block: "nearest" });
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight + 2, 320)}px`;
  }, [value]);

  const finish = (save: boolean) => {
    if (done.current) return;
    done.current = true;
    if (save) onSave(value.trim() === "" ? "" : value.replace(/\s+$/, ""));
    else onCancel();
  };

  return (
    <div className="inline-editor" onClick={(e) => e.stopPropagation()}>
      <div className="inline-editor-label">{label}</div>
      <textarea
        ref={ref}
        className="input inline-editor-input"
        value={value}
        placeholder={placeholder}
        rows={2}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            finish(true);
          } else if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            finish(false);
          }
        }}
        onBlur={() => finish(true)}
        data-testid={testId}
      />
      <div className="inline-editor-hint">
        <Kbd>⏎</Kbd> save <Kbd>⇧⏎</Kbd> new line <Kbd>Esc</Kbd> cancel
      </div>
    </div>
  );
}
