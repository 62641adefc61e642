import { fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { landingPath } from "./InvitePage";

afterEach(() => vi.unstubAllGlobals());

function mount(answer: { status: number; body?: unknown }) {
  const api = new FakeApi([]);
  api.user = null;
  api.overrides.push((call) => (call.method === "GET" && call.path === "/api/invites/tok/" ? answer : undefined));
  api.install();
  render(
    <MemoryRouter initialEntries={["/invite/tok"]}>
      <App />
    </MemoryRouter>,
  );
  return api;
}

describe("Invite page", () => {
  it("says clearly that a used link cannot be used", async () => {
    const message = "This invite link was already used. Ask the project admin for a new one.";
    mount({ status: 410, body: { error: { code: "gone", message, details: {} } } });
    expect((await screen.findByTestId("invite-error")).textContent).toBe(message);
    expect(screen.queryByTestId("invite-username")).toBeNull();
  });

  it("names the project and role and sends the new account's choices", async () => {
    const api = mount({ status: 200, body: { project: "Alpha", role: "reviewer", expires_at: "2026-12-08T10:00:00Z" } });
    expect((await screen.findByTestId("invite-page")).textContent).toContain("Join Alpha");
    expect(screen.getByTestId("invite-page").textContent).toContain("as a reviewer");
    fireEvent.change(screen.getByTestId("invite-username"), { target: { value: "dana" } });
    fireEvent.change(screen.getByTestId("invite-password"), { target: { value: "brisk-otter-harbor-42" } });
    fireEvent.change(screen.getByTestId("invite-again"), { target: { value: "brisk-otter-harbor-41" } });
    fireEvent.click(screen.getByTestId("invite-submit"));
    expect((await screen.findByTestId("invite-form-error")).textContent).toBe("The passwords differ.");
    expect(api.callsTo("POST", "/accept/")).toHaveLength(0);
  });

  it("lands each role on its page", () => {
    expect(landingPath(3, "annotator")).toBe("/projects/3/label");
    expect(landingPath(3, "reviewer")).toBe("/projects/3/review");
    expect(landingPath(3, "admin")).toBe("/projects/3");
  });
});
