// The table of a Tausendeins (1001) game: table.js's GameScreen with what this game has of its
// own. No trump card: the trump suit is none until the first marriage of a deal, and each
// marriage makes its suit trump (the log says each change). The stock's count, or the two
// musiks; the totals to the target; the auction with a button per bid allowed and Pass; the
// musik to take, the two cards to discard (chosen in the hand), the raise; the marriages; the
// settlement's working with the contract, and the game's end; the hint's values as deal
// margins.

import { cardBack, cardImage, cardName, sortCards, suitName } from "./cards.js";
import { button, el } from "./dom.js";
import { GameScreen } from "./table.js";
import {
  actionWords, callsText, contractText, contractVerdict, dealWorking, gameResultText, marriageValue,
  meldText, seatName, totalsText, trumpText,
} from "./words.js";

/** The cards chosen to discard after a click on `card`: added (the oldest of two dropped), or
 * taken back if chosen already. */
export function toggleChosen(chosen, card) {
  if (chosen.includes(card)) return chosen.filter((c) => c !== card);
  return [...chosen, card].slice(-2);
}

/** The discard action of two chosen cards, or null when not two are chosen. */
export function discardAction(chosen) {
  return chosen.length === 2 ? { type: "discard", cards: [...chosen] } : null;
}

export class GameScreen1001 extends GameScreen {
  constructor(root, options) {
    super(root, options);
    this.chosen = []; // the cards chosen to discard
  }

  hintValueCaption() {
    return "How far ahead of the other player (or behind) each action ends the deal, on average";
  }

  headerTitle() {
    return `tausendeins · to ${this.view.target} · deal ${this.view.hand_no}`;
  }

  scoreLine() {
    return ["Totals", totalsText(this.view)];
  }

  seatTag(info) {
    const view = this.view;
    const tags = [];
    if (view.dealer === info.seat) tags.push("dealer");
    if (view.auction && view.stage !== "auction" && view.auction.declarer === info.seat) {
      tags.push(`declarer, ${view.auction.contract}`);
    }
    return tags.length ? ` (${tags.join(", ")})` : "";
  }

  meldsOf(seat) {
    return (this.view.melds || []).filter((m) => m.seat === seat)
      .map((m) => el("li", {}, meldText(m, this.deck)));
  }

  lastTrick() {
    const tricks = this.view.tricks || [];
    if (!tricks.length) return null;
    const last = tricks[tricks.length - 1];
    return { winner: last.winner, cards: [{ seat: last.leader, card: last.cards[0] },
      { seat: 1 - last.leader, card: last.cards[1] }] };
  }

  discarding() {
    return this.legal("discard").length > 0;
  }

  choosable() {
    return this.discarding() ? new Set(this.view.hand) : super.choosable();
  }

  dimsHand() {
    return this.view.stage === "play" || this.discarding();
  }

  cardMarks(card) {
    return this.chosen.includes(card) ? " selected" : "";
  }

  /** A card of the hand: chosen (or unchosen) for the discard, else played. */
  playCard(card) {
    if (!this.discarding()) {
      super.playCard(card);
      return;
    }
    this.chosen = toggleChosen(this.chosen, card);
    this.render();
    this.say(this.chosen.length === 2 ? `${actionWords(this.view, discardAction(this.chosen),
      this.deck)}?` : "Choose two cards of your hand to discard.");
  }

  render() {
    if (this.view && !this.discarding()) this.chosen = [];
    super.render();
    const screen = this.stopped ? null : this.root.querySelector("section.game");
    if (screen) screen.dataset.stage = this.view.stage;
  }

  renderStock() {
    const view = this.view;
    const parts = [];
    if (view.stock_size > 0) {
      parts.push(cardBack(`stock: ${view.stock_size} cards`, "talon"));
      parts.push(el("span", { class: "talon-count", "aria-hidden": "true" }, String(view.stock_size)));
    }
    const contract = contractText(view);
    return el("div", { class: "stock t1001", role: "group",
      "aria-label": `${trumpText(view, this.deck)}; stock ${view.stock_size} cards` },
    parts.length ? el("div", { class: "pile" }, parts) : null,
    this.renderMusik(),
    el("p", { class: "trump-suit" }, trumpText(view, this.deck)),
    el("p", { class: "stock-count" }, view.stock_size ? `Stock: ${view.stock_size} cards`
      : "No stock: follow suit and win the trick if you can"),
    contract ? el("p", { class: "contract" }, contract) : null,
    view.auction ? el("p", { class: "calls" }, `Auction: ${callsText(view)}`) : null);
  }

  /** The two musiks face down, or the one taken (its cards if shown). */
  renderMusik() {
    const musik = this.view.musik;
    if (!musik) return null;
    if (musik.taken === null) {
      return el("div", { class: "musiks", role: "group", "aria-label": "The two musiks" },
        [1, 2].map((n) => el("figure", { class: "musik" },
          cardBack(`musik ${n}, face down`, "small"), cardBack("", "small"),
          el("figcaption", {}, `Musik ${n}`))));
    }
    return el("div", { class: "musiks", role: "group", "aria-label": `Musik ${musik.taken} taken` },
      el("p", {}, `Musik ${musik.taken} taken${musik.cards ? ":" : ""}`),
      (musik.cards || []).map((c) => cardImage(c, this.deck, "small")),
      musik.own_discards ? el("p", { class: "discards" },
        `You discarded the ${musik.own_discards.map((c) => cardName(c, this.deck))
          .join(" and the ")}.`) : null);
  }

  renderTrick() {
    const view = this.view;
    if (view.status !== "playing" || view.stage === "play") return super.renderTrick();
    const mine = view.to_act === view.seat;
    const who = seatName(view, view.to_act);
    let line = mine ? "Your bid" : `${who} to bid`;
    if (view.stage === "musik") {
      const taking = !view.musik || view.musik.taken === null;
      if (taking) line = mine ? "Take a musik" : `${who} takes a musik`;
      else line = mine ? "Discard two cards" : `${who} discards two cards`;
    }
    return el("div", { class: "trick", role: "group", "aria-label": "Current trick" },
      el("p", { class: "empty" }, line));
  }

  renderActions() {
    const view = this.view;
    const buttons = [];
    for (const bid of this.legal("bid")) {
      buttons.push(button(`Bid ${bid.points}`, () => this.act(bid),
        { class: "bid", "data-focus": `btn:bid:${bid.points}` }));
    }
    if (this.legal("pass").length) {
      buttons.push(button("Pass", () => this.act({ type: "pass" }), { "data-focus": "btn:pass" }));
    }
    for (const take of this.legal("take_musik")) {
      buttons.push(button(`Take musik ${take.musik}`, () => this.act(take),
        { "data-focus": `btn:musik:${take.musik}` }));
    }
    if (this.discarding()) {
      const action = discardAction(this.chosen);
      buttons.push(el("span", { class: "discard-note" },
        "Choose two cards of your hand to discard:"),
      button(action ? actionWords(view, action, this.deck) : "Discard", () => {
        if (action) this.act(action);
      }, { "data-focus": "btn:discard", disabled: !action, class: "primary" }));
    }
    for (const meld of this.legal("meld")) {
      const name = suitName(meld.suit, this.deck);
      buttons.push(button(`Meld ${name} ${marriageValue(view, meld.suit)} (trump)`,
        () => this.act(meld), {
          "aria-label": `Meld the marriage of ${name} for ${marriageValue(view, meld.suit)}: `
            + `${name} becomes trump`,
          "data-focus": `btn:meld:${meld.suit}`,
        }));
    }
    for (const raise of this.legal("raise")) {
      buttons.push(button(`Raise to ${raise.points}`, () => this.act(raise),
        { class: "raise", "data-focus": `btn:raise:${raise.points}` }));
    }
    return el("div", { class: "actions", role: "toolbar", "aria-label": "Actions" }, buttons);
  }

  settlementParts(s) {
    const view = this.view;
    const parts = [];
    if (s) {
      if (s.contract) parts.push(el("p", { class: "verdict" }, contractVerdict(view, s.contract)));
      for (const entry of s.seats) {
        const who = seatName(view, entry.seat);
        parts.push(el("section", { class: "side" },
          el("h3", {}, who),
          el("p", { class: "working" }, `${dealWorking(entry, this.deck)}; `
            + `${entry.change >= 0 ? "+" : ""}${entry.change} → ${entry.total} `
            + `(${entry.needed} to go)`),
          entry.forfeited_marriages.length ? el("p", { class: "forfeited" }, `forfeited: ${
            entry.forfeited_marriages.map((m) => `${suitName(m.suit, this.deck)} ${m.value}`)
              .join(", ")} (no trick won)`) : null,
          el("div", { class: "taken", "aria-label": `Cards taken by ${who}` },
            sortCards(entry.cards, s.trump_at_end).map((c) => cardImage(c, this.deck, "tiny")))));
      }
      if (s.leftover && s.leftover.points) {
        parts.push(el("p", { class: "leftover" }, `The unused cards (${s.leftover.points}) `
          + `${s.leftover.to === null ? "count for nobody" : `go to ${seatName(view, s.leftover.to)}`}.`));
      }
    }
    parts.push(el("p", { class: "match-score" }, `Totals: ${view.totals.join(" : ")} · `
      + `target ${view.target}`));
    return parts;
  }

  resultText() {
    return gameResultText(this.view);
  }

  renderBalance() {
    const view = this.view;
    const settled = this.events.filter((e) => e.type === "hand_settled");
    const rows = settled.map((e) => {
      const s = e.settlement;
      return el("tr", {},
        el("td", {}, String(s.hand_no)),
        el("td", {}, s.contract ? `${s.contract.contract} ${seatName(view, s.contract.declarer)} `
          + `${s.contract.made ? "made" : "failed"}` : "-"),
        el("td", {}, s.seats.map((x) => `${x.change >= 0 ? "+" : ""}${x.change}`).join(" : ")),
        el("td", {}, s.totals.join(" : ")));
    });
    return this.balanceDialog("Balance of all deals",
      settled.length ? `Totals: ${view.totals.join(" : ")}` : "No deal finished yet.",
      ["Deal", "Contract", "Scored", "Totals"], rows);
  }
}
