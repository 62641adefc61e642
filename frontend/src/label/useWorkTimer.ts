import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Time spent on the current annotation, paused while the tab is hidden.
 * `elapsed()` is exact at any moment (sent with every save); `display` ticks once a second.
 */
export function useWorkTimer() {
  const base = useRef(0);
  const startedAt = useRef<number | null>(null);
  const [display, setDisplay] = useState(0);

  const elapsed = useCallback(() => {
    const running = startedAt.current === null ? 0 : performance.now() - startedAt.current;
    return Math.round(base.current + running);
  }, []);

  const pause = useCallback(() => {
    if (startedAt.current !== null) {
      base.current += performance.now() - startedAt.current;
      startedAt.current = null;
    }
  }, []);

  const resume = useCallback(() => {
    if (startedAt.current === null && !document.hidden) startedAt.current = performance.now();
  }, []);

  const reset = useCallback(
    (ms: number) => {
      base.current = Math.max(0, ms || 0);
      startedAt.current = null;
      resume();
      setDisplay(base.current);
    },
    [resume],
  );

  useEffect(() => {
    const onVisibility = () => (document.hidden ? pause() : resume());
    document.addEventListener("visibilitychange", onVisibility);
    const tick = setInterval(() => setDisplay(elapsed()), 1000);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      clearInterval(tick);
    };
  }, [elapsed, pause, resume]);

  return { elapsed, reset, pause, resume, display };
}

export function formatDuration(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
