/** Text that should render as math: when, and as what Markdown source. */
/** True when a string should go through KaTeX rather than print as code-ish text. */
export function looksLikeTex(s: string): boolean {
  return /\\[a-zA-Z]+|[\^_]\{|\$/.test(s);
}

/** Markdown source that renders `s` as inline math: as is when it has its own delimiters. */
export function texSource(s: string): string {
  if (/\$|\\\(|\\\[/.test(s)) return s;
  return `\\(${s}\\)`;
}
