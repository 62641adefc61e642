import { useEffect } from "react";

/** While `unsaved`, the browser asks before a reload or a closed tab drops the page: what lives
 * only in the page until it is sent (a reopened submission's changes until Resubmit, a
 * reviewer's decisions until Submit decision) was lost without a word. */
export function useLeaveGuard(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = ""; // older Chromium asks only when returnValue is set
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [unsaved]);
}
