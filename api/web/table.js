// The table of one game: the hand, talon and trump, the trick and the last trick, the other
// seats with their presence and clocks, the buttons of the legal actions, the game log and
// the chat, and the settlement and balance dialogs. Views and events come from the answers to
// the page's own actions and from live.js (the event stream). table1001.js extends it for
// Tausendeins (headerTitle, scoreLine, hintValueCaption, lastTrick, choosable,
// dimsHand, cardMarks, settlementParts, resultText and the render methods are what it draws
// its own way).

import { api, failedWrite } from "./api.js";
import { cardBack, cardImage, cardName, faceSvg, sortCards, suitName } from "./cards.js";
import { ChatBox } from "./chat.js";
import { readingText, running, seatClockText } from "./clock.js";
import { button, el, trapTab } from "./dom.js";
import { keyCommand } from "./keys.js";
import { follow } from "./live.js";
import { store } from "./store.js";
import {
  actionWords, eventText, exchangeWords, gameTerms, hintCell, hintSummary, hoyleLines,
  SETTLEMENT_REASONS, seatName, settlementTitle, sideName, trickReason,
} from "./words.js";

const LOG_LINES = 80;
const OVER = new Set(["match_over", "aborted"]);
const TICK_MS = 250;
// The stream brings each chat message as it is logged; a long-poll (the fallback when streams
// fail) waits for a new version only, so without a stream the page reads the events after its
// last one this often.
const CHAT_POLL_MS = 2000;
// How often the page reads the table's count of spectators (it changes without a notice).
const WATCHERS_MS = 20000;

/** The game screen: `start()` loads it, `stop()` ends its live updates. */
export class GameScreen {
  // `view`: the game's view when the caller read it already (app.js, to pick the screen)
  constructor(root, { gameId, token, inviteCode = null, tableId = null, onLobby, view = null }) {
    this.root = root;
    this.gameId = gameId;
    this.token = token;
    this.inviteCode = inviteCode;
    this.tableId = tableId;
    this.onLobby = onLobby;
    this.settings = store.settings();
    this.view = null;
    this.events = [];
    this.lastSeq = 0;
    this.trickSoFar = {};
    this.trickWon = null;
    this.busy = false;
    this.queued = null; // an action made while busy (see act)
    this.hint = null;
    this.panel = null; // "balance" | "hint" | null
    this.message = "";
    this.confirming = null;
    this.lifted = null;
    this.stopped = false;
    this.announced = 0; // events read out to screen readers so far
    this.chat = new ChatBox(root, { gameId, token });
    this.liveMode = "connecting";
    this.clockRun = null;
    this.watchers = null;
    this.returnFocus = null; // data-focus of what had the focus before a panel opened
    this.timers = [];
    this.polling = false;
    this.onKeyDown = (event) => this.key(event);
    this.preloaded = view;
    this.trumpNow = null; // the trump as the events tell it (a marriage may change it)
  }

  async start() {
    document.addEventListener("keydown", this.onKeyDown);
    const view = this.preloaded
      || await api.view(this.gameId, this.token, { inviteCode: this.inviteCode });
    await this.loadEvents();
    this.announced = this.events.length;
    this.show(view);
    this.live = follow({
      gameId: this.gameId, token: this.token, version: view.version,
      inviteCode: this.inviteCode,
      lastSeq: () => this.lastSeq,
      onView: (v) => this.update(v),
      onEvent: (e) => this.addEvents([e]),
      onPresence: (seats) => this.presence(seats),
      onMode: (mode) => this.setLiveMode(mode),
      onError: (error) => this.say(`Connection trouble: ${error.message}; retrying.`),
    });
    this.timers.push(setInterval(() => this.tick(), TICK_MS));
    this.timers.push(setInterval(() => this.pollChat(), CHAT_POLL_MS));
    if (this.tableId) {
      this.countWatchers();
      this.timers.push(setInterval(() => this.countWatchers(), WATCHERS_MS));
    }
  }

  stop() {
    this.stopped = true; // answers still on their way must not draw over the next screen
    document.removeEventListener("keydown", this.onKeyDown);
    if (this.live) this.live.stop();
    for (const timer of this.timers) clearInterval(timer);
  }

  setLiveMode(mode) {
    this.liveMode = mode;
    const screen = this.root.querySelector("section.game");
    if (screen) screen.dataset.live = mode;
    if (mode === "stream" && this.message.startsWith("Connection trouble")) this.say("");
  }

  /** A seat's presence changed without a move (the stream's `presence`): redrawn as is. */
  presence(seats) {
    if (!this.view) return;
    this.view = { ...this.view, seats };
    this.render();
  }

  async pollChat() {
    if (this.liveMode === "stream" || this.busy || this.polling || this.stopped || !this.view) {
      return;
    }
    this.polling = true;
    try {
      await this.loadEvents();
    } catch {
      // the stream or the next poll brings them
    } finally {
      this.polling = false;
    }
  }

  async countWatchers() {
    const player = store.player();
    try {
      const table = await api.table(this.tableId, player ? player.token : undefined,
        this.inviteCode);
      this.watchers = table.spectators;
      const line = this.root.querySelector(".scoreboard .watchers");
      if (line) line.textContent = this.watchersText();
    } catch {
      this.watchers = null; // not a table we may read: no count shown
    }
  }

  watchersText() {
    return this.watchers ? `${this.watchers} watching` : "";
  }

  /** The clocks, redrawn in place every TICK_MS (text only: nothing moves). */
  tick() {
    const now = performance.now();
    for (const node of this.root.querySelectorAll(".clock[data-seat]")) {
      node.textContent = seatClockText(this.clockRun, Number(node.dataset.seat), now);
    }
    const reading = this.root.querySelector(".overlay .reading");
    if (reading) reading.textContent = readingText(this.clockRun, now);
  }

  get deck() {
    return this.settings.deck;
  }

  async loadEvents() {
    for (;;) {
      const page = await api.events(this.gameId, this.token, this.lastSeq, this.inviteCode);
      this.addEvents(page.events);
      if (!page.events.length || page.next_after >= page.last_seq) return;
    }
  }

  addEvents(events) {
    for (const event of events) {
      if (event.seq <= this.lastSeq) continue;
      this.lastSeq = event.seq;
      if (event.type === "card_played") this.trickSoFar[event.seat] = event.card;
      if (event.type === "trick_won") {
        event.winning_card = this.trickSoFar[event.seat];
        this.trickSoFar = {};
        this.trickWon = event;
      }
      if (event.type === "hand_dealt") {
        this.trickWon = null;
        this.trickSoFar = {};
        this.trumpNow = event.trump_suit || null;
      }
      if (event.type === "meld" && event.trump) { // a marriage that sets trump (Tausendeins)
        event.trump_before = this.trumpNow;
        this.trumpNow = event.trump;
      }
      if (event.type === "chat") this.chat.add(event);
      this.events.push(event);
    }
  }

  /** A newer view (the answer to an action, or from live.js); older ones are dropped. */
  async update(view) {
    if (this.view && view.version <= this.view.version) return;
    const events = view.events || [];
    if (events.length && events[0].seq > this.lastSeq + 1) await this.loadEvents();
    this.show(view);
  }

  show(view) {
    if (this.view && view.version <= this.view.version) return;
    if (this.view && view.hand_no !== this.view.hand_no) this.hint = null;
    this.addEvents(view.events || []);
    if (this.view) this.announce(view, this.events.slice(this.announced));
    this.announced = this.events.length;
    this.clockRun = running(view.clock, performance.now());
    this.view = view;
    if (this.live) this.live.seen(view.version);
    if (this.tableId === null && view.seat !== null && OVER.has(view.status)) {
      store.dropGame(this.gameId);
    }
    this.render();
  }

  /** Screen readers hear the other seats' moves (a live region outside the redrawn table). */
  announce(view, events) {
    const region = document.getElementById("announce");
    const lines = events.filter((e) => e.seat !== view.seat || e.type === "trick_won")
      .map((e) => eventText(view, e, this.deck)).filter(Boolean);
    if (region && lines.length) region.textContent = lines.join(" ");
  }

  say(text) {
    this.message = text;
    const status = this.root.querySelector(".status-line");
    if (status) status.textContent = text;
  }

  /** Send ``action``. One made while the last is still being sent (the live update showed
   * the answer first, so the page looked ready) waits for it, and is sent then if the new
   * view still offers it; a later one replaces it. */
  async act(action) {
    if (this.busy) {
      this.queued = action;
      return;
    }
    this.busy = true;
    this.hint = null;
    this.say("");
    try {
      const view = await api.act(this.gameId, this.token, action);
      await this.update(view);
    } catch (error) {
      this.say(failedWrite(error, "your move"));
      try {
        await this.update(await api.view(this.gameId, this.token));
      } catch {
        // the live updates carry on
      }
    } finally {
      this.busy = false;
    }
    await this.sendQueued();
  }

  /** The action made while busy, sent if the view still offers it. */
  async sendQueued() {
    const next = this.queued;
    this.queued = null;
    if (next && this.offers(next)) await this.act(next);
  }

  /** Whether the current view offers ``action`` (each of its members equal). */
  offers(action) {
    return (this.view.legal_actions || []).some((offered) => Object.keys(action).every(
      (key) => JSON.stringify(offered[key]) === JSON.stringify(action[key])));
  }

  legal(type) {
    return (this.view.legal_actions || []).filter((a) => a.type === type);
  }

  handCards() {
    return sortCards(this.view.hand || [], this.view.trump_suit);
  }

  playCard(card) {
    const allowed = this.legal("play").some((a) => a.card === card);
    if (!allowed) {
      this.say(this.view.to_act === this.view.seat && this.legal("play").length
        ? `The ${cardName(card, this.deck)} may not be played now.`
        : "It is not your turn.");
      return;
    }
    this.act({ type: "play", card });
  }

  /** A click on a card of the hand: a touch first lifts it (the setting), then plays it. */
  tapCard(card, event) {
    if (this.settings.lift_first && event.pointerType === "touch" && this.lifted !== card) {
      this.lifted = card;
      this.render();
      return;
    }
    this.lifted = null;
    this.playCard(card);
  }

  async askHint() {
    if (this.view.seat === null || !this.view.legal_actions.length || this.busy) return;
    this.busy = true;
    this.say("Asking the strong computer…");
    try {
      this.hint = await api.hint(this.gameId, this.token);
      this.openPanel("hint");
      this.say("");
    } catch (error) {
      this.say(`No hint: ${error.message}`);
    } finally {
      this.busy = false;
    }
    this.render();
    await this.sendQueued();
  }

  overlayOpen() {
    return Boolean(this.root.querySelector(".overlay"));
  }

  key(event) {
    const command = keyCommand({
      key: event.key, ctrlKey: event.ctrlKey, altKey: event.altKey, metaKey: event.metaKey,
      target: event.target && event.target.tagName,
    }, { overlay: this.overlayOpen(), settlement: this.overlayOpen() && !this.panel });
    if (!command) return;
    if (command.kind === "trap") {
      trapTab(this.root.querySelector(".overlay .dialog"), event);
      return;
    }
    // Enter on a focused button of a dialog is that button's (the browser clicks it)
    if (command.kind === "confirm" && event.target.closest
        && event.target.closest(".overlay button")) return;
    event.preventDefault();
    if (command.kind === "card") {
      const card = this.handCards()[command.index];
      if (card) this.playCard(card);
    } else if (command.kind === "hint") {
      this.askHint();
    } else if (command.kind === "balance") {
      this.openPanel("balance");
    } else if (command.kind === "confirm") {
      const primary = this.root.querySelector(".overlay [data-primary]");
      if (primary) primary.click();
    } else if (command.kind === "dismiss" && this.panel) {
      this.closePanel();
    }
  }

  /** A dialog over the table; closing it gives the focus back to what had it. */
  openPanel(panel) {
    const active = document.activeElement;
    this.returnFocus = active && active.dataset ? active.dataset.focus || null : null;
    this.panel = panel;
    this.render();
  }

  closePanel() {
    this.panel = null;
    this.render();
    const back = this.returnFocus
      && this.root.querySelector(`[data-focus="${CSS.escape(this.returnFocus)}"]`);
    this.returnFocus = null;
    const overlay = this.root.querySelector(".overlay");
    if (back && (!overlay || overlay.contains(back))) back.focus();
  }

  // ---- rendering -------------------------------------------------------------------------

  render() {
    if (this.stopped) return;
    const focused = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.focus : undefined;
    const view = this.view;
    const screen = el("section", { class: "game", "aria-label": "Table",
      "data-version": view.version, "data-status": view.status, "data-hand": view.hand_no,
      "data-live": this.liveMode, "data-variant": view.variant },
      this.renderHeader(),
      el("div", { class: "others" }, this.otherSeats().map((s) => this.renderSeat(s))),
      el("div", { class: "middle" }, this.renderStock(), this.renderTrick()),
      view.seat === null ? null : this.renderMe(),
      el("p", { class: "status-line", role: "status", "aria-live": "polite" }, this.message),
      el("div", { class: "bottom" }, this.renderLastTrick(),
        el("div", { class: "talk" }, this.renderLog(), this.chat.render(view.seat))),
      this.renderOverlay());
    this.root.replaceChildren(screen);
    for (const list of screen.querySelectorAll(".log ol, .chat ol")) {
      list.scrollTop = list.scrollHeight;
    }
    this.tick();
    const overlay = screen.querySelector(".overlay");
    const again = focused && screen.querySelector(`[data-focus="${CSS.escape(focused)}"]`);
    if (again && (!overlay || overlay.contains(again))) again.focus();
    else if (overlay) {
      (overlay.querySelector("[data-primary]") || overlay.querySelector("button")
        || overlay.querySelector(".dialog")).focus();
    }
    if (again && again.name === "chat") again.setSelectionRange(again.value.length, again.value.length);
  }

  otherSeats() {
    return this.view.seats.filter((s) => s.seat !== this.view.seat);
  }

  /** The heading of the scoreboard: variant, match length, hand. */
  headerTitle() {
    const view = this.view;
    return `${view.variant} · to ${view.match.target} · hand ${view.hand_no}`;
  }

  /** The score line of the scoreboard: [its label, its text]. */
  scoreLine() {
    const view = this.view;
    const match = view.match;
    const score = view.seats.map((s) => `${seatName(view, s.seat)} ${match.points[s.seat]}`);
    return ["Game points", view.variant === "four-hand"
      ? `Game points: ${sideName(view, [0, 2])} ${match.points[0]} · `
        + `${sideName(view, [1, 3])} ${match.points[1]}`
      : score.join(" · ")];
  }

  /** The caption of the hint's values. */
  hintValueCaption() {
    return "Expected game points of each action";
  }

  renderHeader() {
    const view = this.view;
    const [scoreLabel, scoreText] = this.scoreLine();
    const hinted = view.seat !== null
      && view.hinted_hands.some((h) => h.seat === view.seat && h.hand_no === view.hand_no);
    return el("header", { class: "scoreboard" },
      el("h1", { class: "match" }, this.headerTitle()),
      el("p", { class: "score", "aria-label": scoreLabel }, scoreText),
      view.seat === null ? el("p", { class: "watching" }, "Watching") : null,
      el("p", { class: "watchers", "aria-live": "polite" }, this.watchersText()),
      hinted ? el("p", { class: "hinted", text: `hint taken: this ${gameTerms(view).hand} is unrated` })
        : null,
      view.rated === false && view.unrated_reason
        ? el("p", { class: "unrated", text: view.unrated_reason }) : null,
      el("div", { class: "tools" },
        button("Balance (B)", () => this.openPanel("balance"), { "data-focus": "btn:balance" }),
        view.seat !== null && view.legal_actions.length
          && view.status === "playing" ? button("Hint (R)", () => this.askHint(), { "data-focus": "btn:hint" }) : null,
        view.can_resign ? this.confirmButton("resign", "Resign") : null,
        view.can_abort ? this.confirmButton("abort", "Abort") : null,
        button("Lobby", () => this.onLobby(), { "data-focus": "btn:lobby" }),
        el("a", { href: "#how-to-play", target: "_blank", rel: "noopener", class: "howto-link" },
          "How to play")));
  }

  confirmButton(type, label) {
    if (this.confirming === type) {
      return button(`Really ${label.toLowerCase()}?`, () => {
        this.confirming = null;
        this.act({ type });
      }, { class: "danger", "data-focus": `btn:${type}` });
    }
    return button(label, () => {
      this.confirming = type;
      this.render();
    }, { "data-focus": `btn:${type}` });
  }

  reasonBubble(seat) {
    const won = this.trickWon;
    if (!won || won.seat !== seat || this.view.status !== "playing") return null;
    return el("p", { class: "reason", role: "note" },
      `${seatName(this.view, seat)} took the trick: ${trickReason(won)}`);
  }

  /** The roles of a seat in this hand, after its name: "(dealer)", "(sits out)". */
  seatTag(info) {
    const view = this.view;
    const tags = [];
    if (view.sitting_out === info.seat) tags.push("sits out");
    if (view.dealer === info.seat) tags.push("dealer");
    return tags.length ? ` (${tags.join(", ")})` : "";
  }

  meldsOf(seat) {
    return (this.view.melds || []).filter((m) => m.seat === seat).map((m) =>
      el("li", {}, `${m.points} in ${suitName(m.suit, this.deck)}${m.credited ? "" : " (pending)"}`));
  }

  renderSeat(info) {
    const view = this.view;
    const count = (view.hand_sizes || [])[info.seat] ?? 0;
    const known = (view.known_cards || {})[info.seat] || [];
    const toAct = view.to_act === info.seat && view.status === "playing";
    const melds = this.meldsOf(info.seat);
    const away = info.connected === false;
    return el("div", { class: `seat other${toAct ? " to-act" : ""}${away ? " away" : ""}`,
      "data-seat": info.seat },
      el("h2", {}, `${seatName(view, info.seat)}${this.seatTag(info)}`),
      this.clockNode(info.seat),
      el("p", { class: "count" }, `${count} card${count === 1 ? "" : "s"}${toAct ? " · to play" : ""}`,
        away ? el("span", { class: "away-sign", title: "not connected" }, "away") : null),
      el("div", { class: "backs", "aria-hidden": "true" },
        Array.from({ length: count }, () => cardBack("", "small"))),
      known.length ? el("div", { class: "known", "aria-label": `Known cards of ${info.name}` },
        el("span", { text: "known: " }),
        sortCards(known, view.trump_suit).map((c) => cardImage(c, this.deck, "small"))) : null,
      melds.length ? el("ul", { class: "melds", "aria-label": "Shown pairs" }, melds) : null,
      this.reasonBubble(info.seat));
  }

  renderStock() {
    const view = this.view;
    const trump = suitName(view.trump_suit, this.deck);
    const closed = view.closed_by !== null && view.closed_by !== undefined;
    const parts = [];
    if (view.trump_card) {
      parts.push(cardImage(view.trump_card, this.deck, "trump-card"));
    } else if (closed && view.talon_size > 0) {
      parts.push(cardBack("the trump card, turned down", "trump-card"));
    }
    if (view.talon_size > 0) {
      parts.push(cardBack(`talon: ${view.talon_size} cards`, "talon"));
      parts.push(el("span", { class: "talon-count", "aria-hidden": "true" }, String(view.talon_size)));
    }
    if (closed) {
      parts.push(el("span", { class: "closed-sign" }, "Closed"));
    }
    const label = `Trump ${trump}; talon ${view.talon_size} cards`
      + `${closed ? `, closed by ${seatName(view, view.closed_by)}` : ""}`;
    return el("div", { class: "stock", role: "group", "aria-label": label },
      el("div", { class: "pile" }, parts),
      el("p", { class: "trump-suit" }, `Trump: ${trump}`),
      this.renderCounter());
  }

  /** Each side's points in this hand, when the game's setting point_counter (chosen by
   * whoever made the game or table) puts them in the view: for every seat alike. */
  renderCounter() {
    const view = this.view;
    if (!view.points) return null;
    return el("ul", { class: "counter", "aria-label": "Points in this hand" },
      view.points.map((p) => el("li", {},
        `${sideName(view, p.seats)}: ${p.total}${p.pending_melds ? ` (+${p.pending_melds} pending)` : ""}`)));
  }

  renderTrick() {
    const view = this.view;
    const cards = (view.trick || []).map((c) => el("figure", { class: "played" },
      cardImage(c.card, this.deck), el("figcaption", {}, seatName(view, c.seat))));
    return el("div", { class: "trick", role: "group", "aria-label": "Current trick" },
      cards.length ? cards : el("p", { class: "empty" },
        view.status === "playing" ? `${seatName(view, view.to_act)} to lead` : ""));
  }

  /** The last trick taken: {cards: [{seat, card}], winner}, or null. */
  lastTrick() {
    return this.view.last_trick;
  }

  renderLastTrick() {
    const view = this.view;
    const last = this.lastTrick();
    return el("div", { class: "last-trick", role: "group", "aria-label": "Last trick" },
      el("h2", {}, "Last trick"),
      last ? el("div", { class: "cards" }, last.cards.map((c) =>
        el("figure", { class: c.seat === last.winner ? "winner" : "" },
          cardImage(c.card, this.deck, "small"), el("figcaption", {}, seatName(view, c.seat)))))
        : el("p", { class: "empty" }, "none yet"),
      last ? el("p", {}, `${seatName(view, last.winner)} took it`) : null);
  }

  renderLog() {
    const lines = this.events.map((e) => [e.seq, eventText(this.view, e, this.deck)])
      .filter(([, line]) => line);
    return el("div", { class: "log" },
      el("h2", {}, "Game log"),
      el("ol", { role: "log", "aria-live": "polite", "aria-label": "Game log" },
        lines.slice(-LOG_LINES).map(([seq, line]) => el("li", { "data-seq": seq }, line))));
  }

  /** A seat's clock: always there in a game with a clock (no layout shift), its countdown
   * written by tick() while the seat is to move. */
  clockNode(seat) {
    if (!this.view.clock) return null;
    return el("span", { class: "clock", "data-seat": seat, role: "timer",
      "aria-label": `Time left of ${seatName(this.view, seat)}` });
  }

  renderActions() {
    const view = this.view;
    const buttons = [];
    if (this.legal("declare").length) {
      const lit = view.can_declare_66 ? " lit" : "";
      buttons.push(button("66!", () => this.act({ type: "declare" }),
        { class: `declare${lit}`, "aria-label": "Declare 66", "data-focus": "btn:declare" }));
    }
    if (this.legal("close").length) {
      buttons.push(button("Close", () => this.act({ type: "close" }),
        { "aria-label": "Close the talon", "data-focus": "btn:close" }));
    }
    for (const meld of this.legal("meld")) {
      const points = meld.suit === view.trump_suit ? 40 : 20;
      buttons.push(button(`Show pair ${suitName(meld.suit, this.deck)} ${points}`,
        () => this.act(meld), {
          "aria-label": `Show the pair of ${suitName(meld.suit, this.deck)} for ${points}`,
          "data-focus": `btn:meld:${meld.suit}`,
        }));
    }
    if (this.legal("exchange").length) {
      const words = exchangeWords(view, this.deck);
      buttons.push(button(words.text, () => this.act({ type: "exchange" }), {
        "aria-label": words.label,
        "data-focus": "btn:exchange",
      }));
    }
    return el("div", { class: "actions", role: "toolbar", "aria-label": "Actions" }, buttons);
  }

  /** The cards of the hand a click would play (or choose) now. */
  choosable() {
    return new Set(this.legal("play").map((a) => a.card));
  }

  /** Whether the cards that may not be played now are dimmed (the setting): while cards are
   * played (not during an auction, when none is). */
  dimsHand() {
    return true;
  }

  /** Classes marking a card of the hand beyond legal, hinted and lifted (" selected"). */
  cardMarks() {
    return "";
  }

  renderMe() {
    const view = this.view;
    const me = view.seats.find((s) => s.seat === view.seat);
    const legal = this.choosable();
    const hinted = this.hint && this.hint.best.type === "play" ? this.hint.best.card : null;
    const toAct = view.to_act === view.seat && view.status === "playing";
    const cards = this.handCards().map((card, i) => {
      const ok = legal.has(card);
      const dim = !ok && this.settings.dim_illegal && toAct && this.dimsHand() ? " illegal" : "";
      const node = el("button", {
        type: "button",
        class: `card${dim}${card === hinted ? " hinted" : ""}${card === this.lifted ? " lifted" : ""}`
          + this.cardMarks(card),
        "data-card": card,
        "data-focus": `card:${card}`,
        "aria-label": `${cardName(card, this.deck)}${i < 9 ? ` (key ${i + 1})` : ""}`,
        "aria-disabled": ok ? "false" : "true",
        onclick: (event) => this.tapCard(card, event),
      });
      node.innerHTML = faceSvg(card, this.deck);
      return node;
    });
    const melds = this.meldsOf(view.seat);
    return el("div", { class: `seat me${toAct ? " to-act" : ""}` },
      el("h2", {}, `${me ? me.name : "You"}${me ? this.seatTag(me) : ""}`
        + `${toAct ? " · your turn" : ""}`),
      this.clockNode(view.seat),
      this.reasonBubble(view.seat),
      melds.length ? el("ul", { class: "melds", "aria-label": "Your shown pairs" }, melds) : null,
      this.renderActions(),
      el("div", { class: "hand", role: "group", "aria-label": "Your hand" }, cards));
  }

  renderOverlay() {
    if (this.panel === "balance") return this.renderBalance();
    if (this.panel === "hint" && this.hint) return this.renderHint();
    const view = this.view;
    if (view.status === "hand_over" || view.status === "match_over" || view.status === "aborted") {
      return this.renderSettlement();
    }
    return null;
  }

  dialog(title, body, primary) {
    return el("div", { class: "overlay" },
      el("div", { class: "dialog", role: "dialog", "aria-modal": "true", tabindex: "-1",
        "aria-labelledby": "dialog-title" },
      el("h2", { id: "dialog-title" }, title), body, el("div", { class: "dialog-buttons" }, primary)));
  }

  /** The hint: its best action and the others in words, with what each is worth. */
  renderHint() {
    const view = this.view;
    const hint = this.hint;
    const best = actionWords(view, hint.best, this.deck);
    return this.dialog("Hint", el("div", {},
      el("p", { class: "hint-best" },
        `The strong computer would ${best[0].toLowerCase()}${best.slice(1)}.`),
      hint.would_declare_66 ? el("p", {}, "It would declare 66 now.") : null,
      el("p", { class: "hint-value" }, hintSummary(view, hint, this.deck)),
      el("table", { class: "balance" },
        el("caption", {}, this.hintValueCaption()),
        el("tbody", {}, hint.actions.map((a) => el("tr", {},
          el("td", {}, actionWords(view, a.action, this.deck)),
          el("td", {}, hintCell(view, a.expected_game_points)))))),
      el("p", { class: "hinted" },
        `This ${gameTerms(view).hand} is now marked as hinted (unrated).`)),
    button("OK", () => this.closePanel(), { "data-primary": "", "data-focus": "btn:ok" }));
  }

  renderBalance() {
    const view = this.view;
    const settled = this.events.filter((e) => e.type === "hand_settled");
    const rows = settled.map((e, n) => {
      const s = e.settlement;
      return el("tr", {},
        el("td", {}, String(n + 1)),
        el("td", {}, s.winners.length ? `${sideName(view, s.winners)} +${s.game_points}` : "nobody"),
        el("td", {}, SETTLEMENT_REASONS[s.reason] || s.reason),
        el("td", {}, s.sides.map((side) => side.total).join(" : ")));
    });
    return this.balanceDialog("Balance of all hands",
      settled.length ? `Game points: ${view.match.points.join(" : ")}` : "No hand finished yet.",
      ["Hand", "Won", "Why", "Card points"], rows);
  }

  /** The balance dialog: a table of one row per finished hand (or deal) under its headings. */
  balanceDialog(title, caption, headings, rows) {
    const table = el("table", { class: "balance" },
      el("caption", {}, caption),
      el("thead", {}, el("tr", {}, headings.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, rows));
    return this.dialog(title, table,
      button("Close", () => this.closePanel(), { "data-primary": "", "data-focus": "btn:close-panel" }));
  }

  /** The settlement's working: its verdict, each side's points and cards, the match score. */
  settlementParts(s) {
    const view = this.view;
    const parts = [];
    if (s) {
      const reason = SETTLEMENT_REASONS[s.reason] || s.reason;
      parts.push(el("p", { class: "verdict" }, s.winners.length
        ? `${sideName(view, s.winners)} ${s.winners.includes(view.seat) ? "win" : "wins"} `
          + `${s.game_points} game point${s.game_points === 1 ? "" : "s"}: ${reason}.`
        : `Nobody scores: ${reason}.`));
      parts.push(el("p", { class: "explanation" }, s.explanation));
      for (const side of s.sides) {
        const terms = [`cards ${side.trick_points}`,
          ...side.melds.map((m) => `pair ${m.points} (${suitName(m.suit, this.deck)})`)];
        if (side.last_trick_bonus) terms.push(`last trick ${side.last_trick_bonus}`);
        parts.push(el("section", { class: "side" },
          el("h3", {}, sideName(view, side.seats)),
          el("p", { class: "working" }, `${terms.join(" + ")} = ${side.total}`),
          side.forfeited_melds.length ? el("p", { class: "forfeited" }, `forfeited: ${
            side.forfeited_melds.map((m) => `${m.points} (${suitName(m.suit, this.deck)})`).join(", ")}`)
            : null,
          el("div", { class: "taken", "aria-label": `Cards taken by ${sideName(view, side.seats)}` },
            sortCards(side.cards, view.trump_suit).map((c) => cardImage(c, this.deck, "tiny")))));
      }
      if (s.missing_points) {
        parts.push(el("p", { class: "missing" },
          `The declaration was ${s.missing_points} points short of 66.`));
      }
      parts.push(...hoyleLines(view, s).map((line) => el("p", { class: "hoyle" }, line)));
    }
    parts.push(el("p", { class: "match-score" }, `Game points: ${view.match.points.join(" : ")}`));
    return parts;
  }

  renderSettlement() {
    const view = this.view;
    const parts = this.settlementParts(view.settlement);
    const title = settlementTitle(view);
    let primary;
    if (this.clockRun && this.clockRun.kind === "settlement") {
      parts.push(el("p", { class: "reading", role: "timer" }));
    }
    if (view.status === "hand_over") {
      if (this.legal("continue").length) {
        primary = [
          view.clock && view.clock.can_pause ? button("Pause", () => this.act({ type: "pause" }),
            { "data-focus": "btn:pause", "aria-label": "Pause: hold the settlement longer" })
            : null,
          button("Continue (Enter)", () => this.act({ type: "continue" }),
            { "data-primary": "", class: "primary", "data-focus": "btn:continue" })];
      } else {
        parts.push(el("p", {}, view.seat === null ? "Waiting for the players to continue…"
          : "Waiting for the others to continue…"));
      }
    } else {
      parts.push(el("p", { class: "result" }, this.resultText()));
      primary = [
        this.tableId && view.seat !== null && view.status === "match_over"
          ? button("Rematch", () => this.rematch()) : null,
        button("Back to the lobby (Enter)", () => this.onLobby(),
          { "data-primary": "", class: "primary", "data-focus": "btn:leave" }),
      ];
    }
    return this.dialog(title, el("div", { class: "settlement" }, parts), primary);
  }

  resultText() {
    const view = this.view;
    const match = view.match;
    if (match.result_reason === "aborted") {
      return `Aborted by ${seatName(view, match.aborted_by)}: no result.`;
    }
    const side = match.set_winner ?? match.winner;
    let winners = [];
    if (side !== null && side !== undefined) {
      winners = view.variant === "four-hand"
        ? view.seats.map((s) => s.seat).filter((s) => s % 2 === side) : [side];
    }
    let line = `${winners.length ? sideName(view, winners) : "Nobody"} won the match `
      + `(${match.points.join(":")}).`;
    if (match.result_reason === "resigned") line += ` ${seatName(view, match.resigned_by)} resigned.`;
    return line;
  }

  async rematch() {
    const player = store.player();
    if (!player) return;
    try {
      await api.rematch(this.tableId, player.token);
      this.say("Rematch asked: the next match starts when everybody has asked.");
      this.onLobby(`#table=${this.tableId}`);
    } catch (error) {
      this.say(`No rematch: ${error.message}`);
    }
  }
}
