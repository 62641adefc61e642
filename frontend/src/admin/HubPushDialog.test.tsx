import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import type { HubPush, Role } from "../api";
import { FakeApi } from "../test/fakeApi";
import { FakeExports, finished, makeExport } from "../test/fakeExports";
import { makeProject } from "../test/fixtures";

function push(overrides: Partial<HubPush> = {}): HubPush {
  return {
    id: 1,
    export: 4,
    repo_id: "team/prm",
    private: true,
    status: "pending",
    revision: "",
    tag: "",
    url: "",
    splits: {},
    error: "",
    token_kind: "",
    created_at: "2026-12-06T07:00:00Z",
    finished_at: null,
    ...overrides,
  };
}

function mount(role: Role, pushes: HubPush[] = []) {
  const api = new FakeApi([]);
  api.user = { id: 1, username: "admin", is_staff: role === "admin" };
  api.project = makeProject({ role });
  const server = new FakeExports(api);
  server.exports = [finished(makeExport({ id: 4 }), 10)];
  let listed = pushes;
  api.overrides.push((call) => {
    if (call.path === "/api/exports/4/hub-pushes/" && call.method === "GET") return { status: 200, body: listed };
    if (call.path === "/api/exports/4/hub-pushes/" && call.method === "POST") {
      if (call.body.repo_id === "team/refused") {
        return { status: 400, body: { error: { code: "hub_error", message: "The Hub refused the token", details: {} } } };
      }
      const created = push({ repo_id: call.body.repo_id, private: call.body.private });
      listed = [push({ ...created, status: "done", tag: "export-4", url: "https://hub.test/datasets/team/prm", splits: { train: 9, test: 1 } })];
      return { status: 202, body: created };
    }
    return undefined;
  });
  api.install();
  server.installCard();
  render(
    <MemoryRouter initialEntries={["/projects/1?tab=export"]}>
      <App />
    </MemoryRouter>,
  );
  return api;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("Push to the Hub", () => {
  it("pushes a done export to a repo, private by default, and shows where it went", async () => {
    const api = mount("admin");
    const row = await screen.findByTestId("export-row", {}, { timeout: 5000 });
    fireEvent.click(within(row).getByTestId("export-hub"));
    const dialog = await screen.findByTestId("hub-push-dialog");
    const submit = within(dialog).getByTestId("hub-push-submit") as HTMLButtonElement;
    fireEvent.change(within(dialog).getByTestId("hub-repo-id"), { target: { value: "not a repo" } });
    expect(submit.disabled).toBe(true);
    expect(within(dialog).getByText(/owner\/name/)).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId("hub-repo-id"), { target: { value: "team/prm" } });
    expect((within(dialog).getByTestId("hub-private") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(submit);
    await waitFor(() => expect(api.callsTo("POST", "/hub-pushes/")).toHaveLength(1));
    expect(api.callsTo("POST", "/hub-pushes/")[0].body).toEqual({ repo_id: "team/prm", private: true });
    const link = await screen.findByTestId("hub-push-link", {}, { timeout: 4000 });
    expect(link.textContent).toBe("export-4");
    expect(link.getAttribute("href")).toBe("https://hub.test/datasets/team/prm/tree/export-4");
    expect(within(dialog).getByText("rows: train 9 · test 1")).toBeTruthy();
  });

  it("says why the server refused a push", async () => {
    mount("admin");
    const row = await screen.findByTestId("export-row", {}, { timeout: 5000 });
    fireEvent.click(within(row).getByTestId("export-hub"));
    const dialog = await screen.findByTestId("hub-push-dialog");
    fireEvent.change(within(dialog).getByTestId("hub-repo-id"), { target: { value: "team/refused" } });
    fireEvent.click(within(dialog).getByTestId("hub-push-submit"));
    expect((await screen.findByTestId("hub-push-request-error")).textContent).toContain("refused the token");
  });

  it("lists earlier pushes, failures with their error", async () => {
    mount("admin", [push({ id: 2, status: "failed", error: "No dataset repo team/x" })]);
    const row = await screen.findByTestId("export-row", {}, { timeout: 5000 });
    fireEvent.click(within(row).getByTestId("export-hub"));
    expect((await screen.findByTestId("hub-push-error")).textContent).toContain("No dataset repo team/x");
    expect((screen.getByTestId("hub-repo-id") as HTMLInputElement).value).toBe("team/prm");
  });

  it("says whose token the push runs with, and links to the setting", async () => {
    const api = mount("admin");
    const row = await screen.findByTestId("export-row", {}, { timeout: 5000 });
    fireEvent.click(within(row).getByTestId("export-hub"));
    const dialog = await screen.findByTestId("hub-push-dialog");
    fireEvent.change(within(dialog).getByTestId("hub-repo-id"), { target: { value: "team/prm" } });
    const note = await within(dialog).findByTestId("hub-token-note");
    expect(note.textContent).toContain("The push runs with the server's token (HF_TOKEN) for repos under team/; elsewhere no token");
    fireEvent.click(within(note).getByTestId("hub-token-link"));
    const tokenDialog = await screen.findByTestId("hub-token-dialog");
    fireEvent.change(within(tokenDialog).getByTestId("hub-token-input"), { target: { value: "hf_mineMINEmine1234" } });
    fireEvent.submit(within(tokenDialog).getByTestId("hub-token-input"));
    await waitFor(() => expect(within(tokenDialog).getByTestId("hub-token-status").textContent).toContain("Set, ends in …1234"));
    expect(api.callsTo("PUT", "/api/auth/hub-token/")[0].body).toEqual({ token: "hf_mineMINEmine1234", check: true });
    expect(api.callsTo("POST", "/hub-pushes/")).toHaveLength(0); // saving the token is not a push
    // Escape closes the token dialog alone; the push dialog below says the new token is used.
    fireEvent.keyDown(document, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("hub-token-dialog")).toBeNull());
    expect(screen.getByTestId("hub-push-dialog")).toBeTruthy();
    expect(within(dialog).getByTestId("hub-token-note").textContent).toContain("The push runs with your Hugging Face token (…1234).");
    fireEvent.keyDown(document, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("hub-push-dialog")).toBeNull());
  });

  it("shows whose token each push used", async () => {
    mount("admin", [push({ id: 3, status: "done", tag: "export-4", url: "https://hub.test/datasets/team/prm", token_kind: "user" })]);
    const row = await screen.findByTestId("export-row", {}, { timeout: 5000 });
    fireEvent.click(within(row).getByTestId("export-hub"));
    expect((await screen.findByTestId("hub-push")).textContent).toContain("with the pusher's own token");
  });

  it("is for project admins only", async () => {
    mount("reviewer");
    const row = await screen.findByTestId("export-row", {}, { timeout: 5000 });
    expect(within(row).queryByTestId("export-hub")).toBeNull();
  });
});
