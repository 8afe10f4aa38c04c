// The page's entry: routes the location's hash to a screen.
//   #lobby (or nothing)            the lobby
//   #game=<id>[&table=<table>]     your seat in a game (token kept here, or from the table)
//   #watch=<id>[&code=<invite>]    a game as a spectator
//   #table=<table>                 waiting at a table for its game
//   #join=<table>[&code=<invite>]  joining a table from an invite link
//   #tour                          the Route-66 tour
//   #leaderboard                   the leaderboard and the ratings
//   #how-to-play                   the rules in brief, the points table, the buttons

import { api } from "./api.js";
import { el } from "./dom.js";
import { HowToPlayPage } from "./howto.js";
import { LeaderboardPage } from "./leaders.js";
import { joinTable, Lobby, TableWait } from "./lobby.js";
import { store } from "./store.js";
import { GameScreen } from "./table.js";
import { GameScreen1001 } from "./table1001.js";
import { TourPage } from "./tour.js";

const root = document.getElementById("app");
let screen = null;

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function problem(text) {
  root.replaceChildren(el("main", { class: "lobby" },
    el("p", { role: "alert" }, text), el("a", { href: "#lobby" }, "Back to the lobby")));
}

async function seatToken(gameId, tableId) {
  const kept = store.game(gameId);
  if (kept && kept.token) return kept.token;
  const player = store.player();
  if (!tableId || !player) return null;
  const table = await api.table(tableId, player.token);
  if (table.you && table.you.game_id === gameId && table.you.token) {
    store.saveGame(gameId, { token: table.you.token, seat: table.you.seat, table_id: tableId,
      label: `${table.variant} at a table` });
    return table.you.token;
  }
  return null;
}

/** The screen of a game, by its variant (the view read here is its first). */
async function gameScreen(options) {
  const view = await api.view(options.gameId, options.token, { inviteCode: options.inviteCode });
  const Screen = view.variant === "tausendeins" ? GameScreen1001 : GameScreen;
  return new Screen(root, { ...options, view });
}

async function route() {
  if (screen) screen.stop();
  screen = null;
  const params = new URLSearchParams(location.hash.slice(1));
  try {
    if (params.has("game")) {
      const gameId = params.get("game");
      const tableId = params.get("table") || (gameId.includes(".") ? gameId.split(".")[0] : null);
      const token = await seatToken(gameId, tableId);
      if (!token) {
        problem("This browser holds no seat in that game.");
        return;
      }
      screen = await gameScreen({ gameId, token, tableId, onLobby: (h) => go(h || "#lobby") });
    } else if (params.has("watch")) {
      const gameId = params.get("watch");
      screen = await gameScreen({ gameId, token: null, inviteCode: params.get("code"),
        tableId: gameId.includes(".") ? gameId.split(".")[0] : null, onLobby: (h) => go(h || "#lobby") });
    } else if (params.has("table")) {
      screen = new TableWait(root, { tableId: params.get("table"), go });
    } else if (params.has("tour")) {
      screen = new TourPage(root, go);
    } else if (params.has("leaderboard")) {
      screen = new LeaderboardPage(root);
    } else if (params.has("how-to-play")) {
      screen = new HowToPlayPage(root);
    } else if (params.has("join")) {
      if (!store.player()) {
        screen = new Lobby(root, go);
        screen.after = location.hash;
        screen.message = "Choose a name to join the table.";
      } else {
        await joinTable(params.get("join"), params.get("code"), go, () => {});
        return;
      }
    } else {
      screen = new Lobby(root, go);
    }
    await screen.start();
  } catch (error) {
    problem(`That did not work: ${error.message}`);
  }
}

window.addEventListener("hashchange", route);
route();
