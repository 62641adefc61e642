import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import type { Invite } from "../api";
import { FakeApi } from "../test/fakeApi";
import { FakeAssign } from "../test/fakeAssign";
import { makeProject } from "../test/fixtures";

const invite = (id: number, role: Invite["role"]): Invite => ({
  id,
  role,
  created_at: "2026-12-01T10:00:00Z",
  expires_at: "2026-12-08T10:00:00Z",
  created_by: "admin",
});

function mount(isStaff = false, setup: (s: FakeAssign) => void = () => {}) {
  const api = new FakeApi([]);
  api.user = { id: 1, username: "admin", is_staff: isStaff };
  api.project = makeProject({ role: "admin" });
  const server = new FakeAssign(api);
  setup(server);
  let invites: Invite[] = [invite(5, "reviewer")];
  api.overrides.push((call) => {
    const { method, path, body } = call;
    if (method === "GET" && path === "/api/projects/1/invites/") return { status: 200, body: invites };
    if (method === "POST" && path === "/api/projects/1/invites/") {
      const made = invite(6, body.role);
      invites = [made, ...invites];
      return { status: 201, body: { invite: made, url: "http://testserver/invite/tok-123" } };
    }
    if (method === "DELETE" && path === "/api/projects/1/invites/5/") {
      invites = invites.filter((i) => i.id !== 5);
      return { status: 204 };
    }
    if (method === "POST" && path === "/api/projects/1/users/") {
      if (body.username === "Admin")
        return { status: 409, body: { error: { code: "conflict", message: "The username 'Admin' is taken: it is too close to the existing 'admin'.", details: {} } } };
      const member = { user: { id: 40, username: body.username }, role: body.role, screening: "", screening_answered: 0, temporary_password: true };
      return { status: 201, body: { member, temporary_password: "Tmp7pass8word9" } };
    }
    const reissue = /^\/api\/projects\/1\/members\/(\d+)\/temporary-password\/$/.exec(path);
    if (method === "POST" && reissue) {
      if (reissue[1] === "3")
        return { status: 403, body: { error: { code: "permission_denied", message: "bob is also a member of 1 project(s) where you are not an admin.", details: {} } } };
      const member = { user: { id: Number(reissue[1]), username: "ann" }, role: "annotator", screening: "", screening_answered: 0, temporary_password: true, temporary_password_reissue: true };
      return { status: 200, body: { member, temporary_password: "New4pass5word6" } };
    }
    if (method === "POST" && path === "/api/projects/1/members/")
      return { status: 409, body: { error: { code: "conflict", message: "ann is already a member of this project (as annotator); change their role in the members table.", details: {} } } };
    if (method === "GET" && path.startsWith("/api/users/"))
      return { status: 200, body: [{ id: 1, username: "admin", email: "" }, { id: 77, username: "zoe", email: "zoe@example.org" }] };
    return undefined;
  });
  api.install();
  render(
    <MemoryRouter initialEntries={["/projects/1?tab=members"]}>
      <App />
    </MemoryRouter>,
  );
  return { api, server };
}

afterEach(() => vi.unstubAllGlobals());

describe("Members tab", () => {
  it("creates an account and shows its temporary password once, in the members table", async () => {
    const { api } = mount();
    const form = await screen.findByTestId("create-user");
    fireEvent.change(within(form).getByTestId("create-username"), { target: { value: " alice " } });
    fireEvent.change(within(form).getByTestId("create-email"), { target: { value: "alice@example.org" } });
    fireEvent.change(within(form).getByTestId("create-role"), { target: { value: "reviewer" } });
    fireEvent.click(within(form).getByTestId("create-submit"));
    expect(((await screen.findByTestId("temporary-password")) as HTMLInputElement).value).toBe("Tmp7pass8word9");
    expect(api.callsTo("POST", "/api/projects/1/users/")[0].body).toEqual({ username: "alice", email: "alice@example.org", role: "reviewer" });
    expect(screen.getByTestId("members-table").textContent).toContain("alice");
    expect(screen.getByTestId("temporary-alice").textContent).toBe("temporary password");
  });

  it("shows the server's refusal of a look-alike username", async () => {
    mount();
    const form = await screen.findByTestId("create-user");
    fireEvent.change(within(form).getByTestId("create-username"), { target: { value: "Admin" } });
    fireEvent.click(within(form).getByTestId("create-submit"));
    expect((await screen.findByTestId("create-user-error")).textContent).toContain("too close to the existing 'admin'");
    expect(screen.queryByTestId("temporary-password")).toBeNull();
  });

  it("makes an invite link, lists pending invites and revokes one", async () => {
    const { api } = mount();
    const rows = await screen.findAllByTestId("invite-row");
    expect(rows).toHaveLength(1);
    fireEvent.change(screen.getByTestId("invite-role"), { target: { value: "annotator" } });
    fireEvent.change(screen.getByTestId("invite-days"), { target: { value: "30" } });
    fireEvent.click(screen.getByTestId("invite-submit"));
    expect(((await screen.findByTestId("invite-url")) as HTMLInputElement).value).toBe("http://testserver/invite/tok-123");
    expect(api.callsTo("POST", "/api/projects/1/invites/")[0].body).toEqual({ role: "annotator", days: 30 });
    expect(screen.getAllByTestId("invite-row")).toHaveLength(2);
    fireEvent.click(screen.getByTestId("invite-revoke-5"));
    await waitFor(() => expect(screen.getAllByTestId("invite-row")).toHaveLength(1));
    expect(api.callsTo("DELETE", "/api/projects/1/invites/5/")).toHaveLength(1);
  });

  it("says so when the person added is already a member", async () => {
    mount();
    fireEvent.change(await screen.findByTestId("member-username"), { target: { value: "ann " } });
    fireEvent.click(screen.getByTestId("member-add"));
    expect((await screen.findByTestId("members-error")).textContent).toContain("already a member");
  });

  it("offers staff every account that is not a member yet", async () => {
    const { api } = mount(true);
    await screen.findByTestId("member-username");
    await waitFor(() => expect(api.callsTo("GET", "/api/users/")).not.toHaveLength(0));
    const options = await waitFor(() => {
      const found = [...screen.getByTestId("all-users").querySelectorAll("option")].map((o) => o.getAttribute("value"));
      expect(found).toContain("zoe");
      return found;
    });
    expect(options).not.toContain("admin"); // already a member
  });

  it("shows a page of members and loads the rest with Load more", async () => {
    const many = Array.from({ length: 70 }, (_, i) => ({
      user: { id: 100 + i, username: `user${String(i).padStart(2, "0")}` },
      role: "annotator" as const,
      screening: "" as const,
      screening_answered: 0,
    }));
    const { api } = mount(false, (s) => (s.members = many));
    const table = await screen.findByTestId("members-table");
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(51)); // head + 50
    const more = screen.getByTestId("members-more");
    expect(more.textContent).toContain("50 of 70 members shown");
    fireEvent.click(within(more).getByRole("button", { name: "Load more" }));
    await waitFor(() => expect(within(screen.getByTestId("members-table")).getAllByRole("row")).toHaveLength(71));
    expect(screen.getByTestId("members-table").textContent).toContain("user69");
    expect(screen.queryByTestId("members-more")).toBeNull();
    expect(api.callsTo("GET", "/api/projects/1/members/").map((c) => c.path)).toEqual([
      "/api/projects/1/members/?limit=50",
      "/api/projects/1/members/?limit=50&offset=50",
    ]);
  });

  it("issues a new temporary password only where the server allows it, shown once with Copy", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    const { api } = mount(false, (s) => {
      s.members[1] = { ...s.members[1], temporary_password: true, temporary_password_reissue: true };
      s.members[2] = { ...s.members[2], temporary_password: true, temporary_password_reissue: false };
    });
    fireEvent.click(await screen.findByTestId("reissue-ann"));
    expect(screen.queryByTestId("reissue-bob")).toBeNull(); // not allowed: no button
    expect(screen.queryByTestId("reissue-admin")).toBeNull();
    const dialog = screen.getByTestId("reissue-dialog");
    expect(api.callsTo("POST", "/api/projects/1/members/2/temporary-password/")).toHaveLength(0); // asks first
    fireEvent.click(within(dialog).getByTestId("reissue-confirm"));
    const shown = (await screen.findByTestId("reissued-password")) as HTMLInputElement;
    expect(shown.value).toBe("New4pass5word6");
    expect(api.callsTo("POST", "/api/projects/1/members/2/temporary-password/")).toHaveLength(1);
    expect(within(dialog).queryByTestId("reissue-confirm")).toBeNull(); // once
    fireEvent.click(within(dialog).getByRole("button", { name: "Copy" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith("New4pass5word6"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Done" }));
    expect(screen.queryByTestId("reissue-dialog")).toBeNull();
    expect(screen.queryByTestId("reissued-password")).toBeNull(); // gone with the dialog
  });

  it("shows the server's refusal in the dialog", async () => {
    mount(false, (s) => {
      s.members[2] = { ...s.members[2], temporary_password: true, temporary_password_reissue: true };
    });
    fireEvent.click(await screen.findByTestId("reissue-bob"));
    fireEvent.click(screen.getByTestId("reissue-confirm"));
    expect((await screen.findByTestId("reissue-error")).textContent).toContain("where you are not an admin");
    expect(screen.queryByTestId("reissued-password")).toBeNull();
  });
});
