// Following a game: every new view of it, as soon as it changes. Today by long-poll
// (GET /v1/games/{id}?after_version=V&wait=S); the same interface can be served by an
// EventSource on GET /v1/games/{id}/stream once the server offers it.

import { api } from "./api.js";

export const WAIT_S = 25;
const BACKOFF_MS = [1000, 2000, 5000, 10000];

/**
 * Calls `onView(view)` for every view newer than `version` until `stop()` is called or the
 * game is over (status match_over or aborted). Errors go to `onError` and the loop retries
 * after a growing pause. Returns `{ stop, seen(version) }`: `seen` tells the follower about a
 * newer view the page got otherwise (the answer to its own action), so that it is not
 * reported twice.
 */
export function follow({ gameId, token, version, inviteCode, onView, onError = () => {} }) {
  let current = version;
  let stopped = false;
  const controller = new AbortController();
  let failures = 0;

  async function loop() {
    while (!stopped) {
      try {
        const view = await api.view(gameId, token, {
          afterVersion: current, wait: WAIT_S, signal: controller.signal, inviteCode,
        });
        failures = 0;
        if (stopped) return;
        if (view.version > current) {
          current = view.version;
          onView(view);
        }
        if (view.status === "match_over" || view.status === "aborted") return;
      } catch (error) {
        if (stopped) return;
        onError(error);
        const pause = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)];
        failures += 1;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }
  loop();
  return {
    stop() {
      stopped = true;
      controller.abort();
    },
    seen(newVersion) {
      // no abort: the pending wait answers at once (the game moved past its version) and
      // is dropped as not newer; aborting would leave the server waiting for nobody
      if (newVersion > current) current = newVersion;
    },
  };
}
