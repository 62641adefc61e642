import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => {
  cleanup();
});

// findBy* and waitFor give up after 1 s by default: the first test of a file that opens a lazy
// page waits for its chunk to load, more than a second on a loaded 2-core machine (CI runs the
// backend suite beside it). 3 s stays under vitest's 5 s test timeout.
configure({ asyncUtilTimeout: 3000 });

// jsdom lacks these; components call them.
if (!Element.prototype.scrollIntoView) {
  Element.prototype.scrollIntoView = function scrollIntoView() {};
}
