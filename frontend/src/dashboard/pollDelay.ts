// How long the dashboard waits before asking again while a refresh is pending: 2 s, doubling
// while the same snapshot comes back (a large project's refresh takes its time, and every
// poll is a request), at most 30 s; back to 2 s once a new snapshot arrives.

export const POLL_FIRST_MS = 2000;
export const POLL_MAX_MS = 30000;

/** The wait after a poll: `previous` the wait before it (null: the first poll), `same`
 * whether it answered the snapshot the poll before it did (nothing new yet). */
export function nextPollDelay(previous: number | null, same: boolean): number {
  if (previous === null || !same) return POLL_FIRST_MS;
  return Math.min(previous * 2, POLL_MAX_MS);
}
