import { renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commandForKey, type Command } from "./keyboard";
import { keepKeyboardFlow, useKeyCommands } from "./useKeyCommands";

function press(key: string, init: KeyboardEventInit = {}, target: EventTarget = window): KeyboardEvent {
  const e = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(e);
  return e;
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("useKeyCommands", () => {
  it("runs the command a key maps to and prevents the default only when handled", () => {
    const handle = vi.fn((cmd: Command) => cmd.type !== "skip");
    renderHook(() => useKeyCommands((e) => commandForKey(e), handle));
    expect(press("3").defaultPrevented).toBe(true);
    expect(handle).toHaveBeenLastCalledWith({ type: "rate", value: 1 });
    expect(press("s").defaultPrevented).toBe(false);
    expect(handle).toHaveBeenLastCalledWith({ type: "skip" });
    expect(press("q").defaultPrevented).toBe(false);
    expect(handle).toHaveBeenCalledTimes(2);
  });

  it("leaves typing in a field and Enter on a focused button alone", () => {
    const handle = vi.fn(() => true);
    renderHook(() => useKeyCommands((e) => commandForKey(e), handle));
    const textarea = document.createElement("textarea");
    const button = document.createElement("button");
    document.body.append(textarea, button);
    expect(press("3", {}, textarea).defaultPrevented).toBe(false);
    expect(press("Enter", {}, button).defaultPrevented).toBe(false);
    expect(handle).not.toHaveBeenCalled();
    press("Enter", {}, document.body);
    expect(handle).toHaveBeenCalledWith({ type: "submit" });
  });

  it("repeats a held move, swallows other repeats, and skips handled or composing events", () => {
    const handle = vi.fn(() => true);
    renderHook(() => useKeyCommands((e) => commandForKey(e), handle));
    press("j", { repeat: true });
    expect(handle).toHaveBeenCalledWith({ type: "move", delta: 1 });
    handle.mockClear();
    expect(press("Enter", { repeat: true }).defaultPrevented).toBe(true);
    press("3", { isComposing: true });
    const handled = new KeyboardEvent("keydown", { key: "3", cancelable: true });
    handled.preventDefault();
    window.dispatchEvent(handled);
    expect(handle).not.toHaveBeenCalled();
  });

  it("uses the latest callbacks and stops listening on unmount", () => {
    const first = vi.fn(() => true);
    const second = vi.fn(() => true);
    const { rerender, unmount } = renderHook(({ handle }) => useKeyCommands((e) => commandForKey(e, [-1, 1]), handle), {
      initialProps: { handle: first },
    });
    rerender({ handle: second });
    press("1");
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith({ type: "rate", value: -1 });
    unmount();
    press("1");
    expect(second).toHaveBeenCalledTimes(1);
  });
});

describe("keepKeyboardFlow", () => {
  it("keeps focus off the page's buttons, but lets an open editor blur", () => {
    document.body.innerHTML = `<main class="label-main"><button id="in">x</button></main><button id="out">y</button><textarea></textarea>`;
    const down = (id: string) => {
      const e = { target: document.getElementById(id), preventDefault: vi.fn() };
      keepKeyboardFlow(e, ".label-main button");
      return e.preventDefault.mock.calls.length > 0;
    };
    expect(down("in")).toBe(true);
    expect(down("out")).toBe(false);
    document.querySelector("textarea")!.focus();
    expect(down("in")).toBe(false);
  });
});
