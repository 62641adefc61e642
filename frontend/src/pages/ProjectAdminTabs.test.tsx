import { act, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, useLocation, useNavigate, type NavigateFunction } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeApi } from "../test/fakeApi";
import { FakeAssign } from "../test/fakeAssign";
import { makeProject } from "../test/fixtures";

// The browser's Back on the project page: a tab switch was a history replace, so Back after
// Import -> Members left the project (to the projects list) instead of going to Import.
let navigate: NavigateFunction = () => {};
function History() {
  navigate = useNavigate();
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

afterEach(() => vi.unstubAllGlobals());

describe("Project page tabs", () => {
  it("are history entries: Back and Forward move between the tabs", async () => {
    const api = new FakeApi([]);
    api.user = { id: 1, username: "admin", is_staff: true };
    api.project = makeProject({ role: "admin" });
    new FakeAssign(api);
    api.install();
    render(
      <MemoryRouter initialEntries={["/projects", "/projects/1"]} initialIndex={1}>
        <App />
        <History />
      </MemoryRouter>,
    );
    fireEvent.click(await screen.findByTestId("tab-import"));
    fireEvent.click(screen.getByTestId("tab-members"));
    expect(screen.getByTestId("where").textContent).toBe("/projects/1?tab=members");
    act(() => void navigate(-1));
    expect(screen.getByTestId("where").textContent).toBe("/projects/1?tab=import");
    expect(screen.getByTestId("tab-import").getAttribute("aria-selected")).toBe("true");
    act(() => void navigate(-1));
    expect(screen.getByTestId("where").textContent).toBe("/projects/1");
    act(() => void navigate(1));
    expect(screen.getByTestId("where").textContent).toBe("/projects/1?tab=import");
    // Clicking the tab that is open adds no entry.
    fireEvent.click(screen.getByTestId("tab-import"));
    act(() => void navigate(-1));
    expect(screen.getByTestId("where").textContent).toBe("/projects/1");
  });
});
