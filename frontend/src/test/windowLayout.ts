/**
 * jsdom has no layout: for the windowed lists' tests, the window's scroll (scrollY, scrollTo,
 * scrollBy) and the elements' boxes are stood in for. `boxOf(el, scrollY)` gives an element's
 * top and height in the page (null: an empty box); `scrollY()` reads the current scroll.
 */
import { vi } from "vitest";

export function box(top: number, height: number): DOMRect {
  return { top, bottom: top + height, height, left: 0, right: 800, width: 800, x: 0, y: top, toJSON: () => ({}) } as DOMRect;
}

export function stubWindowLayout(boxOf: (el: HTMLElement) => { top: number; height: number } | null): { scrollY: () => number } {
  let scrollY = 0;
  Object.defineProperty(window, "scrollY", { configurable: true, get: () => scrollY });
  // window.scrollTo(x, y) / scrollBy({ top }) as the pages call them.
  const y = (a: unknown, b: unknown) => Number((typeof a === "object" ? (a as ScrollToOptions).top : b) ?? 0);
  vi.spyOn(window, "scrollTo").mockImplementation(((a: unknown, b: unknown) => {
    scrollY = Math.max(0, y(a, b));
  }) as typeof window.scrollTo);
  vi.spyOn(window, "scrollBy").mockImplementation(((a: unknown, b: unknown) => {
    scrollY = Math.max(0, scrollY + y(a, b));
  }) as typeof window.scrollBy);
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
    const at = boxOf(this);
    return at ? box(at.top - scrollY, at.height) : box(0, 0);
  });
  return { scrollY: () => scrollY };
}
