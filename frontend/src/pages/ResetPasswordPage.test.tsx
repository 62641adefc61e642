import { fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";

afterEach(() => vi.unstubAllGlobals());

function mount(path: string, answer: { status: number; body?: unknown }) {
  const api = new FakeApi([]);
  api.user = null;
  api.overrides.push((call) => (call.method === "POST" && call.path.startsWith("/api/auth/password/reset/") ? answer : undefined));
  api.install();
  render(
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>,
  );
  return api;
}

describe("Password reset", () => {
  it("the login page links to it and it sends the address", async () => {
    const api = mount("/login", { status: 204 });
    fireEvent.click(await screen.findByTestId("forgot-password"));
    fireEvent.change(await screen.findByTestId("reset-email"), { target: { value: " ivy@example.org " } });
    fireEvent.click(screen.getByTestId("reset-send"));
    expect((await screen.findByTestId("reset-sent")).textContent).toContain("ivy@example.org");
    expect(api.callsTo("POST", "/api/auth/password/reset/")[0].body).toEqual({ email: "ivy@example.org" });
  });

  it("sends the link's uid and token with the new password, and shows a stale link's message", async () => {
    const message = "This reset link is not valid any more. Ask for a new one.";
    const api = mount("/reset/MQ/abc-123", { status: 410, body: { error: { code: "gone", message, details: {} } } });
    fireEvent.change(await screen.findByTestId("reset-password"), { target: { value: "brisk-otter-harbor-42" } });
    fireEvent.change(screen.getByTestId("reset-again"), { target: { value: "brisk-otter-harbor-42" } });
    fireEvent.click(screen.getByTestId("reset-submit"));
    expect((await screen.findByTestId("reset-error")).textContent).toBe(message);
    expect(api.callsTo("POST", "/api/auth/password/reset/confirm/")[0].body).toEqual({
      uid: "MQ",
      token: "abc-123",
      new_password: "brisk-otter-harbor-42",
    });
  });
});
