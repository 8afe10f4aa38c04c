// Words of the table (pure): the game log's lines, a trick's reason, a settlement's working.

import { cardName, RANK_NAMES, rankName, suitName } from "./cards.js";

export const SETTLEMENT_REASONS = {
  declaration: "declared 66",
  closed_declaration: "closed the talon and declared 66",
  declaration_against_closer: "declared 66 against the closer",
  reached_66: "reached 66",
  closed_reached_66: "closed the talon and reached 66 (automatic)",
  reached_66_against_closer: "reached 66 against the closer",
  false_declaration: "a false declaration",
  closing_failed: "the closing failed",
  closed_played_out: "closed the talon and reached 66",
  last_trick: "took the last trick",
  played_out: "more points when the cards ran out",
  tie: "a tie",
  timeout: "out of time",
  trump_ten: "the trump Ten's game point won the match",
};

/** Where the other seats sit, clockwise from the reader (as in api/clients/terminal.py). */
const DIRECTIONS = { 3: ["West", "East"], 4: ["West", "North", "East"] };

/**
 * "You" for the reader's seat, else the seat's name from the view's `seats`; in three- and
 * four-hand, where it sits from the reader with its level or name and the partner marked:
 * "North (random, partner)", "East (Bob)".
 */
export function seatName(view, seat) {
  if (seat === null || seat === undefined) return "nobody";
  if (seat === view.seat) return "You";
  const seats = view.seats || [];
  const info = seats.find((s) => s.seat === seat);
  if (!info) return `Seat ${seat}`;
  const around = DIRECTIONS[seats.length];
  if (!around || view.seat === null || view.seat === undefined) return info.name;
  const offset = (seat - view.seat + seats.length) % seats.length;
  const tags = [info.kind === "computer" ? info.level : info.name];
  if (seats.length === 4 && offset === 2) tags.push("partner");
  return `${around[offset - 1]} (${tags.join(", ")})`;
}

export function sideName(view, seats) {
  return seats.map((s) => seatName(view, s)).join(" + ");
}

/**
 * Under four_hand_scoring hoyle, the settlement's lines beyond the points: the game points
 * carried from tied hands, those the next hand's winners get, and the trump Ten's point.
 */
export function hoyleLines(view, s) {
  const out = [];
  if (s.carried_points) out.push(`${s.carried_points} of these game points carried from tied hands.`);
  if (s.carried_to_next) {
    out.push(`The winners of the next hand get ${s.carried_to_next} game point`
      + `${s.carried_to_next === 1 ? "" : "s"} more.`);
  }
  if ("trump_ten_side" in s) {
    out.push(s.trump_ten_side === null ? "Nobody took the trump Ten."
      : `The trump Ten: 1 game point to ${sideName(view, [s.trump_ten_side, s.trump_ten_side + 2])}.`);
  }
  return out;
}

/**
 * Why the winner took the trick: "trumps", "ten beats king" (the higher card of the suit led,
 * named from the trick's cards) or "suit not followed".
 */
export function trickReason(event) {
  if (event.reason === "trump") return "trumps";
  if (event.reason === "off_suit") return "suit not followed";
  if (event.reason === "higher_card" && event.winning_card && event.cards) {
    const beaten = event.cards.filter((c) => c !== event.winning_card
      && c[1] === event.winning_card[1]);
    if (beaten.length === 1) {
      return `${RANK_NAMES[event.winning_card[0]].toLowerCase()} beats `
        + `${RANK_NAMES[beaten[0][0]].toLowerCase()}`;
    }
  }
  return "higher card";
}

/** The card that won a finished trick ({leader, cards: [{seat, card}], winner}). */
export function winningCard(trick) {
  const entry = trick.cards.find((c) => c.seat === trick.winner);
  return entry ? entry.card : null;
}

/** When a pending meld counts: with the first trick, or (rule meld_credit next_trick) the next. */
function pendingNote(view) {
  const nextTrick = view.rules && view.rules.meld_credit === "next_trick";
  return nextTrick ? " (counts with the next trick won)" : " (counts with the first trick)";
}

/** A card played (by the computer for a seat out of time, at a clock), a trick won or a card
 * drawn, said alike in both games; null for a card drawn unseen. */
function playText(view, event, deck) {
  const who = seatName(view, event.seat);
  const verb = (you, other) => (event.seat === view.seat ? you : other);
  if (event.type === "card_played") {
    return `${who} ${verb("play", "plays")} the ${cardName(event.card, deck)}`
      + `${event.timeout ? " (out of time: the computer chose it)" : ""}.`;
  }
  if (event.type === "trick_won") {
    return `${who} ${verb("take", "takes")} the trick for ${event.points} (${trickReason(event)}).`;
  }
  return event.card ? `${who} ${verb("draw", "draws")} the ${cardName(event.card, deck)}.` : null;
}

export function eventText(view, event, deck = "french") {
  if (view.variant === "tausendeins") return eventText1001(view, event, deck);
  const who = seatName(view, event.seat);
  const verb = (you, other) => (event.seat === view.seat ? you : other);
  switch (event.type) {
    case "hand_dealt":
      return `Hand ${event.hand_no}: ${seatName(view, event.dealer)} `
        + `${event.dealer === view.seat ? "deal" : "deals"}; trump ${suitName(event.trump_suit, deck)} `
        + `(${cardName(event.trump_card, deck)} face up).`;
    case "card_played":
    case "trick_won":
    case "card_drawn":
      return playText(view, event, deck);
    case "meld":
      return `${who} ${verb("show", "shows")} ${event.points} in ${suitName(event.suit, deck)}`
        + `${event.credited ? "" : pendingNote(view)}.`;
    case "meld_credited":
      return `${who}: the ${event.points} in ${suitName(event.suit, deck)} now counts.`;
    case "exchange":
      return `${who} ${verb("exchange", "exchanges")} the ${cardName(event.gave, deck)} for the `
        + `${cardName(event.took, deck)}.`;
    case "close":
      return `${who} ${verb("close", "closes")} the talon: follow suit and head the trick now.`;
    case "talon_exhausted":
      return "The talon is empty: follow suit and head the trick now.";
    case "declare":
      return `${who} ${verb("declare", "declares")} 66 with ${event.points} points.`;
    case "reached_66":
      return `${who} ${verb("reach", "reaches")} 66 with ${event.points} points: the hand is over.`;
    case "trump_ten_point":
      return `${who} ${verb("take", "takes")} the trump Ten: 1 game point for `
        + `${sideName(view, [event.side, event.side + 2])} (${event.score.join(":")}).`;
    case "hand_settled": {
      const s = event.settlement;
      const reason = SETTLEMENT_REASONS[s.reason] || s.reason;
      if (!s.winners.length) return `Hand over: nobody scores (${reason}).`;
      if (s.reason === "trump_ten") {
        return `Hand over: ${sideName(view, s.winners)} ${s.winners.includes(view.seat) ? "win" : "wins"} `
          + "the match by the trump Ten's game point.";
      }
      return `Hand over: ${sideName(view, s.winners)} ${s.winners.includes(view.seat) ? "win" : "wins"} `
        + `${s.game_points} game point${s.game_points === 1 ? "" : "s"} (${reason}).`;
    }
    case "match_won":
      return `${sideName(view, event.winners)} won the match ${event.score.join(":")}.`;
    case "paused":
      return `${who} ${verb("pause", "pauses")} the settlement (${event.seconds} s more).`;
    case "resigned":
      return `${who} ${verb("resign", "resigns")}.`;
    case "aborted":
      return `${who} ${verb("abort", "aborts")} the game.`;
    default:
      return null;
  }
}

// ---- Tausendeins (1001) --------------------------------------------------------------------

/** Marriage values by suit under the option marriage_values (by_order: by the deal's melds). */
const MARRIAGE_VALUES = {
  german: { C: 100, S: 80, H: 60, D: 40 },
  russian: { C: 60, S: 40, H: 100, D: 80 },
};
const ORDER_VALUES = [40, 60, 80, 100];

/** What a marriage in `suit` melded now is worth under the view's rules. */
export function marriageValue(view, suit) {
  const how = (view.rules && view.rules.marriage_values) || "german";
  if (how === "by_order") return ORDER_VALUES[(view.melds || []).length];
  return MARRIAGE_VALUES[how][suit];
}

/** "You 100 (901 to go) · Bob 35 (966 to go)". */
export function totalsText(view) {
  return view.seats.map((s) => `${seatName(view, s.seat)} ${view.totals[s.seat]} `
    + `(${view.needed[s.seat]} to go)`).join(" · ");
}

/** "Trump: hearts", or "Trump: none (no marriage yet)". */
export function trumpText(view, deck = "french") {
  return view.trump_suit ? `Trump: ${suitName(view.trump_suit, deck)}`
    : "Trump: none (no marriage yet)";
}

/** The auction's calls: "You 100, Bob 110, You pass". */
export function callsText(view) {
  return view.auction.calls.map((c) => `${seatName(view, c.seat)} `
    + `${c.bid === null ? "pass" : c.bid}`).join(", ");
}

/** The contract as the table shows it: during the auction the highest bid, then the
 * contract and its declarer (null without bidding). */
export function contractText(view) {
  const a = view.auction;
  if (!a) return null;
  const who = seatName(view, a.declarer);
  if (view.stage === "auction") return `Highest bid: ${a.contract} by ${who}`;
  return `Contract: ${a.contract}${a.raised ? " (raised)" : ""} by ${who}`;
}

/** A marriage of the view's melds: "hearts 60 (trick 3, pending)". */
export function meldText(meld, deck = "french") {
  const state = { pending: ", pending: counts with a trick won", forfeited: ", forfeited" }[
    meld.state] || "";
  return `${suitName(meld.suit, deck)} ${meld.value} (trick ${meld.trick_no}${state})`;
}

/** A seat's deal score with its working: "cards 62 + marriage of diamonds 40 + unused cards 23
 * = 125". */
export function dealWorking(entry, deck = "french") {
  const terms = [`cards ${entry.card_points}`,
    ...entry.marriages.map((m) => `marriage of ${suitName(m.suit, deck)} ${m.scored ? m.value : 0}`)];
  if (entry.last_trick_bonus) terms.push(`last trick ${entry.last_trick_bonus}`);
  if (entry.leftover_points) terms.push(`unused cards ${entry.leftover_points}`);
  const rounded = entry.rounded !== entry.score ? ` → ${entry.rounded}` : "";
  return `${terms.join(" + ")} = ${entry.score}${rounded}`;
}

/** A settled contract: "Contract 120 of You: made (125, 5 over)." */
export function contractVerdict(view, contract) {
  const over = contract.by >= 0 ? `${contract.by} over` : `${-contract.by} short`;
  return `Contract ${contract.contract}${contract.raised ? " (raised)" : ""} of `
    + `${seatName(view, contract.declarer)}: ${contract.made ? "made" : "failed"} `
    + `(${contract.score}, ${over}).`;
}

/** The end of a Tausendeins game: the winner and the totals, who resigned; no result when
 * aborted. */
export function gameResultText(view) {
  const [how, by] = view.ended || [null, null];
  if (view.status === "aborted") return `Aborted by ${seatName(view, by)}: no result.`;
  const winner = view.winner === null || view.winner === undefined ? "Nobody"
    : seatName(view, view.winner);
  let line = `${winner} won the game (${view.totals.join(":")}).`;
  if (how === "resigned") line += ` ${seatName(view, by)} resigned.`;
  return line;
}

/** One Tausendeins event as a line of the game log (null: not shown). A marriage names the
 * trump it ends (`trump_before`, set by the table from the events before it). */
export function eventText1001(view, event, deck = "french") {
  const who = seatName(view, event.seat);
  const verb = (you, other) => (event.seat === view.seat ? you : other);
  switch (event.type) {
    case "hand_dealt": {
      let pack = "no stock";
      if (event.stock_size) pack = `a stock of ${event.stock_size}`;
      else if (event.musiks) pack = `${event.musiks} musiks of 2 cards`;
      return `Deal ${event.hand_no}: ${seatName(view, event.dealer)} `
        + `${event.dealer === view.seat ? "deal" : "deals"}; ${pack}; no trump until a marriage.`;
    }
    case "bid":
      return `${who} ${verb("bid", "bids")} ${event.points}`
        + `${event.compulsory ? " (the compulsory opening)" : ""}.`;
    case "pass":
      return `${who} ${verb("pass", "passes")}.`;
    case "auction_won":
      return `${seatName(view, event.declarer)} ${event.declarer === view.seat ? "play" : "plays"} `
        + `a contract of ${event.contract}.`;
    case "musik_taken":
      return `${who} ${verb("take", "takes")} musik ${event.musik}`
        + `${event.cards ? `: ${event.cards.map((c) => cardName(c, deck)).join(", ")}` : ""}.`;
    case "discarded":
      return `${who} ${verb("discard", "discards")} `
        + `${event.cards ? event.cards.map((c) => cardName(c, deck)).join(" and ") : "two cards"}.`;
    case "raise":
      return `${who} ${verb("raise", "raises")} the contract to ${event.points}.`;
    case "meld": {
      const was = event.trump_before && event.trump_before !== event.suit
        ? ` (was ${suitName(event.trump_before, deck)})` : "";
      return `${who} ${verb("meld", "melds")} the marriage of ${suitName(event.suit, deck)} for `
        + `${event.value}${event.credited ? "" : " (counts once a trick is won)"}: trump is now `
        + `${suitName(event.suit, deck)}${was}.`;
    }
    case "meld_credited":
      return `${who}: the marriage of ${suitName(event.suit, deck)} now counts ${event.value}.`;
    case "card_played":
    case "trick_won":
    case "card_drawn":
      return playText(view, event, deck);
    case "stock_exhausted":
      return "The stock is empty: follow suit and win the trick if you can, else trump.";
    case "hand_settled": {
      const s = event.settlement;
      const changes = s.seats.map((e) => `${seatName(view, e.seat)} ${e.change >= 0 ? "+" : ""}`
        + `${e.change}`).join(", ");
      return `Deal ${s.hand_no} over${s.contract ? `: ${contractVerdict(view, s.contract)}`
        : "."} ${changes}.`;
    }
    case "game_won":
      return `${seatName(view, event.winner)} won the game ${event.totals.join(":")}.`;
    case "resigned":
      return `${who} ${verb("resign", "resigns")}.`;
    case "aborted":
      return `${who} ${verb("abort", "aborts")} the game.`;
    default:
      return null;
  }
}

// ---- the names each game gives its parts, the exchange, and a hint in words ----------------

/** What a game calls its parts: Sixty-Six plays hands to a match, Tausendeins deals to a
 * game (docs/rules.md §14). */
export function gameTerms(view) {
  return view.variant === "tausendeins" ? { hand: "deal", match: "game" }
    : { hand: "hand", match: "match" };
}

/** The settlement dialog's title: "Hand 2 settled" / "Deal 2 settled", "Match over" /
 * "Game over", "Game aborted". */
export function settlementTitle(view) {
  const terms = gameTerms(view);
  if (view.status === "hand_over") {
    return `${terms.hand[0].toUpperCase()}${terms.hand.slice(1)} ${view.hand_no} settled`;
  }
  if (view.status === "aborted") return "Game aborted";
  return `${terms.match[0].toUpperCase()}${terms.match.slice(1)} over`;
}

/** The trump card the exchange gives away: the trump Nine, Schnapsen's Jack, the Seven of the
 * 32-card pack (rule option deck 32). */
export function exchangeCard(view) {
  let rank = "9";
  if (view.variant === "schnapsen") rank = "J";
  else if (view.rules && view.rules.deck === 32) rank = "7";
  return `${rank}${view.trump_suit}`;
}

/** The exchange button's text and its label: "Exchange seven", "Exchange the Seven of hearts
 * for the Ace of hearts". */
export function exchangeWords(view, deck = "french") {
  const card = exchangeCard(view);
  return { text: `Exchange ${rankName(card, deck).toLowerCase()}`,
    label: `Exchange the ${cardName(card, deck)} for the ${cardName(view.trump_card, deck)}` };
}

/** An action as the words of a button: "Play the Jack of clubs", "Show the pair of hearts",
 * "Discard the Nine of hearts and the Jack of clubs", "Bid 110". */
export function actionWords(view, action, deck = "french") {
  const both = (cards) => cards.map((c) => `the ${cardName(c, deck)}`).join(" and ");
  switch (action.type) {
    case "play": return `Play the ${cardName(action.card, deck)}`;
    case "meld":
      return view.variant === "tausendeins"
        ? `Meld the marriage of ${suitName(action.suit, deck)} (it becomes trump)`
        : `Show the pair of ${suitName(action.suit, deck)}`;
    case "exchange": return exchangeWords(view, deck).label;
    case "close": return "Close the talon";
    case "declare": return "Declare 66";
    case "bid": return `Bid ${action.points}`;
    case "pass": return "Pass";
    case "raise": return `Raise the contract to ${action.points}`;
    case "take_musik": return `Take musik ${action.musik}`;
    case "discard": return `Discard ${both(action.cards)}`;
    case "continue": return "Continue";
    default: return action.type;
  }
}

/** What an action of a hint is worth: Sixty-Six counts game points for the reader's side
 * ("wins 1.42 game points"), Tausendeins the deal's margin, the reader's change of total
 * minus the other's ("ends the deal 187.8 points behind"). */
export function hintValueWords(view, value) {
  if (view.variant === "tausendeins") {
    const margin = Math.abs(value).toFixed(1);
    return value < 0 ? `ends the deal ${margin} points behind`
      : `ends the deal ${margin} points ahead`;
  }
  const points = Math.abs(value).toFixed(2);
  return `${value < 0 ? "loses" : "wins"} ${points} game points`;
}

/** A hint's value as a cell of its table: "+1.42" game points, "187.8 behind" in a deal. */
export function hintCell(view, value) {
  if (view.variant === "tausendeins") {
    return `${Math.abs(value).toFixed(1)} ${value < 0 ? "behind" : "ahead"}`;
  }
  return `${value < 0 ? "−" : "+"}${Math.abs(value).toFixed(2)}`;
}

/** What the hint's best action is worth, and the next best (none valued when it is the only
 * legal one: no sampled deal): "On average over 40 sampled deals it ends the deal 187.8 points behind (your points minus the other player's). Next
 * best: Pass, which ends the deal 190.0 points behind." */
export function hintSummary(view, hint, deck = "french") {
  const [top, next] = hint.actions;
  if (!top) return "";
  if (!hint.samples && !next) return "It is your only choice now."; // nothing was valued
  const over = hint.samples > 1 ? `On average over ${hint.samples} sampled deals it` : "It";
  let text = `${over} ${hintValueWords(view, top.expected_game_points)}`;
  if (view.variant === "tausendeins") text += " (your points minus the other player's)";
  text += ".";
  if (next) {
    text += ` Next best: ${actionWords(view, next.action, deck)}, which `
      + `${hintValueWords(view, next.expected_game_points)}.`;
  }
  return text;
}
