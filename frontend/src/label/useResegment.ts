/**
 * Splitting a step in two (`S`, a dialog picks the cut) and merging a step with the next (`m`),
 * where the project allows it. Pending labels are saved first, then the split or merge names the
 * version they left; its answer is the task with the new steps, opened as a fresh task (a new
 * saver at the new version), so nothing is ever saved against the old step ids.
 */
import { useCallback, useState, type MutableRefObject } from "react";
import { mergeStep, splitStep, type Task } from "../api/labeling";
import type { ApiError } from "../api/client";
import type { Notice } from "../components/PageNotices";
import type { DraftSaver } from "./draftSaver";
import { isEditing, type Busy } from "./useClaim";

export function useResegment({
  taskRef,
  saverRef,
  busy,
  setNotice,
  openTask,
  goto,
}: {
  taskRef: MutableRefObject<Task | null>;
  saverRef: MutableRefObject<DraftSaver | null>;
  busy: Busy;
  setNotice: (notice: Notice | null) => void;
  openTask: (fetchTask: () => Promise<Task | null>) => Promise<boolean>;
  /** Make step `index` the current one (the new task opens on its first unrated step). */
  goto: (index: number) => void;
}) {
  const [splitting, setSplitting] = useState<number | null>(null);
  const [working, setWorking] = useState(false);

  /** Why the current task cannot be re-segmented now, or null. */
  const refusal = useCallback((): string | null => {
    const task = taskRef.current;
    if (!task) return "Nothing is loaded.";
    if (!task.project.allow_resegment) return "This project does not allow splitting or merging steps.";
    if (isEditing(task)) return "Steps can only be split or merged in a draft, not in a submitted solution.";
    if (busy !== null || working) return "Wait for the current action to finish.";
    return null;
  }, [taskRef, busy, working]);

  const run = useCallback(
    async (write: (task: Task, version: number) => Promise<Task>, done: string, at: number) => {
      const task = taskRef.current;
      const saver = saverRef.current;
      if (!task || !saver) return;
      setWorking(true);
      try {
        await saver.flush(); // the labels given so far are kept (or moved, see the docs)
        const changed = await saver.exclusive((version) => write(task, version));
        await openTask(async () => changed);
        goto(at);
        setNotice({ tone: "success", text: done });
      } catch (e) {
        const err = e as ApiError;
        setNotice({ tone: "error", text: err.message });
      } finally {
        setWorking(false);
      }
    },
    [taskRef, saverRef, openTask, setNotice, goto],
  );

  const startSplit = useCallback(
    (index: number) => {
      const why = refusal();
      if (why) setNotice({ tone: "info", text: why });
      else setSplitting(index);
    },
    [refusal, setNotice],
  );

  const split = useCallback(
    async (offset: number) => {
      const index = splitting;
      const task = taskRef.current;
      if (index === null || !task) return;
      const step = task.solution.steps[index];
      await run(
        (t, version) => splitStep(t.annotation.id, { version, step_id: step.id, offset }),
        `Step ${index + 1} split in two: rate both parts`,
        index,
      );
      setSplitting(null);
    },
    [splitting, taskRef, run],
  );

  const merge = useCallback(
    async (index: number) => {
      const why = refusal();
      if (why) {
        setNotice({ tone: "info", text: why });
        return;
      }
      const steps = taskRef.current?.solution.steps ?? [];
      if (index >= steps.length - 1) {
        setNotice({ tone: "info", text: "This is the last step: there is no next step to merge it with." });
        return;
      }
      const step = steps[index];
      await run(
        (t, version) => mergeStep(t.annotation.id, { version, step_id: step.id }),
        `Steps ${index + 1} and ${index + 2} merged`,
        index,
      );
    },
    [refusal, setNotice, taskRef, run],
  );

  return { splitting, busy: working, startSplit, split, merge, cancelSplit: () => setSplitting(null) };
}
