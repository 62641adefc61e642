import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeApi } from "../test/fakeApi";
import { fakePage, routeOf } from "../test/fakePage";
import { makeProject } from "../test/fixtures";
import { mountApp } from "../test/labelPage";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the projects page", () => {
  it("reaches every project of someone in more than a page of them", async () => {
    const projects = Array.from({ length: 120 }, (_, i) => makeProject({ id: i + 1, name: `Project ${String(i + 1).padStart(3, "0")}` }));
    const api = new FakeApi([]);
    api.overrides.push((call) =>
      call.method === "GET" && routeOf(call.path) === "/api/projects/" ? { status: 200, body: fakePage(projects, call.path) } : undefined,
    );
    mountApp(api, "/projects");
    await waitFor(() => expect(screen.getAllByTestId("project-card")).toHaveLength(50));
    expect(screen.getByTestId("projects-more").textContent).toContain("50 of 120 projects shown");
    fireEvent.click(screen.getByRole("button", { name: "Load more" }));
    await waitFor(() => expect(screen.getAllByTestId("project-card")).toHaveLength(100));
    fireEvent.click(screen.getByRole("button", { name: "Load more" }));
    await waitFor(() => expect(screen.getAllByTestId("project-card")).toHaveLength(120));
    expect(screen.queryByTestId("projects-more")).toBeNull();
    expect(screen.getAllByTestId("project-card").at(-1)?.textContent).toContain("Project 120");
  });
});
