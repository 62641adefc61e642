import { describe, expect, it } from "vitest";
import { nextPollDelay, POLL_FIRST_MS, POLL_MAX_MS } from "./pollDelay";

describe("nextPollDelay", () => {
  it("doubles from 2 s to 30 s while nothing new comes back", () => {
    const waits: number[] = [];
    let wait: number | null = null;
    for (let i = 0; i < 7; i++) {
      wait = nextPollDelay(wait, i > 0);
      waits.push(wait);
    }
    expect(waits).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it("starts again at 2 s when a new snapshot arrives", () => {
    expect(nextPollDelay(POLL_MAX_MS, false)).toBe(POLL_FIRST_MS);
    expect(nextPollDelay(16000, false)).toBe(POLL_FIRST_MS);
  });
});
