import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RequiredTextDialog } from "./RequiredTextDialog";

function open(busy = false) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <RequiredTextDialog
      name="why"
      title="Why?"
      help="Say why."
      placeholder="e.g. because"
      missing="A reason is required."
      keys="⏎ confirm"
      confirmLabel="Send"
      busyLabel="Sending…"
      confirmClass="btn-primary"
      testIds={{ dialog: "d", input: "i", confirm: "c" }}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />,
  );
  return { onConfirm, onCancel, input: screen.getByTestId("i") as HTMLTextAreaElement };
}

afterEach(cleanup);

describe("RequiredTextDialog", () => {
  it("is a labelled modal with the text field focused", () => {
    const { input } = open();
    const dialog = screen.getByRole("dialog");
    expect(dialog.getAttribute("aria-labelledby")).toBe("why-title");
    expect(document.getElementById("why-title")?.textContent).toBe("Why?");
    expect(document.activeElement).toBe(input);
  });

  it("refuses an empty or blank text and says why", () => {
    const { onConfirm, input } = open();
    fireEvent.change(input, { target: { value: "   " } });
    fireEvent.click(screen.getByTestId("c"));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByTestId("d").textContent).toContain("A reason is required.");
    expect(input.className).toContain("input-invalid");
  });

  it("confirms the trimmed text with Enter or the button; Shift+Enter does not", () => {
    const { onConfirm, input } = open();
    fireEvent.change(input, { target: { value: "  too long \n" } });
    fireEvent.keyDown(input, { key: "Enter", shiftKey: true });
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onConfirm).toHaveBeenCalledWith("too long");
    fireEvent.click(screen.getByTestId("c"));
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it("cancels with Escape (not reaching the page) or a click outside, not inside", () => {
    const { onCancel, input } = open();
    const pageKeys = vi.fn();
    window.addEventListener("keydown", pageKeys);
    fireEvent.keyDown(input, { key: "Escape" });
    window.removeEventListener("keydown", pageKeys);
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(pageKeys).not.toHaveBeenCalled();
    fireEvent.mouseDown(screen.getByTestId("d"));
    expect(onCancel).toHaveBeenCalledTimes(1);
    fireEvent.mouseDown(screen.getByTestId("d").parentElement!);
    expect(onCancel).toHaveBeenCalledTimes(2);
  });

  it("while busy, shows the busy label and does not confirm again", () => {
    const { onConfirm, input } = open(true);
    fireEvent.change(input, { target: { value: "x" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onConfirm).not.toHaveBeenCalled();
    const button = screen.getByTestId("c") as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.textContent).toBe("Sending…");
  });
});
