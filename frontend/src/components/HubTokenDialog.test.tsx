import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { hubTokenUse } from "./HubTokenDialog";

function mount() {
  const api = new FakeApi([]);
  api.user = { id: 1, username: "alice", is_staff: false };
  api.install();
  render(
    <MemoryRouter initialEntries={["/projects"]}>
      <App />
    </MemoryRouter>,
  );
  return api;
}

async function openDialog() {
  fireEvent.click(await screen.findByTestId("user-menu", {}, { timeout: 5000 }));
  fireEvent.click(screen.getByTestId("hub-token"));
  return screen.findByTestId("hub-token-dialog");
}

afterEach(() => vi.unstubAllGlobals());

describe("Hugging Face token (user menu)", () => {
  it("saves a token, shows only its last four characters, replaces and removes it", async () => {
    const api = mount();
    const dialog = await openDialog();
    const status = await within(dialog).findByTestId("hub-token-status");
    expect(status.textContent).toContain(
      "None set: your pushes and Hub imports use the server's token (HF_TOKEN) for repos under team/; elsewhere no token",
    );
    const input = within(dialog).getByTestId("hub-token-input") as HTMLInputElement;
    expect(input.type).toBe("password");
    const save = within(dialog).getByTestId("hub-token-save") as HTMLButtonElement;
    fireEvent.change(input, { target: { value: "hf short" } });
    expect(save.disabled).toBe(true);
    fireEvent.change(input, { target: { value: "hf_secretSECRETsecret7890" } });
    fireEvent.click(save);
    await waitFor(() => expect(within(dialog).getByTestId("hub-token-status").textContent).toContain("Set, ends in …7890"));
    expect(within(dialog).getByTestId("hub-token-status").textContent).toContain("Hub account alice");
    expect(input.value).toBe("");
    expect(dialog.textContent).not.toContain("hf_secretSECRETsecret7890");

    fireEvent.change(input, { target: { value: "hf_otherOTHERother4321" } });
    fireEvent.click(within(dialog).getByTestId("hub-token-check")); // saved unchecked
    fireEvent.click(save);
    await waitFor(() => expect(within(dialog).getByTestId("hub-token-status").textContent).toContain("…4321"));
    expect(within(dialog).getByTestId("hub-token-status").textContent).toContain("Not checked with the Hub");
    expect(api.callsTo("PUT", "/api/auth/hub-token/")[1].body).toEqual({ token: "hf_otherOTHERother4321", check: false });

    fireEvent.click(within(dialog).getByTestId("hub-token-remove"));
    await waitFor(() => expect(within(dialog).getByTestId("hub-token-status").textContent).toContain("None set"));
    expect(api.callsTo("DELETE", "/api/auth/hub-token/")).toHaveLength(1);
  });

  it("says why the Hub refused a token, and Escape closes the dialog", async () => {
    mount();
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByTestId("hub-token-input"), { target: { value: "hf_refusedREFUSEDbad0" } });
    fireEvent.click(within(dialog).getByTestId("hub-token-save"));
    expect((await within(dialog).findByTestId("hub-token-error")).textContent).toContain("The Hub refused this token");
    expect(within(dialog).getByTestId("hub-token-status").textContent).toContain("None set");
    fireEvent.keyDown(document, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("hub-token-dialog")).toBeNull());
  });

  it("says which repos the server's token covers: any (staff), the listed ones, or none", () => {
    const none = { set: false, last4: "", hub_user: "", checked_at: null, updated_at: null, server_token: true, server_repos: [] };
    expect(hubTokenUse({ ...none, uses: "server" })).toBe("the server's token (HF_TOKEN), for any repo (you are staff)");
    expect(hubTokenUse({ ...none, uses: "server_listed", server_repos: ["my-org/", "team/prm-"] })).toBe(
      "the server's token (HF_TOKEN) for repos under my-org/, team/prm-; elsewhere no token (public datasets only, pushes refused)",
    );
    expect(hubTokenUse({ ...none, uses: "none" })).toBe("no token: public datasets only, and pushes are refused");
    expect(hubTokenUse({ ...none, set: true, last4: "1234", uses: "user" })).toBe("your Hugging Face token (…1234)");
  });
});
