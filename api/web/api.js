// The public HTTP API of sixtysix, as the page uses it: JSON in and out, problem+json errors,
// an Idempotency-Key on every write, and the waits a server asks for (429/503 Retry-After).

const RETRIES = 4;
const MAX_RETRY_AFTER_S = 10;

/** An RFC 9457 problem answered by the server (status, title, detail, reason, ...). */
export class ApiError extends Error {
  constructor(status, problem, retryAfter = null) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfter; // seconds, from a 429's or 503's Retry-After
  }
}

const UNSETTLED = ["outcome-unknown", "saved-view-unavailable"].map(
  (slug) => `https://sixtysix.dev/problems/${slug}`);

/** Whether a failed write may stand (the server could not confirm it, or saved it and could
 * not read its answer): the page reloads what it changed and never repeats it blindly. */
export function unsettled(error) {
  return Boolean(error && error.problem && UNSETTLED.includes(error.problem.type));
}

/** What the page says of a write `what` ("your move") that failed: never "not done" when it
 * may have been done. */
export function failedWrite(error, what, notDone = "Not done") {
  return unsettled(error)
    ? `The server could not confirm ${what}: it may have been done.`
    : `${notDone}: ${error.message}`;
}

/** 22 URL-safe random characters (crypto.getRandomValues works outside secure contexts too). */
export function randomKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One request. `token` goes in Authorization; a POST gets an Idempotency-Key, kept across its
 * retries so that a repeated write is applied once. Retries 429 and 503 with Retry-After (a
 * 503 without it, "outcome-unknown" or "saved-view-unavailable", is never repeated blindly:
 * the caller reloads, see `unsettled`).
 * `retry: false` answers a 429 at once (the caller tells the person to slow down).
 */
export async function request(method, path,
  { token, body, signal, headers = {}, retry = true } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers }, signal };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (method === "POST") init.headers["Idempotency-Key"] = randomKey();
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(path, init);
    const text = await response.text();
    const data = text ? JSON.parse(text) : null;
    if (response.ok) return data;
    const wait = Number(response.headers.get("Retry-After"));
    const told = response.headers.has("Retry-After") && wait >= 0;
    if ((response.status === 429 || response.status === 503) && told && attempt < RETRIES
        && (retry || response.status === 503)) {
      await sleep(Math.min(wait, MAX_RETRY_AFTER_S) * 1000);
      continue;
    }
    throw new ApiError(response.status, data || {}, told ? wait : null);
  }
}

export const api = {
  rules: () => request("GET", "/v1/rules"),
  createPlayer: (name) => request("POST", "/v1/players", { body: { name } }),
  myGames: (playerToken, status = "active") =>
    request("GET", `/v1/players/me/games?status=${status}`, { token: playerToken }),
  createGame: (body, playerToken) => request("POST", "/v1/games", { body, token: playerToken }),
  view: (gameId, token, { afterVersion, wait, signal, inviteCode } = {}) => {
    const query = new URLSearchParams();
    if (afterVersion !== undefined) query.set("after_version", afterVersion);
    if (wait !== undefined) query.set("wait", wait);
    if (inviteCode) query.set("invite_code", inviteCode);
    const q = query.toString();
    return request("GET", `/v1/games/${encodeURIComponent(gameId)}${q ? `?${q}` : ""}`,
      { token, signal });
  },
  act: (gameId, token, action) =>
    request("POST", `/v1/games/${encodeURIComponent(gameId)}/actions`, { token, body: action }),
  events: (gameId, token, after, inviteCode) => {
    const query = new URLSearchParams({ after });
    if (inviteCode) query.set("invite_code", inviteCode);
    return request("GET", `/v1/games/${encodeURIComponent(gameId)}/events?${query}`, { token });
  },
  hint: (gameId, token) =>
    request("POST", `/v1/games/${encodeURIComponent(gameId)}/hint`, { token }),
  tables: (status = "open") => request("GET", `/v1/tables?status=${status}`),
  table: (tableId, playerToken, inviteCode) => {
    const q = inviteCode ? `?invite_code=${encodeURIComponent(inviteCode)}` : "";
    return request("GET", `/v1/tables/${encodeURIComponent(tableId)}${q}`,
      { token: playerToken });
  },
  createTable: (playerToken, body) =>
    request("POST", "/v1/tables", { token: playerToken, body }),
  join: (tableId, playerToken, inviteCode) =>
    request("POST", `/v1/tables/${encodeURIComponent(tableId)}/join`,
      { token: playerToken, body: inviteCode ? { invite_code: inviteCode } : {} }),
  streamTicket: (gameId, token) =>
    request("POST", `/v1/games/${encodeURIComponent(gameId)}/stream-ticket`, { token }),
  chat: (gameId, token, text) =>
    request("POST", `/v1/games/${encodeURIComponent(gameId)}/chat`,
      { token, body: { text }, retry: false }),
  tour: (playerToken) => request("GET", "/v1/tour", { token: playerToken }),
  startTour: (station, playerToken) =>
    request("POST", `/v1/tour/${encodeURIComponent(station)}/start`, { token: playerToken }),
  leaderboard: ({ period, variant, kind }) => {
    const query = new URLSearchParams({ period, kind });
    if (variant) query.set("variant", variant);
    return request("GET", `/v1/leaderboard?${query}`);
  },
  ratings: ({ variant, kind }) =>
    request("GET", `/v1/ratings?${new URLSearchParams({ variant, kind })}`),
  rematch: (tableId, playerToken) =>
    request("POST", `/v1/tables/${encodeURIComponent(tableId)}/rematch`,
      { token: playerToken }),
};
