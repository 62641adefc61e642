import { memo, useMemo } from "react";
import { renderMarkdown } from "../lib/markdown";

interface Props {
  source: string;
  className?: string;
  inline?: boolean;
  /** Guidelines and other prose: single newlines do not break lines. */
  prose?: boolean;
  /** false: no KaTeX (text-domain prose, where `$` is a currency sign). */
  math?: boolean;
}

/** Markdown + KaTeX, sanitized (see lib/markdown). Memoised on the source text. */
export const Markdown = memo(function Markdown({ source, className, inline, prose, math }: Props) {
  const html = useMemo(() => renderMarkdown(source, { inline, prose, math }), [source, inline, prose, math]);
  const cls = `md${className ? ` ${className}` : ""}`;
  return inline ? (
    <span className={cls} dangerouslySetInnerHTML={{ __html: html }} />
  ) : (
    <div className={cls} dangerouslySetInnerHTML={{ __html: html }} />
  );
});
