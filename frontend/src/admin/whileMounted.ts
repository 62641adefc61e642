import type { ApiError } from "../api";

/** Sends one request with its busy flag on, for a tab that may unmount meanwhile: the
 *  outcome (`onDone` or `onError`) and the flag's reset reach state only while `alive`. */
export async function requestWhileMounted<T>(
  alive: { current: boolean },
  setBusy: (busy: boolean) => void,
  request: () => Promise<T>,
  onDone: (value: T) => void,
  onError: (err: ApiError) => void,
): Promise<void> {
  setBusy(true);
  try {
    const value = await request();
    if (!alive.current) return;
    onDone(value);
  } catch (err) {
    if (alive.current) onError(err as ApiError);
  } finally {
    if (alive.current) setBusy(false);
  }
}
