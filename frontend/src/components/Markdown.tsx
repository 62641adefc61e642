import { memo, useMemo } from "react";
import { renderMarkdown } from "../lib/markdown";

interface Props {
  source: string;
  className?: string;
  inline?: boolean;
  /** Guidelines and other prose: single newlines do not break lines. */
  prose?: boolean;
}

/** Markdown + KaTeX, sanitized (see lib/markdown). Memoised on the source text. */
export const Markdown = memo(function Markdown({ source, className, inline, prose }: Props) {
  const html = useMemo(() => renderMarkdown(source, { inline, prose }), [source, inline, prose]);
  const cls = `md${className ? ` ${className}` : ""}`;
  return inline ? (
    <span className={cls} dangerouslySetInnerHTML={{ __html: html }} />
  ) : (
    <div className={cls} dangerouslySetInnerHTML={{ __html: html }} />
  );
});
