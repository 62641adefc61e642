import { fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { makeProject } from "../test/fixtures";

afterEach(() => vi.unstubAllGlobals());

const session = (must: boolean) => ({ authenticated: true, id: 1, username: "alice", is_staff: false, must_change_password: must });

function fill(current: string, next: string, again = next) {
  fireEvent.change(screen.getByTestId("password-current"), { target: { value: current } });
  fireEvent.change(screen.getByTestId("password-new"), { target: { value: next } });
  fireEvent.change(screen.getByTestId("password-again"), { target: { value: again } });
  fireEvent.click(screen.getByTestId("password-submit"));
}

describe("Change password", () => {
  it("a temporary password shows only the form, then the page asked for", async () => {
    const api = new FakeApi([]);
    api.user = { id: 1, username: "alice", is_staff: false, must_change_password: true };
    api.project = makeProject();
    api.overrides.push((call) => {
      if (call.method === "GET" && call.path === "/api/auth/me/") return { status: 200, body: session(true) };
      if (call.method === "GET" && call.path.startsWith("/api/projects/?")) return { status: 200, body: { count: 0, next: null, previous: null, results: [] } };
      if (call.method === "GET" && call.path === "/api/projects/") return { status: 200, body: { count: 0, next: null, previous: null, results: [] } };
      if (call.method !== "POST" || call.path !== "/api/auth/password/") return undefined;
      if (call.body.new_password === "12345678")
        return { status: 400, body: { error: { code: "validation_error", message: "This password is entirely numeric.", details: { field: "password" } } } };
      return { status: 200, body: session(false) };
    });
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects"]}>
        <App />
      </MemoryRouter>,
    );
    expect((await screen.findByTestId("forced-password")).textContent).toContain("temporary password");
    expect(screen.queryByTestId("user-menu")).toBeNull(); // nothing else is reachable
    fill("Tmp7pass8word9", "12345678", "1234567");
    expect((await screen.findByTestId("password-error")).textContent).toBe("The new passwords differ.");
    expect(api.callsTo("POST", "/api/auth/password/")).toHaveLength(0);
    fill("Tmp7pass8word9", "12345678");
    expect((await screen.findByTestId("password-error")).textContent).toBe("This password is entirely numeric.");
    fill("Tmp7pass8word9", "brisk-otter-harbor-42");
    await screen.findByTestId("user-menu");
    expect(screen.queryByTestId("forced-password")).toBeNull();
    expect(api.callsTo("POST", "/api/auth/password/").at(-1)?.body).toEqual({
      old_password: "Tmp7pass8word9",
      new_password: "brisk-otter-harbor-42",
    });
  });

  it("everyone changes theirs from the user menu", async () => {
    const api = new FakeApi([]);
    api.overrides.push((call) => {
      if (call.method === "GET" && call.path.startsWith("/api/projects/")) return { status: 200, body: { count: 0, next: null, previous: null, results: [] } };
      if (call.method === "POST" && call.path === "/api/auth/password/") return { status: 200, body: session(false) };
      return undefined;
    });
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects"]}>
        <App />
      </MemoryRouter>,
    );
    fireEvent.click(await screen.findByTestId("user-menu"));
    fireEvent.click(screen.getByTestId("change-password"));
    fill("old-one", "brisk-otter-harbor-42");
    expect((await screen.findByTestId("password-changed")).textContent).toContain("stay signed in");
  });
});
