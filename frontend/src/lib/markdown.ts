/**
 * Markdown + KaTeX + code highlighting for problems, steps and guidelines.
 *
 * Math is recognised by marked extensions (so `$` inside code spans stays code and `_` inside
 * math is not emphasis): `$...$`, `\(...\)` inline; `$$...$$`, `\[...\]` display. KaTeX runs with
 * `trust: false` (no \href, \includegraphics, \htmlClass...). The whole HTML result goes through
 * DOMPurify, so `<script>`, `onerror=` and `javascript:` links never reach the page.
 */
import DOMPurify from "dompurify";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import cpp from "highlight.js/lib/languages/cpp";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import latex from "highlight.js/lib/languages/latex";
import plaintext from "highlight.js/lib/languages/plaintext";
import python from "highlight.js/lib/languages/python";
import katex from "katex";
import { Marked, type TokenizerExtension, type RendererExtension, type Tokens } from "marked";

hljs.registerLanguage("python", python);
hljs.registerLanguage("javascript", javascript);
hljs.registerLanguage("bash", bash);
hljs.registerLanguage("cpp", cpp);
hljs.registerLanguage("json", json);
hljs.registerLanguage("latex", latex);
hljs.registerLanguage("plaintext", plaintext);
hljs.registerAliases(["py", "python3", "sage"], { languageName: "python" });
hljs.registerAliases(["js"], { languageName: "javascript" });
hljs.registerAliases(["sh", "shell"], { languageName: "bash" });
hljs.registerAliases(["tex"], { languageName: "latex" });
hljs.registerAliases(["text", "txt", "output"], { languageName: "plaintext" });

interface MathToken extends Tokens.Generic {
  type: "math" | "mathBlock";
  raw: string;
  text: string;
  display: boolean;
}

export function renderTex(tex: string, display: boolean): string {
  return katex.renderToString(tex, {
    displayMode: display,
    throwOnError: false,
    trust: false,
    strict: "ignore",
    output: "htmlAndMathml",
    maxExpand: 1000,
    maxSize: 50,
  });
}

const BLOCK_PATTERNS: RegExp[] = [
  /^ {0,3}\$\$([\s\S]+?)\$\$[ \t]*(?:\n+|$)/,
  /^ {0,3}\\\[([\s\S]+?)\\\][ \t]*(?:\n+|$)/,
];

const INLINE_PATTERNS: Array<[RegExp, boolean]> = [
  [/^\$\$([\s\S]+?)\$\$/, true],
  [/^\\\[([\s\S]+?)\\\]/, true],
  [/^\\\(([\s\S]+?)\\\)/, false],
  // Pandoc's rule: no space just inside the dollars and no digit right after the closing one,
  // so "costs $5 and $10" stays text. The last thing inside may be an escaped character
  // (`$\{1, 2\}$`, `$\left\{ ... \right\}$`, `$\|v\|$`).
  [/^\$(?![\s$])((?:\\[\s\S]|[^\\$])*?(?:\\\S|[^\\\s$]))\$(?!\d)/, false],
  [/^\$([^\s$\\])\$(?!\d)/, false],
];

const mathBlock: TokenizerExtension & RendererExtension = {
  name: "mathBlock",
  level: "block",
  start(src: string) {
    const i = src.search(/^ {0,3}(?:\$\$|\\\[)/m);
    return i < 0 ? undefined : i;
  },
  tokenizer(src: string): MathToken | undefined {
    for (const pattern of BLOCK_PATTERNS) {
      const m = pattern.exec(src);
      if (m) return { type: "mathBlock", raw: m[0], text: m[1].trim(), display: true };
    }
    return undefined;
  },
  renderer(token) {
    return `<div class="math-display">${renderTex(token.text as string, true)}</div>\n`;
  },
};

const mathInline: TokenizerExtension & RendererExtension = {
  name: "math",
  level: "inline",
  start(src: string) {
    const i = src.search(/(?<!\\)\$|\\[([]/);
    return i < 0 ? undefined : i;
  },
  tokenizer(src: string): MathToken | undefined {
    for (const [pattern, display] of INLINE_PATTERNS) {
      const m = pattern.exec(src);
      if (m) return { type: "math", raw: m[0], text: m[1].trim(), display };
    }
    return undefined;
  },
  renderer(token) {
    return renderTex(token.text as string, token.display as boolean);
  },
};

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

function highlight(code: string, lang: string | undefined): { html: string; language: string } {
  const name = (lang || "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  if (name && hljs.getLanguage(name)) {
    return { html: hljs.highlight(code, { language: name, ignoreIllegals: true }).value, language: name };
  }
  if (!name && code.length < 20000) {
    const auto = hljs.highlightAuto(code, ["python", "javascript", "bash", "cpp", "json"]);
    if (auto.relevance >= 5 && auto.language) return { html: auto.value, language: auto.language };
  }
  return { html: escapeHtml(code), language: name || "plaintext" };
}

const markedOptions = (breaks: boolean, math = true) => ({
  gfm: true,
  breaks,
  extensions: math ? [mathBlock, mathInline] : [],
  renderer: {
    code({ text, lang }: Tokens.Code) {
      const { html, language } = highlight(text.replace(/\n$/, ""), lang);
      return `<pre class="code-block"><code class="hljs language-${escapeHtml(language)}">${html}</code></pre>\n`;
    },
  },
});
// Model output (steps, problems): a single newline is a line break. Prose (guidelines): Markdown's rule.
const markedBreaks = new Marked(markedOptions(true));
const markedProse = new Marked(markedOptions(false));
// Prose tasks (the text domain): no math, so "$5 and $10" or a stray backslash stay as written.
const markedText = new Marked(markedOptions(true, false));

let hooksInstalled = false;
function installHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  DOMPurify.addHook("afterSanitizeAttributes", (node) => {
    // Style attributes stay (KaTeX lays out formulas with them), but never with a URL: a
    // `background:url(...)` would fetch from anywhere (tracking, javascript: URLs).
    const style = node.getAttribute?.("style");
    if (style && /url\s*\(|image-set|expression\s*\(|@import|behavior\s*:/i.test(style)) {
      node.removeAttribute("style");
    }
    if (node.tagName === "A" && node.getAttribute("href")) {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
    }
  });
}

/** Sanitizes HTML with KaTeX's MathML and styling kept. */
export function sanitize(html: string): string {
  installHooks();
  return DOMPurify.sanitize(html, {
    ADD_TAGS: ["semantics", "annotation", "mrow", "mspace"],
    ADD_ATTR: ["encoding", "aria-hidden", "target"],
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe"],
  });
}

/** Markdown with math, highlighted code and sanitized HTML, ready for innerHTML. */
export function renderMarkdown(
  source: string,
  options: { inline?: boolean; prose?: boolean; math?: boolean } = {},
): string {
  const text = source ?? "";
  const marked = options.math === false ? markedText : options.prose ? markedProse : markedBreaks;
  const html = options.inline
    ? (marked.parseInline(text, { async: false }) as string)
    : (marked.parse(text, { async: false }) as string);
  return sanitize(html);
}
