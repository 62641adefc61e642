import { fireEvent, render } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { useEscape } from "./useEscape";

function Layer({ name, onEscape, children }: { name: string; onEscape: (name: string) => void; children?: React.ReactNode }) {
  useEscape(() => onEscape(name));
  return <div data-testid={name}>{children}</div>;
}

function Stack({ onEscape }: { onEscape: (name: string) => void }) {
  const [inner, setInner] = useState(true);
  return (
    <Layer name="outer" onEscape={onEscape}>
      {inner && (
        <Layer
          name="inner"
          onEscape={(n) => {
            onEscape(n);
            setInner(false);
          }}
        />
      )}
    </Layer>
  );
}

describe("useEscape", () => {
  it("closes the innermost open layer only, then the next one", () => {
    const seen = vi.fn();
    const { queryByTestId } = render(<Stack onEscape={seen} />);
    fireEvent.keyDown(document, { key: "Escape" });
    expect(seen.mock.calls).toEqual([["inner"]]);
    expect(queryByTestId("inner")).toBeNull();
    fireEvent.keyDown(window, { key: "Escape" });
    expect(seen.mock.calls).toEqual([["inner"], ["outer"]]);
    fireEvent.keyDown(window, { key: "Enter" });
    expect(seen).toHaveBeenCalledTimes(2);
  });

  it("stops listening once unmounted, and follows the latest callback", () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender, unmount } = render(<Layer name="one" onEscape={first} />);
    rerender(<Layer name="one" onEscape={second} />);
    fireEvent.keyDown(window, { key: "Escape" });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
    unmount();
    fireEvent.keyDown(window, { key: "Escape" });
    expect(second).toHaveBeenCalledTimes(1);
  });
});
