// What the browser keeps (localStorage): the player and his token, the seat tokens of games
// made with POST /v1/games (a table's games get theirs from the table), and the settings.

const PLAYER = "sixtysix.player";
const GAMES = "sixtysix.games";
const SETTINGS = "sixtysix.settings";

export const DEFAULT_SETTINGS = { deck: "french", dim_illegal: true, lift_first: true,
  point_counter: false, hint_66: false };

function read(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

const write = (key, value) => localStorage.setItem(key, JSON.stringify(value));

export const store = {
  player: () => read(PLAYER, null),
  setPlayer: (player) => write(PLAYER, player),
  forgetPlayer: () => localStorage.removeItem(PLAYER),
  games: () => read(GAMES, {}),
  game: (gameId) => read(GAMES, {})[gameId] || null,
  saveGame(gameId, entry) {
    const games = read(GAMES, {});
    games[gameId] = { ...games[gameId], ...entry };
    write(GAMES, games);
  },
  dropGame(gameId) {
    const games = read(GAMES, {});
    delete games[gameId];
    write(GAMES, games);
  },
  settings: () => ({ ...DEFAULT_SETTINGS, ...read(SETTINGS, {}) }),
  saveSettings: (settings) => write(SETTINGS, settings),
};
