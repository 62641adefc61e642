import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as api from "../api";
import { DeleteProject } from "./DeleteProject";

const project = { id: 4, name: "Alpha" } as api.Project;

function renderIt() {
  return render(
    <MemoryRouter initialEntries={["/projects/4"]}>
      <Routes>
        <Route path="/projects/4" element={<DeleteProject project={project} />} />
        <Route path="/projects" element={<p>projects list</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe("DeleteProject", () => {
  it("deletes only once the name is typed, then goes to the projects list", async () => {
    const remove = vi.spyOn(api, "deleteProject").mockResolvedValue({ id: 4, deleted_at: "2026-01-01T00:00:00Z" });
    renderIt();
    fireEvent.click(screen.getByTestId("project-delete-open"));
    const confirm = screen.getByTestId("project-delete-confirm") as HTMLButtonElement;
    fireEvent.change(screen.getByTestId("project-delete-name"), { target: { value: "Alph" } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(screen.getByTestId("project-delete-name"), { target: { value: "Alpha" } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.getByText("projects list")).toBeTruthy());
    expect(remove).toHaveBeenCalledWith(4);
  });

  it("shows the server's refusal", async () => {
    vi.spyOn(api, "deleteProject").mockRejectedValue(new api.ApiError(403, "permission_denied", "This needs the admin role."));
    renderIt();
    fireEvent.click(screen.getByTestId("project-delete-open"));
    fireEvent.change(screen.getByTestId("project-delete-name"), { target: { value: "Alpha" } });
    fireEvent.click(screen.getByTestId("project-delete-confirm"));
    await waitFor(() => expect(screen.getByText("This needs the admin role.")).toBeTruthy());
  });
});
