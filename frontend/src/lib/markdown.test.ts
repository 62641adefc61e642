import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown";

function dom(html: string): HTMLElement {
  const div = document.createElement("div");
  div.innerHTML = html;
  return div;
}
/** Anything executable left in the DOM: script-ish elements, on* attributes, javascript: URLs. */
function dangerous(el: HTMLElement): string[] {
  const found: string[] = [];
  el.querySelectorAll("*").forEach((node) => {
    const tag = node.tagName.toLowerCase();
    if (["script", "iframe", "object", "embed", "style", "form"].includes(tag)) found.push(tag);
    for (const attr of Array.from(node.attributes)) {
      if (attr.name.toLowerCase().startsWith("on")) found.push(`${tag}[${attr.name}]`);
      if (/^\s*javascript:/i.test(attr.value)) found.push(`${tag}[${attr.name}=${attr.value}]`);
    }
  });
  return found;
}
const tex = (el: HTMLElement) =>
  Array.from(el.querySelectorAll('annotation[encoding="application/x-tex"]')).map((a) => a.textContent);

describe("math", () => {
  it("renders $...$ inline", () => {
    const el = dom(renderMarkdown("So $x^2_1 = 4$ here."));
    expect(el.querySelectorAll(".katex")).toHaveLength(1);
    expect(el.querySelector(".katex-display")).toBeNull();
    expect(tex(el)).toEqual(["x^2_1 = 4"]);
    expect(el.textContent).toContain("here.");
  });

  it("renders $$...$$ as display math", () => {
    const el = dom(renderMarkdown("$$\\frac{a}{b}$$"));
    expect(el.querySelector(".katex-display")).not.toBeNull();
    expect(tex(el)).toEqual(["\\frac{a}{b}"]);
  });

  it("renders \\(...\\) inline and \\[...\\] display, also across lines", () => {
    const el = dom(renderMarkdown("Let \\(y = 3\\). Then\n\\[\n y^2 = 9\n\\]"));
    expect(tex(el)).toEqual(["y = 3", "y^2 = 9"]);
    expect(el.querySelectorAll(".katex-display")).toHaveLength(1);
  });

  it("keeps underscores and asterisks inside math away from Markdown", () => {
    const el = dom(renderMarkdown("$a_1 * b_2 * c$ and _emph_"));
    expect(tex(el)).toEqual(["a_1 * b_2 * c"]);
    expect(el.querySelectorAll("em")).toHaveLength(1);
  });

  it("renders inline math that ends with an escaped brace or bar", () => {
    const el = dom(
      renderMarkdown("the sets $\\left\\{(x+y)^{2}, x / y\\right\\}$ and $\\{4,12.8, N\\}$ and $\\|v\\|$ are equal"),
    );
    expect(tex(el)).toEqual(["\\left\\{(x+y)^{2}, x / y\\right\\}", "\\{4,12.8, N\\}", "\\|v\\|"]);
    expect(el.textContent).not.toContain("$");
    expect(dom(renderMarkdown("a $x \\$ b")).querySelector(".katex")).toBeNull();
  });

  it("leaves prices, escaped dollars and code alone", () => {
    expect(dom(renderMarkdown("It costs $5 and $10.")).querySelector(".katex")).toBeNull();
    expect(dom(renderMarkdown("\\$3 each")).textContent?.trim()).toBe("$3 each");
    const code = dom(renderMarkdown("`$x$` and\n\n```\n$y$\n```"));
    expect(code.querySelector(".katex")).toBeNull();
    expect(code.querySelectorAll("code")[0].textContent).toBe("$x$");
  });

  it("runs KaTeX with trust off: \\href and \\includegraphics are not rendered", () => {
    const el = dom(renderMarkdown("$\\href{javascript:alert(1)}{x}$ $\\includegraphics{http://e/x.png}$"));
    expect(el.querySelector("a")).toBeNull();
    expect(el.querySelector("img")).toBeNull();
    expect(dangerous(el)).toEqual([]);
  });

  it("shows bad TeX instead of throwing", () => {
    const el = dom(renderMarkdown("$\\frac{1}{$ ok"));
    expect(el.textContent).toContain("ok");
  });
});

describe("markdown and sanitizing", () => {
  it("renders Markdown", () => {
    const el = dom(renderMarkdown("**bold** and a [link](https://example.com)\n\n- one\n- two"));
    expect(el.querySelector("strong")?.textContent).toBe("bold");
    expect(el.querySelectorAll("li")).toHaveLength(2);
    const a = el.querySelector("a")!;
    expect(a.getAttribute("href")).toBe("https://example.com");
    expect(a.getAttribute("rel")).toContain("noopener");
  });

  it("removes <script>, event handlers and javascript: URLs", () => {
    const html = renderMarkdown(
      '<script>alert(1)</script><img src=x onerror="alert(1)"> <a href="javascript:alert(1)">x</a> [y](javascript:alert(2)) <svg onload=alert(3)></svg><iframe src="https://e"></iframe>',
    );
    const el = dom(html);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/onerror=/i);
    expect(html).not.toMatch(/onload=/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(dangerous(el)).toEqual([]);
    expect(el.querySelector("img")?.getAttribute("src")).toBe("x");
  });

  it("does not let math smuggle HTML", () => {
    const el = dom(renderMarkdown("$<img src=x onerror=alert(1)>$ and $\\text{<script>}$"));
    expect(el.querySelector("img")).toBeNull();
    expect(dangerous(el)).toEqual([]);
    expect(el.querySelectorAll(".katex")).toHaveLength(2);
  });

  it("highlights code blocks", () => {
    const el = dom(renderMarkdown("```python\ndef f(x):\n    return x\n```"));
    const code = el.querySelector("pre code")!;
    expect(code.className).toContain("language-python");
    expect(code.querySelector(".hljs-keyword")?.textContent).toBe("def");
  });

  it("escapes code in an unknown language", () => {
    const el = dom(renderMarkdown("```weird\n<b>x</b>\n```"));
    expect(el.querySelector("pre code b")).toBeNull();
    expect(el.querySelector("pre code")?.textContent).toBe("<b>x</b>");
  });

  it("has an inline mode without paragraphs", () => {
    const html = renderMarkdown("$7$", { inline: true });
    expect(html).not.toContain("<p>");
    expect(dom(html).querySelector(".katex")).not.toBeNull();
  });
});

describe("hostile step texts", () => {
  const HOSTILE = [
    '<img src=x onerror="alert(1)">',
    "<script>alert(1)</script>",
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "$\\href{javascript:alert(1)}{x}$",
    "$\\url{javascript:alert(1)}$",
    "$$\\href{data:text/html,<script>alert(1)</script>}{y}$$",
    "$\\htmlData{onclick=alert(1)}{x}$ $\\htmlStyle{background:url(https://evil/t)}{x}$",
    '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
    '<div style="background:url(https://evil.example/track)">t</div>',
    '<span style="background-image:url(javascript:alert(1))">t</span>',
    '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
    '<form action="javascript:alert(1)"><button>go</button></form>',
    "<details open ontoggle=alert(1)>",
    "```\n<script>alert(1)</script>\n```",
  ];

  for (const text of HOSTILE) {
    for (const options of [{}, { inline: true }, { prose: true }]) {
      it(`renders ${JSON.stringify(text).slice(0, 50)} ${JSON.stringify(options)} inert`, () => {
        const el = dom(renderMarkdown(`Step 1: ${text}`, options));
        expect(dangerous(el)).toEqual([]);
        for (const node of Array.from(el.querySelectorAll("[style]"))) {
          expect(node.getAttribute("style")).not.toMatch(/url\s*\(/i);
        }
        for (const a of Array.from(el.querySelectorAll("a"))) {
          expect(a.getAttribute("href") ?? "").not.toMatch(/^\s*(javascript|data|vbscript):/i);
        }
      });
    }
  }

  it("keeps KaTeX's own layout styles", () => {
    const el = dom(renderMarkdown("$\\frac{a}{b}$"));
    expect(el.querySelectorAll(".katex [style]").length).toBeGreaterThan(0);
  });
});
