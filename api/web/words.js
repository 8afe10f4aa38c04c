// Words of the table (pure): the game log's lines, a trick's reason, a settlement's working.

import { cardName, RANK_NAMES, suitName } from "./cards.js";

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

/** One event as a line of the game log, or null for events the reader need not see. */
export function eventText(view, event, deck = "french") {
  const who = seatName(view, event.seat);
  const verb = (you, other) => (event.seat === view.seat ? you : other);
  switch (event.type) {
    case "hand_dealt":
      return `Hand ${event.hand_no}: ${seatName(view, event.dealer)} `
        + `${event.dealer === view.seat ? "deal" : "deals"}; trump ${suitName(event.trump_suit, deck)} `
        + `(${cardName(event.trump_card, deck)} face up).`;
    case "card_played":
      return `${who} ${verb("play", "plays")} the ${cardName(event.card, deck)}`
        + `${event.timeout ? " (out of time: the computer chose it)" : ""}.`;
    case "trick_won":
      return `${who} ${verb("take", "takes")} the trick for ${event.points} (${trickReason(event)}).`;
    case "card_drawn":
      return event.card ? `${who} ${verb("draw", "draws")} the ${cardName(event.card, deck)}.`
        : null;
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
