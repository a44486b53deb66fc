// A timer for an instant of the wall clock (`Date.now()`), for work that a time stored in the
// database also gates (a lease's end, a retry time). Node's timers may fire a little before
// their delay has passed by `Date.now()`: they count from the event loop's cached monotonic time,
// which lags the real time by the work done since the loop last looked (nodejs/node#26578). A
// timer that fires early is armed again for what is left, so `run` never sees `Date.now()` short
// of `dueAt`. It does not hold the process open.

export interface WallClockTimer {
  cancel(): void;
}

export function atWallClock(dueAt: number, run: () => void): WallClockTimer {
  let timer: NodeJS.Timeout;
  const arm = () => {
    timer = setTimeout(() => (Date.now() < dueAt ? arm() : run()), Math.max(0, dueAt - Date.now()));
    timer.unref();
  };
  arm();
  return { cancel: () => clearTimeout(timer) };
}
