import { useEffect, useRef } from "react";
import { Kbd } from "../components/ui";
import { SHORTCUTS, type ShortcutGroup } from "./keyboard";

export function ShortcutsOverlay({
  onClose,
  binary,
  groups = SHORTCUTS,
  foot,
}: {
  onClose: () => void;
  binary: boolean;
  /** The keys to list (the labeling page's by default). */
  groups?: ShortcutGroup[];
  foot?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        className="dialog shortcuts"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        tabIndex={-1}
        data-testid="shortcuts-overlay"
      >
        <div className="dialog-head">
          <h2 className="dialog-title">Keyboard shortcuts</h2>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onClose} aria-label="Close">
            Esc
          </button>
        </div>
        <div className="shortcut-groups">
          {groups.map((g) => (
            <section key={g.title} className="shortcut-group">
              <h3>{g.title}</h3>
              <ul>
                {g.items
                  .filter((item) => !(binary && item.neutralOnly))
                  .map((item) => (
                    <li key={item.label}>
                      <span className="shortcut-keys">
                        {item.keys.map((k, i) => (
                          <span key={k}>
                            {i > 0 && <span className="subtle"> / </span>}
                            <Kbd>{k}</Kbd>
                          </span>
                        ))}
                      </span>
                      <span>
                        {item.label}
                        {item.elsewhere && (
                          <span className="shortcut-elsewhere" data-testid="shortcut-elsewhere">
                            {" "}
                            ({item.elsewhere})
                          </span>
                        )}
                      </span>
                    </li>
                  ))}
              </ul>
            </section>
          ))}
        </div>
        <p className="muted small shortcut-foot">
          {foot ??
            "Rating a step moves to the next unrated one. In first-error mode, a wrong step ends the review. A takes each step's leftmost suggestion; Ctrl Z undoes an accepted suggestion like any rating."}
        </p>
      </div>
    </div>
  );
}
