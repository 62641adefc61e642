import { fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";

afterEach(() => vi.unstubAllGlobals());

describe("LoginPage", () => {
  it("shows the server's message when sign-in is rate-limited (429)", async () => {
    const api = new FakeApi([]);
    api.user = null;
    const message = "Too many sign-in attempts. Try again in 42 seconds.";
    api.overrides.push((call) =>
      call.method === "POST" && call.path === "/api/auth/login/"
        ? { status: 429, body: { error: { code: "throttled", message, details: {} } } }
        : undefined,
    );
    api.install();
    render(
      <MemoryRouter initialEntries={["/login"]}>
        <App />
      </MemoryRouter>,
    );
    fireEvent.change(await screen.findByTestId("login-username"), { target: { value: "ann" } });
    fireEvent.change(screen.getByTestId("login-password"), { target: { value: "pw" } });
    fireEvent.click(screen.getByTestId("login-submit"));
    expect((await screen.findByTestId("login-error")).textContent).toBe(message);
    expect(api.callsTo("POST", "/api/auth/login/")).toHaveLength(1);
  });
});
