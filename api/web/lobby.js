// The lobby: your name (the anonymous player), a match against the computer, a new table,
// the open tables, games to watch, your games, and the settings of this browser.

import { api, unsettled } from "./api.js";
import { button, el, select } from "./dom.js";
import { followTable } from "./live.js";
import { store } from "./store.js";

const REFRESH_MS = 5000;
/** Think times offered (seconds), within the rules' bounds; "" is no clock. */
const THINK_TIMES = [10, 15, 20, 30, 45, 60, 90, 120];
const FALLBACK_RULES = {
  variants: [{ name: "sixty-six", players: 2 }],
  computer_levels: [{ name: "random" }, { name: "easy" }, { name: "normal" }, { name: "strong" }],
  options: [{ name: "match_points", allowed: [3, 7, 11], default: 7 }],
};

function checkbox(name, label, checked) {
  const id = `f-${name}`;
  return el("p", { class: "field check" },
    el("input", { type: "checkbox", id, name, checked }), el("label", { for: id }, label));
}

function formValue(form, name) {
  const field = form.elements.namedItem(name);
  return field.type === "checkbox" ? field.checked : field.value;
}

/** The game settings a new game or table may turn on (a prefix keeps the ids unique). */
function settingFields(prefix) {
  const kept = store.settings();
  return [checkbox(`${prefix}point_counter`, "Point counter", kept.point_counter),
    checkbox(`${prefix}hint_66`, "66 light (shows when you could declare)", kept.hint_66)];
}

function readSettings(form, prefix) {
  const settings = { point_counter: formValue(form, `${prefix}point_counter`),
    hint_66: formValue(form, `${prefix}hint_66`) };
  store.saveSettings({ ...store.settings(), ...settings });
  return settings;
}

/** A variant's own rule options (GET /v1/rules lists them with the variant: Tausendeins); the
 * Sixty-Six family has none of its own, and plays to match points with the table settings, at
 * tables and for the leaderboard, which serve only that family. */
export function ownOptions(variant) {
  return (variant && variant.options) || [];
}

/** An option of GET /v1/rules in words: its label ("bid cap"), what it does (the rules'
 * own description) and its values as choices ("last trick" for last_trick). */
export function optionText(option) {
  const words = (value) => String(value).replace(/_/g, " ");
  return { label: words(option.name), description: option.description,
    choices: option.range ? [] : option.allowed.map((v) => [String(v), words(v)]) };
}

/** The fields of a variant's own options (ids prefixed): a number for a range, else a select,
 * each with what it does written under it; the target first, the others folded away under
 * "More rules". */
function ruleFields(prefix, options) {
  const field = (o) => {
    const name = `${prefix}rule_${o.name}`;
    const text = optionText(o);
    const about = el("p", { class: "note rule-about", id: `about-${name}` }, text.description);
    let input;
    if (o.range) {
      input = el("p", { class: "field" }, el("label", { for: `f-${name}` }, text.label),
        el("input", { id: `f-${name}`, name, type: "number", min: String(o.allowed[0]),
          max: String(o.allowed[1]), value: String(o.default), required: true }));
    } else {
      input = select(name, text.label, text.choices, String(o.default));
    }
    input.querySelector("input, select").setAttribute("aria-describedby", about.id);
    return el("div", { class: "rule" }, input, about);
  };
  const ranged = options.filter((o) => o.range);
  const listed = options.filter((o) => !o.range);
  return [...ranged.map(field), listed.length ? el("details", { class: "more-rules" },
    el("summary", {}, "More rules"), listed.map(field)) : null];
}

/** The packs a variant may be dealt with (GET /v1/rules: its `decks`, option deck) as
 * choices, none when it has only its own. */
export function deckChoices(variant) {
  const decks = (variant && variant.decks) || [];
  if (decks.length < 2) return [];
  return decks.map((d) => [String(d.deck), d.deck === 32 ? "32 cards (with the 8s and 7s)"
    : `${d.deck_size} cards`]);
}

/** The rules a game of the Sixty-Six family sends for the pack chosen ("" or the variant's
 * own: none). */
export function deckRules(chosen) {
  return chosen && chosen !== "24" ? { deck: Number(chosen) } : {};
}

/** The options of the form's rule fields that differ from their defaults, typed. */
export function readRules(form, prefix, options) {
  const rules = {};
  for (const o of options) {
    const raw = formValue(form, `${prefix}rule_${o.name}`);
    let value = raw;
    if (o.type === "integer") value = Number(raw);
    else if (o.type === "boolean") value = raw === "true";
    if (value !== o.default) rules[o.name] = value;
  }
  return rules;
}

/** "sixty-six to 7" (match points; ", 32 cards" with that pack), "tausendeins to 1001" (its
 * target), or the variant alone. */
export function gameLength(table) {
  const rules = table.rules || {};
  const to = table.match_points ?? rules.target_points;
  return `${table.variant}${to ? ` to ${to}` : ""}${rules.deck === 32 ? ", 32 cards" : ""}`;
}

export function inviteLink(tableId, inviteCode) {
  return `${location.origin}/play#join=${encodeURIComponent(tableId)}&code=${encodeURIComponent(inviteCode)}`;
}

/** The lobby screen; `go(hash)` navigates. */
export class Lobby {
  constructor(root, go) {
    this.root = root;
    this.go = go;
    this.rules = FALLBACK_RULES;
    this.message = "";
  }

  async start() {
    try {
      this.rules = await api.rules();
    } catch (error) {
      this.message = `The rules could not be read: ${error.message}`;
    }
    await this.render();
    this.timer = setInterval(() => this.refreshLists(), REFRESH_MS);
  }

  stop() {
    this.stopped = true; // a render still waiting for the server must not draw any more
    clearInterval(this.timer);
  }

  /** The open tables and the games to watch, redrawn in place (the forms keep their input). */
  async refreshLists() {
    const player = store.player();
    const fresh = [await this.renderWatch()];
    if (player) fresh.push(await this.renderTables());
    for (const section of fresh) {
      const old = this.stopped ? null : this.root.querySelector(`section.${section.classList[1]}`);
      if (old && !old.contains(document.activeElement)) old.replaceWith(section);
    }
  }

  say(text) {
    this.message = text;
    const line = this.root.querySelector(".lobby .status-line");
    if (line) line.textContent = text;
  }

  variants() {
    return this.rules.variants.map((v) => [v.name, `${v.name} (${v.players} players)`]);
  }

  players(variant) {
    const found = this.rules.variants.find((v) => v.name === variant);
    return found ? found.players : 2;
  }

  /** A variant's own options (none for the Sixty-Six family). */
  optionsOf(variant) {
    return ownOptions(this.rules.variants.find((v) => v.name === variant));
  }

  /** The variant's fields: match points, table settings and `familyOnly` (the clock), or its
   * own rule options (these replace them: Tausendeins plays to a target and has no point
   * counter, 66 light or clock). */
  variantFields(prefix, variantSelect, familyOnly = []) {
    const deckBox = el("div", { class: "deck-field" });
    const matchBox = el("div", { class: "match-fields" },
      select(`${prefix}match_points`, "Match to", this.matchPoints(), 7), deckBox,
      settingFields(prefix), familyOnly);
    const rulesBox = el("div", { class: "rule-fields" });
    const draw = () => {
      const variant = variantSelect.querySelector("select").value;
      const options = this.optionsOf(variant);
      matchBox.hidden = options.length > 0;
      rulesBox.replaceChildren(...ruleFields(prefix, options).filter(Boolean));
      const decks = deckChoices(this.rules.variants.find((v) => v.name === variant));
      deckBox.replaceChildren(...(decks.length
        ? [select(`${prefix}pack`, "Pack", decks, decks[0][0])] : []));
    };
    variantSelect.querySelector("select").addEventListener("change", draw);
    draw();
    return [matchBox, rulesBox];
  }

  /** What a new game or table of `variant` sends besides its seats: match points and
   * settings, or the rules of its own options. */
  gameFields(form, prefix, variant) {
    const options = this.optionsOf(variant);
    if (options.length) return { rules: readRules(form, prefix, options), settings: {} };
    const pack = form.elements.namedItem(`${prefix}pack`);
    return { settings: readSettings(form, prefix), rules: deckRules(pack ? pack.value : ""),
      match_points: Number(formValue(form, `${prefix}match_points`)) };
  }

  matchPoints() {
    const option = this.rules.options.find((o) => o.name === "match_points");
    return option ? option.allowed.map((p) => [p, `${p} points`]) : [[7, "7 points"]];
  }

  levels() {
    return this.rules.computer_levels.map((l) => [l.name, l.name]);
  }

  /** The clock's fields of a new table: think time (none, or seconds within the rules'
   * bounds) and what happens when it runs out. */
  clockFields() {
    const setting = (this.rules.settings || []).find((s) => s.name === "think_time_s");
    if (!setting) return [];
    const { min, max } = setting.allowed;
    const times = [...new Set([min, ...THINK_TIMES])].filter((t) => t >= min && t <= max);
    const onTimeout = (this.rules.settings || []).find((s) => s.name === "on_timeout");
    const words = { computer: "a computer moves for you", forfeit: "the hand is lost" };
    return [select("think_time_s", "Think time per move", [["", "no clock"],
      ...times.map((t) => [t, `${t} s`])], ""),
    select("on_timeout", "When the time runs out",
      (onTimeout ? onTimeout.allowed : ["computer"]).map((v) => [v, words[v] || v]),
      onTimeout ? onTimeout.default : "computer")];
  }

  async render() {
    const player = store.player();
    const sections = [this.renderName(player)];
    if (player) {
      sections.push(this.renderComputer(), this.renderNewTable(),
        await this.renderTables(), await this.renderMine(player));
    }
    sections.push(await this.renderWatch(), this.renderSettings());
    if (this.stopped) return;
    this.root.replaceChildren(el("main", { class: "lobby" },
      el("h1", {}, "Sixty-Six"),
      el("nav", { class: "site-nav", "aria-label": "Pages" },
        el("a", { href: "#how-to-play" }, "How to play"),
        el("a", { href: "#tour" }, "Route 66 tour"),
        el("a", { href: "#leaderboard" }, "Leaderboard and ratings")),
      el("p", { class: "status-line", role: "status", "aria-live": "polite" }, this.message),
      sections));
    const first = this.root.querySelector("input[name=name], button.primary");
    if (first && !this.root.contains(document.activeElement)) first.focus();
  }

  renderName(player) {
    if (player) {
      return el("section", { class: "panel name", "aria-labelledby": "h-name" },
        el("h2", { id: "h-name" }, "You"),
        el("p", {}, "Playing as ", el("strong", { class: "player-name" }, player.name)),
        button("Use another name", () => {
          store.forgetPlayer();
          this.render();
        }));
    }
    const form = el("form", { class: "panel name", "aria-labelledby": "h-name" },
      el("h2", { id: "h-name" }, "Your name"),
      el("p", { class: "field" }, el("label", { for: "f-name" }, "Name (3–20 letters or digits)"),
        el("input", { id: "f-name", name: "name", required: true, minlength: "3", maxlength: "20",
          autocomplete: "nickname" })),
      el("button", { type: "submit", class: "primary" }, "Start"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const created = await api.createPlayer(formValue(form, "name").trim());
        store.setPlayer({ player_id: created.player_id, name: created.name, token: created.token });
        this.message = `Welcome, ${created.name}.`;
        if (this.after) {
          const next = this.after;
          this.after = null;
          this.go(next);
          return;
        }
        await this.render();
      } catch (error) {
        this.say(`That name did not work: ${error.message}`);
      }
    });
    return form;
  }

  renderComputer() {
    const variantSelect = select("variant", "Variant", this.variants(), "sixty-six");
    const form = el("form", { class: "panel computer", "aria-labelledby": "h-computer" },
      el("h2", { id: "h-computer" }, "Play the computer"),
      select("level", "Level", this.levels(), "normal"),
      variantSelect,
      this.variantFields("", variantSelect),
      el("p", { class: "note counts" }, "Counts for the leaderboard: every hand you win, and "
        + "the place at the end; a hand in which you ask for a hint does not count."),
      el("button", { type: "submit", class: "primary" }, "Play"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const player = store.player();
      const variant = formValue(form, "variant");
      const level = formValue(form, "level");
      const fields = this.gameFields(form, "", variant);
      const seats = [{ kind: "human", name: player.name }];
      for (let i = 1; i < this.players(variant); i += 1) seats.push({ kind: "computer", level });
      try {
        const game = await api.createGame({ variant, seats, ...fields }, player.token);
        store.saveGame(game.game_id, { token: game.seats[0].token, seat: 0,
          label: `${variant} against ${level}`, created: Date.now() });
        this.go(`#game=${game.game_id}`);
      } catch (error) {
        this.say(`No game: ${error.message}`);
      }
    });
    return form;
  }

  renderNewTable() {
    const seatKinds = [["open", "open for a person"],
      ...this.levels().map(([l]) => [`computer:${l}`, `computer (${l})`])];
    const seatsBox = el("div", { class: "seat-fields" });
    const variantSelect = select("t_variant", "Variant", this.variants(), "sixty-six");
    const drawSeats = () => {
      const players = this.players(variantSelect.querySelector("select").value);
      seatsBox.replaceChildren(...Array.from({ length: players - 1 }, (_, i) =>
        select(`seat_${i + 1}`, `Seat ${i + 2}`, seatKinds, "open")));
    };
    variantSelect.querySelector("select").addEventListener("change", drawSeats);
    drawSeats();
    const form = el("form", { class: "panel new-table", "aria-labelledby": "h-table" },
      el("h2", { id: "h-table" }, "New table"),
      variantSelect,
      select("visibility", "Who may join", [["public", "anybody (listed)"],
        ["private", "only with the invite link"]], "public"),
      seatsBox,
      this.variantFields("t_", variantSelect, this.clockFields()),
      el("button", { type: "submit", class: "primary" }, "Create table"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const variant = formValue(form, "t_variant");
      const seats = [{ kind: "player" }];
      for (let i = 1; i < this.players(variant); i += 1) {
        const kind = formValue(form, `seat_${i}`);
        seats.push(kind === "open" ? { kind: "open" }
          : { kind: "computer", level: kind.split(":")[1] });
      }
      try {
        const fields = this.gameFields(form, "t_", variant);
        const think = form.elements.namedItem("think_time_s");
        if (think && think.value && !this.optionsOf(variant).length) {
          fields.settings.think_time_s = Number(think.value);
          fields.settings.on_timeout = formValue(form, "on_timeout");
        }
        const table = await api.createTable(store.player().token, {
          variant, seats, visibility: formValue(form, "visibility"), ...fields,
        });
        if (table.invite_code) store.saveGame(`table:${table.table_id}`, { invite: table.invite_code });
        this.go(`#table=${table.table_id}`);
      } catch (error) {
        // a table that may have been made: its page reads it again (or says there is none)
        if (unsettled(error) && error.problem.table_id) this.go(`#table=${error.problem.table_id}`);
        else this.say(`No table: ${error.message}`);
      }
    });
    return form;
  }

  async listTables(status) {
    try {
      return (await api.tables(status)).tables;
    } catch (error) {
      this.message = `The tables could not be read: ${error.message}`;
      return [];
    }
  }

  tableLine(table) {
    const names = table.seats.map((s) => (s.kind === "open" ? "open seat" : s.name || s.level)).join(", ");
    return `${gameLength(table)}: ${names}`;
  }

  async renderTables() {
    const tables = await this.listTables("open");
    const mine = store.player().player_id;
    return el("section", { class: "panel open-tables", "aria-labelledby": "h-open" },
      el("h2", { id: "h-open" }, "Open tables"),
      tables.length ? el("ul", {}, tables.map((t) => el("li", {}, this.tableLine(t), " ",
        t.seats.some((s) => s.player_id === mine)
          ? button("Wait there", () => this.go(`#table=${t.table_id}`))
          : button("Join", () => this.go(`#join=${t.table_id}`),
            { "aria-label": `Join ${this.tableLine(t)}` }))))
        : el("p", {}, "No open table: create one."),
      button("Refresh", () => this.render()));
  }

  async renderWatch() {
    const tables = (await this.listTables("playing")).filter((t) => t.game_id);
    return el("section", { class: "panel watch", "aria-labelledby": "h-watch" },
      el("h2", { id: "h-watch" }, "Watch"),
      tables.length ? el("ul", {}, tables.map((t) => el("li", {}, this.tableLine(t), " ",
        el("a", { href: `#watch=${t.game_id}` }, "watch"))))
        : el("p", {}, "No public game is being played."));
  }

  async renderMine(player) {
    const items = [];
    try {
      const page = await api.myGames(player.token);
      for (const g of page.games) {
        const who = g.opponents.map((o) => o.name).join(", ");
        items.push(el("li", {}, `${g.variant} against ${who}${g.your_turn ? " · your turn" : ""} `,
          el("a", { href: `#game=${g.game_id}&table=${g.table_id}` }, "resume")));
      }
    } catch (error) {
      if (error.status === 401) {
        store.forgetPlayer();
        this.message = "Your player is not known here any more: choose a name again.";
      }
    }
    for (const [gameId, entry] of Object.entries(store.games())) {
      if (!entry.token) continue;
      items.push(el("li", {}, `${entry.label || gameId} `,
        el("a", { href: `#game=${gameId}` }, "resume")));
    }
    return el("section", { class: "panel mine", "aria-labelledby": "h-mine" },
      el("h2", { id: "h-mine" }, "Your games"),
      items.length ? el("ul", {}, items) : el("p", {}, "None running."));
  }

  renderSettings() {
    const settings = store.settings();
    const form = el("form", { class: "panel settings", "aria-labelledby": "h-settings" },
      el("h2", { id: "h-settings" }, "Settings"),
      select("deck", "Card pictures", [["french", "French"], ["german", "German (Bavarian)"]],
        settings.deck),
      checkbox("dim_illegal", "Dim the cards you may not play", settings.dim_illegal),
      checkbox("lift_first", "Touch screens: the first tap lifts a card, the second plays it",
        settings.lift_first));
    form.addEventListener("change", () => {
      store.saveSettings({ ...store.settings(), deck: formValue(form, "deck"),
        dim_illegal: formValue(form, "dim_illegal"), lift_first: formValue(form, "lift_first") });
      this.say("Settings saved.");
    });
    return form;
  }
}

/** Waiting at a table until its game starts, with its invite link: the table's stream says
 * when it changed (seats taken, the game's start), then the page reads it with the player's
 * token (which holds his seat token; a stream cannot send it). */
export class TableWait {
  constructor(root, { tableId, inviteCode, go }) {
    this.root = root;
    this.tableId = tableId;
    this.inviteCode = inviteCode || (store.game(`table:${tableId}`) || {}).invite || null;
    this.go = go;
    this.stopped = false;
    this.mode = "connecting";
  }

  async start() {
    await this.poll();
    this.live = followTable({ tableId: this.tableId, inviteCode: this.inviteCode,
      onChange: () => this.poll(),
      onMode: (mode) => {
        this.mode = mode;
        const main = this.root.querySelector("main.waiting");
        if (main) main.dataset.live = mode;
      } });
  }

  stop() {
    this.stopped = true;
    if (this.live) this.live.stop();
  }

  async poll() {
    if (this.stopped) return;
    const player = store.player();
    try {
      const table = await api.table(this.tableId, player.token, this.inviteCode);
      if (this.stopped) return;
      const you = table.you;
      if (you && you.token && you.game_id && table.status === "playing"
          && (table.rematch || []).length === 0) {
        store.saveGame(you.game_id, { token: you.token, seat: you.seat, table_id: this.tableId,
          label: `${table.variant} at a table` });
        this.go(`#game=${you.game_id}&table=${this.tableId}`);
        return;
      }
      this.render(table);
    } catch (error) {
      if (this.stopped) return;
      this.render(null, error.message);
    }
  }

  render(table, problem = "") {
    let invite = null;
    if (table && table.status === "open") {
      invite = table.invite_code ? inviteLink(this.tableId, table.invite_code)
        : `${location.origin}/play#join=${encodeURIComponent(this.tableId)}`;
    }
    this.root.replaceChildren(el("main", { class: "lobby waiting", "data-live": this.mode },
      el("h1", {}, "Waiting for players"),
      problem ? el("p", { role: "alert" }, problem) : null,
      table && table.status === "finished" ? el("p", {}, "The match is over: the next one "
        + `starts when every player has asked for it (asked: ${table.rematch.length}).`) : null,
      table && table.status === "open" ? el("p", {}, `${gameLength(table)}: `
        + `${table.open_seats} open seat${table.open_seats === 1 ? "" : "s"}.`) : null,
      invite ? el("p", {}, "Invite link: ",
        el("input", { class: "invite", readonly: true, value: invite, "aria-label": "Invite link",
          size: "60" })) : null,
      table ? el("ul", {}, table.seats.map((s) =>
        el("li", {}, `Seat ${s.seat + 1}: ${s.kind === "open" ? "open" : s.name || s.level}`))) : null,
      button("Back to the lobby", () => this.go("#lobby"))));
  }
}

/** Joining a table from a link: #join=<table>&code=<invite>. */
export async function joinTable(tableId, inviteCode, go, say) {
  const player = store.player();
  const table = await api.table(tableId, player.token, inviteCode);
  if (!table.you) {
    try {
      await api.join(tableId, player.token, inviteCode);
    } catch (error) {
      if (!unsettled(error)) throw error; // the table's page shows whether the seat is taken
    }
  }
  if (inviteCode) store.saveGame(`table:${tableId}`, { invite: inviteCode });
  say("");
  go(`#table=${tableId}`);
}
