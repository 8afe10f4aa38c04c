// Clocks (pure): the view's `clock` counted down in the page. The page keeps the moment a view
// arrived and counts from its `remaining_ms` (the server's own reckoning at that view), so a
// browser whose wall clock is wrong still shows the right time.

/** "1:05", "0:07"; whole seconds rounded up (a clock shows 0:00 only when time is up). */
export function formatRemaining(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * What runs now: `{ kind: "move" | "settlement", seat, endsAt }` (`endsAt` on the page's
 * clock: `receivedAt` plus `remaining_ms`), or null when nothing is timed.
 */
export function running(clock, receivedAt) {
  if (!clock || clock.remaining_ms === null || clock.remaining_ms === undefined) return null;
  return { kind: clock.for, seat: clock.seat, endsAt: receivedAt + clock.remaining_ms };
}

/** The text of `seat`'s clock at `now`: its countdown while it is to move, else "". */
export function seatClockText(run, seat, now) {
  if (!run || run.kind !== "move" || run.seat !== seat) return "";
  return formatRemaining(run.endsAt - now);
}

/** The settlement's reading time at `now` ("Reading time 0:18"), or "" when none runs. */
export function readingText(run, now) {
  if (!run || run.kind !== "settlement") return "";
  return `Reading time ${formatRemaining(run.endsAt - now)}`;
}
