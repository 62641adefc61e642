import { useEffect } from "react";

/** While `unsaved`, the browser asks before a reload or a closed tab drops the page: changes to
 * a reopened submission live only in the page until Resubmit (they are never autosaved). */
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
