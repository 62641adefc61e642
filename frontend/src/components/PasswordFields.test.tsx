import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { differMessage, PasswordField, PasswordFields, usePasswordPair } from "./PasswordFields";

function Pair({ label }: { label?: string }) {
  const pair = usePasswordPair();
  return (
    <>
      <PasswordFields pair={pair} label={label} testIds={{ password: "p", again: "a" }} />
      <output data-testid="state">{pair.differ ? `differ:${pair.password}` : `same:${pair.password}`}</output>
    </>
  );
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe("PasswordFields", () => {
  it("labels the two new-password inputs after its label, with the given test ids", () => {
    render(<Pair label="New password" />);
    const first = screen.getByLabelText("New password") as HTMLInputElement;
    const second = screen.getByLabelText("New password again") as HTMLInputElement;
    expect(first.dataset.testid).toBe("p");
    expect(second.dataset.testid).toBe("a");
    for (const input of [first, second]) {
      expect(input.type).toBe("password");
      expect(input.autocomplete).toBe("new-password");
    }
  });

  it("says whether the two differ as they are typed", () => {
    render(<Pair />);
    expect(screen.getByLabelText("Password again")).toBeTruthy();
    expect(screen.getByTestId("state").textContent).toBe("same:");
    type("p", "brisk-otter-harbor-41");
    expect(screen.getByTestId("state").textContent).toBe("differ:brisk-otter-harbor-41");
    type("a", "brisk-otter-harbor-41");
    expect(screen.getByTestId("state").textContent).toBe("same:brisk-otter-harbor-41");
  });

  it("keeps the forms' messages", () => {
    expect(differMessage("Password")).toBe("The passwords differ.");
    expect(differMessage("New password")).toBe("The new passwords differ.");
  });
});

describe("PasswordField", () => {
  it("is one password input, for a current password when asked", () => {
    let value = "";
    render(
      <PasswordField label="Password" name="password" autoComplete="current-password" value="" onChange={(v) => (value = v)} testId="login-password" />,
    );
    const input = screen.getByTestId("login-password") as HTMLInputElement;
    expect(input.autocomplete).toBe("current-password");
    expect(input.name).toBe("password");
    fireEvent.change(input, { target: { value: "steplab-annotator" } });
    expect(value).toBe("steplab-annotator");
  });
});
