import { memo, useMemo } from "react";
import { renderMarkdown } from "../lib/markdown";

interface Props {
  source: string;
  className?: string;
  inline?: boolean;
}

/** Markdown + KaTeX, sanitized (see lib/markdown). Memoised on the source text. */
export const Markdown = memo(function Markdown({ source, className, inline }: Props) {
  const html = useMemo(() => renderMarkdown(source, { inline }), [source, inline]);
  const cls = `md${className ? ` ${className}` : ""}`;
  return inline ? (
    <span className={cls} dangerouslySetInnerHTML={{ __html: html }} />
  ) : (
    <div className={cls} dangerouslySetInnerHTML={{ __html: html }} />
  );
});
