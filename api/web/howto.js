// The "How to play" page (#how-to-play): the rules in brief with pictures of the cards, what
// closing and declaring do, the points table and what the table's buttons mean; then
// Tausendeins (1001): marriages that set trump, the stock, the auction, the musik. The full rule
// text is docs/rules.md in the repository; this page is what a card player needs at the table.

import { cardImage, RANK_ORDER } from "./cards.js";
import { el } from "./dom.js";
import { store } from "./store.js";

const POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0 };

/** The six cards of a suit, high to low, with their points under each. */
function rankRow(deck) {
  return el("ol", { class: "howto-cards", "aria-label": "The cards, high to low" },
    [...RANK_ORDER.slice(0, 6)].map((rank) => el("li", {}, // the 24-card pack
      el("figure", {}, cardImage(`${rank}H`, deck, "small"),
        el("figcaption", {}, `${POINTS[rank]} points`)))));
}

function figure(codes, deck, caption) {
  return el("figure", { class: "howto-figure" },
    el("div", { class: "howto-cards" }, codes.map((c) => cardImage(c, deck, "small"))),
    el("figcaption", {}, caption));
}

function table(head, rows) {
  return el("table", { class: "howto-table" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((row) => el("tr", {}, row.map((cell) => el("td", {}, cell))))));
}

function section(id, title, ...body) {
  return el("section", { class: "panel howto", "aria-labelledby": id },
    el("h2", { id }, title), body);
}

export class HowToPlayPage {
  constructor(root) {
    this.root = root;
  }

  async start() {
    const deck = store.settings().deck || "french";
    this.root.replaceChildren(el("main", { class: "lobby howto-page" },
      el("h1", {}, "How to play Sixty-Six"),
      el("nav", { class: "site-nav", "aria-label": "Pages" },
        el("a", { href: "#lobby" }, "Back to the lobby"),
        el("a", { href: "#tour" }, "Route 66 tour")),
      section("h-aim", "The aim",
        el("p", {}, "Two players (or two pairs) play hands of six cards. Whoever first holds "
          + "66 points from won tricks and announced pairs, and says so, wins the hand and scores "
          + "1, 2 or 3 game points. The first to 7 game points wins the match.")),
      section("h-cards", "The cards",
        el("p", {}, "24 cards: Ace, Ten, King, Queen, Jack and Nine of each suit. The Ten beats "
          + "the King. The whole deck is worth 120 points."),
        rankRow(deck)),
      section("h-deal", "Dealing and the talon",
        el("p", {}, "Each player gets six cards. The next card is turned face up: its suit is "
          + "trump. The rest lies face down across it as the talon. After each trick the winner "
          + "draws the top card of the talon, then the loser; the winner leads the next trick."),
        el("p", {}, "While the talon is open you may play any card: you need not follow suit. "
          + "A trick goes to the higher card of the suit led, or to the trump played on another "
          + "suit.")),
      section("h-strict", "When the talon is gone or closed",
        el("p", {}, "Now the rules are strict. You must follow suit and win the trick if you "
          + "can; else follow suit; else play a trump; else any card. The table only lets you "
          + "play cards that are allowed (the others are dimmed if you like).")),
      section("h-pairs", "Pairs (marriages)",
        figure(["KH", "QH"], deck, "King and Queen of one suit: 20 points, 40 in trumps"),
        el("p", {}, "When you are on lead you may show a King and Queen of one suit from your "
          + "hand, then lead one of them. The points count once you have won a trick in the "
          + "hand; a pair shown before that waits for your first trick and is lost if you never "
          + "win one.")),
      section("h-close", "Closing, exchanging and declaring",
        el("p", {}, "Closing turns the trump card face down: nobody draws any more and the "
          + "strict rules apply at once. You must then reach 66 yourself, or your opponent "
          + "scores 2 (3 if he had no trick when you closed). A successful closing is scored as "
          + "the opponent stood when you closed."),
        el("p", {}, "Exchanging swaps the trump Nine from your hand (in Schnapsen the Jack, with "
          + "the 32-card pack the Seven) for the face-up trump card, while at least one card "
          + "lies on it."),
        el("p", {}, "Declaring (the 66! button) ends the hand at once. If you really have 66 you "
          + "win it; if not, your opponent scores 2 (3 if he has no trick). Nobody declares for "
          + "you: count your points.")),
      section("h-score", "Game points",
        table(["Your opponent", "You score"], [
          ["took no trick", "3"],
          ["took a trick, 32 points or fewer", "2"],
          ["33 points or more", "1"]]),
        el("p", {}, "If the cards run out with the talon used up, the last trick is worth 10 "
          + "more and the player with more points wins; at 65:65 nobody scores.")),
      section("h-buttons", "The buttons at the table",
        table(["Button", "What it does"], [
          ["a card in your hand", "plays it (or type its key)"],
          ["66!", "declares 66 and ends the hand"],
          ["Close", "closes the talon"],
          ["Show pair …", "announces the King and Queen of that suit"],
          ["Exchange nine / jack / seven", "takes the face-up trump card for your trump Nine "
            + "(Schnapsen: Jack; 32 cards: Seven)"],
          ["Hint (R)", "asks the strong computer; the hand then does not count for you"],
          ["Balance (B)", "shows the points and the cards taken so far"],
          ["Resign / Abort", "gives up the match / ends it without a result before anyone moved"],
          ["Continue (Enter)", "goes on to the next hand after the settlement"]])),
      section("h-variants", "Other variants",
        el("ul", {},
          el("li", {}, "Schnapsen: 20 cards (no Nines), five each; the last trick wins a hand "
            + "played out, with no bonus."),
          el("li", {}, "Three-hand: the dealer sits out each hand and the other two play."),
          el("li", {}, "Four-hand: partners sit opposite, all cards are dealt, the dealer's last "
            + "card fixes trump, and play is strict from the first trick."))),
      section("h-t1001", "Tausendeins (1001)",
        el("p", {}, "Two players race over several deals to 1001 points, from their tricks and "
          + "their marriages. No card is turned up: a deal starts without trump, and every "
          + "marriage makes its suit trump at once, until the next one."),
        figure(["KC", "QC"], deck, "A marriage of clubs: 100, and clubs are trump now"),
        table(["Marriage", "Points"], [["clubs", "100"], ["spades", "80"], ["hearts", "60"],
          ["diamonds", "40"]]),
        el("p", {}, "Each gets eight cards; eight more lie face down as the stock. For the first "
          + "four tricks any card may be played and both draw after each trick; then you must "
          + "follow suit and win the trick if you can, else trump. Every deal is played out: "
          + "the cards are worth 120."),
        el("p", {}, "The auction: forehand must bid 100; then each raises by 10 or passes. Whoever "
          + "bid last plays the contract and leads: he adds his bid if his deal score reaches "
          + "it, else he loses it; the other adds what he scored. A marriage you cannot meld "
          + "before your first trick waits for it (and is lost without one)."),
        el("p", {}, "With the musik deal (a rule option) each gets ten cards and two musiks of "
          + "two lie face down: the declarer takes one, discards two cards and may raise his "
          + "contract once before he leads."),
        table(["Button", "What it does"], [
          ["Bid 110 …", "one button per bid you may make"],
          ["Pass", "ends the auction: the last bidder plays the contract"],
          ["Take musik 1 / 2", "takes that musik into your hand"],
          ["Discard …", "after you chose two cards of your hand, lays them away"],
          ["Raise to …", "raises your contract, once, before your first lead"],
          ["Meld … (trump)", "shows the King and Queen of a suit: it becomes trump; then lead one"]]),
        el("p", {}, "Hint (R) asks the strong computer: it ranks your choices by the mean deal "
          + "margin, your points minus the other's, and marks the deal as hinted.")),
      el("p", { class: "wide" }, "The full rule text, with every option, is docs/rules.md in the server's "
        + "repository; GET /v1/rules lists the options of this server.")));
  }

  stop() {}
}
