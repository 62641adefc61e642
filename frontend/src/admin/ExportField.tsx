import type { ReactNode } from "react";

/** One labeled option of the export form, with its help line or its error. */
export function ExportField({
  label,
  help,
  error,
  wide,
  span2,
  group,
  children,
}: {
  label: string;
  help?: ReactNode;
  error?: string | null;
  wide?: boolean;
  /** Two of the three columns. */
  span2?: boolean;
  /** Holds several controls (buttons, its own label): a div, not a label. */
  group?: boolean;
  children: ReactNode;
}) {
  const Tag = group ? "div" : "label";
  return (
    <Tag className={`field${wide ? " field-wide" : ""}${span2 ? " export-span-2" : ""}`}>
      <span className="field-label">{label}</span>
      {children}
      {error ? <span className="field-error export-field-error">{error}</span> : help ? <span className="field-help">{help}</span> : null}
    </Tag>
  );
}
