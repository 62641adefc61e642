import { useState } from "react";

/** A secret shown once (temporary password, invite link), with Copy. */
export function OneTimeSecret({ label, value, testId }: { label: string; value: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="callout callout-success" data-testid={`${testId}-shown`}>
      <div className="callout-title">{label}</div>
      <div className="people-secret">
        <input className="input mono" readOnly value={value} aria-label={label} data-testid={testId} onFocus={(e) => e.target.select()} />
        <button
          type="button"
          className="btn"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(value)
              .then(() => setCopied(true))
              .catch(() => setCopied(false))
          }
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
