// Following a game or a table as it changes: by its event stream (Server-Sent Events), and by
// long-polls only when the stream fails.
//
// A game: GET /v1/games/{id}/stream. An EventSource cannot send Authorization, so a seat
// first asks POST /v1/games/{id}/stream-ticket (one use) and opens `?ticket=`; a spectator
// opens it without (a private table's game with `invite_code`). Every (re)connect asks a fresh
// ticket and passes `after=` the seq of the last event the page holds: the server sends the
// view, then every later event once, then goes on live (no event lost, none twice). The
// browser's own reconnect would reuse the spent ticket, so the page closes a broken stream and
// opens the next itself. After STREAM_TRIES streams in a row that brought no view although the
// server answered (a ticket was issued) the page falls back to long-polls
// (GET /v1/games/{id}?after_version=V&wait=25); a network that is down only delays the retries.

import { api } from "./api.js";

export const WAIT_S = 25;
export const STREAM_TRIES = 3;
const BACKOFF_MS = [500, 1000, 2000, 5000, 10000];
const OVER = new Set(["match_over", "aborted"]);

const pause = (failures) => BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The URL of a game's stream: a ticket (a seat), the seq to resume after, an invite code. */
export function streamUrl(gameId, { ticket = null, after = null, inviteCode = null } = {}) {
  const query = new URLSearchParams();
  if (ticket) query.set("ticket", ticket);
  if (after !== null && after !== undefined) query.set("after", String(after));
  if (inviteCode) query.set("invite_code", inviteCode);
  const q = query.toString();
  return `/v1/games/${encodeURIComponent(gameId)}/stream${q ? `?${q}` : ""}`;
}

/**
 * Follows a game from `version`: `onView(view)` for every newer view, `onEvent(event)` for
 * every event after `lastSeq()` (the page's last seq, read at each connect), `onPresence(seats)`
 * when a seat's `connected` changed without a move, `onMode("stream" | "poll")` when the way
 * changes, `onError(error)` before each retry. `env` replaces EventSource, the API and the
 * timer (unit tests). Returns `{ stop, seen(version) }`: `seen` tells of a newer view the page
 * got otherwise (its own action's answer), so that it is not reported again.
 */
export function follow({ gameId, token, inviteCode = null, version, lastSeq = () => null,
  onView, onEvent = () => {}, onPresence = () => {}, onMode = () => {}, onError = () => {},
  env = {} }) {
  const Source = "EventSource" in env ? env.EventSource : globalThis.EventSource;
  const client = env.api || api;
  const wait = env.sleep || sleep;
  let current = version;
  let stopped = false;
  let failures = 0; // streams in a row that brought no view
  let attempt = 0; // retries in a row, for the pause before the next
  let source = null;
  let mode = null;
  const controller = new AbortController();

  const setMode = (next) => {
    if (mode !== next) onMode(next);
    mode = next;
  };
  const deliver = (view) => {
    if (view.version > current) {
      current = view.version;
      onView(view);
    }
  };

  async function retry(error, streamFailed) {
    if (stopped) return;
    onError(error);
    if (streamFailed) failures += 1;
    const ms = pause(attempt);
    attempt += 1;
    await wait(ms);
    connect();
  }

  async function connect() {
    if (stopped) return;
    if (!Source || failures >= STREAM_TRIES) {
      setMode("poll");
      attempt = 0;
      poll();
      return;
    }
    let ticket = null;
    try {
      if (token) ticket = (await client.streamTicket(gameId, token)).ticket;
    } catch (error) {
      retry(error, false); // the server is out of reach: not the stream's fault
      return;
    }
    if (stopped) return;
    const stream = new Source(streamUrl(gameId, { ticket, after: lastSeq(), inviteCode }));
    source = stream;
    stream.addEventListener("view", (message) => {
      failures = 0;
      attempt = 0;
      setMode("stream");
      deliver(JSON.parse(message.data));
    });
    stream.addEventListener("game_event", (message) => {
      const event = JSON.parse(message.data);
      const last = lastSeq();
      if (last === null || event.seq > last) onEvent(event);
    });
    stream.addEventListener("presence", (message) => onPresence(JSON.parse(message.data).seats));
    stream.onerror = () => {
      stream.close(); // never the browser's reconnect: its ticket is spent
      if (source === stream) source = null;
      retry(new Error("the event stream broke off"), true);
    };
  }

  async function poll() {
    while (!stopped) {
      try {
        const view = await client.view(gameId, token, {
          afterVersion: current, wait: WAIT_S, signal: controller.signal, inviteCode,
        });
        attempt = 0;
        if (stopped) return;
        deliver(view);
        if (OVER.has(view.status)) return;
      } catch (error) {
        if (stopped) return;
        onError(error);
        const ms = pause(attempt);
        attempt += 1;
        await wait(ms);
      }
    }
  }

  connect();
  return {
    stop() {
      stopped = true;
      controller.abort();
      if (source) source.close();
    },
    seen(newVersion) {
      // a pending long-poll answers at once (the game moved past its version) and is dropped
      // as not newer; aborting it would leave the server waiting for nobody
      if (newVersion > current) current = newVersion;
    },
  };
}

/**
 * Follows a table: `onChange()` at the first `event: table` of GET /v1/tables/{id}/stream
 * and after every change (the page then reads the table with its token, which the stream
 * cannot send); every `fallbackMs` instead once STREAM_TRIES streams in a row failed.
 */
export function followTable({ tableId, inviteCode = null, onChange, onMode = () => {},
  fallbackMs = 2000, env = {} }) {
  const Source = "EventSource" in env ? env.EventSource : globalThis.EventSource;
  const wait = env.sleep || sleep;
  let stopped = false;
  let failures = 0;
  let source = null;

  async function connect() {
    if (stopped) return;
    if (!Source || failures >= STREAM_TRIES) {
      onMode("poll");
      while (!stopped) {
        await onChange();
        await wait(fallbackMs);
      }
      return;
    }
    const q = inviteCode ? `?invite_code=${encodeURIComponent(inviteCode)}` : "";
    const stream = new Source(`/v1/tables/${encodeURIComponent(tableId)}/stream${q}`);
    source = stream;
    stream.addEventListener("table", () => {
      failures = 0;
      onMode("stream");
      onChange();
    });
    stream.onerror = async () => {
      stream.close();
      if (stopped) return;
      await wait(pause(failures));
      failures += 1;
      connect();
    };
  }

  connect();
  return {
    stop() {
      stopped = true;
      if (source) source.close();
    },
  };
}
