import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { makeProject } from "../test/fixtures";
import { SettingsTab } from "./SettingsTab";

function renderIt(queue_refresh_since: string | null) {
  const project = makeProject({ role: "reviewer", overlap: 2, queue_refresh_since });
  render(
    <MemoryRouter>
      <SettingsTab project={project} onSaved={() => undefined} />
    </MemoryRouter>,
  );
}

describe("SettingsTab", () => {
  it("says an overlap change is still being applied to the queue", () => {
    renderIt("2026-12-07T15:00:00Z");
    expect(screen.getByText(/being applied to the queue in the background/)).toBeTruthy();
  });

  it("says nothing once it is applied", () => {
    renderIt(null);
    expect(screen.queryByText(/being applied to the queue/)).toBeNull();
  });
});
