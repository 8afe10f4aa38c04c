// The leaderboard page (#leaderboard): points per player all time or this month, per variant
// or all, people or bot accounts (GET /v1/leaderboard); the ratings of a variant
// (GET /v1/ratings) of people, bot accounts or the computer levels; and how both count, with
// the figures of GET /v1/rules (its `leaderboard`).

import { api } from "./api.js";
import { el, select as choice } from "./dom.js";
import { ownOptions } from "./lobby.js";

const FALLBACK_VARIANTS = ["sixty-six", "schnapsen", "three-hand", "four-hand"];

export class LeaderboardPage {
  constructor(root) {
    this.root = root;
    this.stopped = false;
    this.filters = { period: "all", variant: "", kind: "human", rating_variant: "sixty-six",
      rating_kind: "human" };
    this.variants = FALLBACK_VARIANTS;
  }

  async start() {
    try {
      const rules = await api.rules();
      // the Sixty-Six family: a game with options of its own (Tausendeins) is never rated
      this.variants = rules.variants.filter((v) => !ownOptions(v).length).map((v) => v.name);
      this.counting = rules.leaderboard;
    } catch {
      // the usual four; the rules' section is left out
    }
    this.draw();
    await this.load();
  }

  stop() {
    this.stopped = true;
  }

  draw() {
    const f = this.filters;
    const variants = this.variants.map((v) => [v, v]);
    const form = el("form", { class: "panel filters", "aria-labelledby": "h-filters" },
      el("h2", { id: "h-filters" }, "Show"),
      choice("period", "Period", [["all", "all time"], ["month", "this month"]], f.period),
      choice("variant", "Variant", [["", "all variants"], ...variants], f.variant),
      choice("kind", "Players", [["human", "people"], ["bot", "bot accounts"]], f.kind),
      choice("rating_variant", "Ratings of", variants, f.rating_variant),
      choice("rating_kind", "Rated", [["human", "people"], ["bot", "bot accounts"],
        ["computer", "computer levels"]], f.rating_kind));
    form.addEventListener("change", () => {
      for (const name of Object.keys(this.filters)) {
        this.filters[name] = form.elements.namedItem(name).value;
      }
      this.load();
    });
    this.root.replaceChildren(el("main", { class: "lobby leaders" },
      el("h1", {}, "Leaderboard and ratings"),
      el("nav", { class: "site-nav" }, el("a", { href: "#lobby" }, "Back to the lobby"),
        el("a", { href: "#tour" }, "Route 66 tour")),
      el("p", { class: "status-line", role: "status", "aria-live": "polite" }),
      form,
      el("section", { class: "panel board-panel", "aria-labelledby": "h-board" },
        el("h2", { id: "h-board" }, "Leaderboard"), el("div", { class: "board-body" })),
      el("section", { class: "panel ratings-panel", "aria-labelledby": "h-ratings" },
        el("h2", { id: "h-ratings" }, "Ratings"), el("div", { class: "ratings-body" })),
      ...(this.counting ? [this.rules(this.counting)] : [])));
  }

  rules(c) {
    const [first, second, third] = c.placement_bonus;
    const hours = Math.round(c.rated_pair_window_s / 3600);
    const hands = c.min_settled_hands === 1 ? "its first hand is" : `${c.min_settled_hands} hands are`;
    return el("section", { class: "panel rules-panel", "aria-labelledby": "h-rules" },
      el("h2", { id: "h-rules" }, "How it counts"),
      el("ul", { class: "counting" }, [
        `Every hand won counts its 1–3 game points; at the end of a match ${first} / ${second} / `
          + `${third} points for first, second and third place.`,
        "Games against the computer count too: those you start from the lobby with your name, "
          + "tables and the tour. The computer levels' ratings are fixed, measured by matches "
          + "between the levels.",
        `Leaving a match against other players costs ${c.leave_penalty} points. A match left `
          + `before ${hands} settled places nobody and rates nobody.`,
        "A hand in which you ask for a hint counts for nobody on your side, and your side gets "
          + "no place; your rating can then only fall, and your opponents' only rise.",
        `Two accounts can play ${c.rated_pair_limit} rated matches together in ${hours} hours; `
          + "the next ones play unrated, and the table says so.",
        "Tables created unrated, games with a given deck and games without a player never count.",
      ].map((text) => el("li", {}, text))));
  }

  async load() {
    const f = { ...this.filters };
    const line = this.root.querySelector(".status-line");
    try {
      const [board, ratings] = await Promise.all([
        api.leaderboard({ period: f.period, variant: f.variant, kind: f.kind }),
        api.ratings({ variant: f.rating_variant, kind: f.rating_kind })]);
      if (this.stopped) return;
      line.textContent = "";
      this.root.querySelector(".board-body").replaceChildren(this.board(board));
      this.root.querySelector(".ratings-body").replaceChildren(this.ratings(ratings));
    } catch (error) {
      if (!this.stopped) line.textContent = `Not read: ${error.message}`;
    }
  }

  board(page) {
    const what = `${page.period === "month" ? `in ${page.month}` : "all time"}, `
      + `${page.variant || "all variants"}, ${page.kind === "bot" ? "bot accounts" : "people"}`;
    if (!page.entries.length) return el("p", { class: "empty" }, `Nobody has points yet (${what}).`);
    return el("table", { class: "board leaderboard" },
      el("caption", {}, `Points, ${what}`),
      el("thead", {}, el("tr", {}, ["Rank", "Player", "Points"].map((h) =>
        el("th", { scope: "col" }, h)))),
      el("tbody", {}, page.entries.map((e) => el("tr", { "data-player": e.player_id },
        el("td", {}, String(e.rank)), el("td", {}, e.name), el("td", {}, String(e.points))))));
  }

  ratings(page) {
    if (!page.ratings.length) return el("p", { class: "empty" }, `No ratings yet (${page.variant}).`);
    return el("table", { class: "board ratings" },
      el("caption", {}, `Ratings, ${page.variant}`),
      el("thead", {}, el("tr", {}, ["Place", "Name", "Rating", "Matches"].map((h) =>
        el("th", { scope: "col" }, h)))),
      el("tbody", {}, page.ratings.map((r) => el("tr", { "data-id": r.id },
        el("td", {}, String(r.place)), el("td", {}, r.name),
        el("td", {}, `${r.display}${r.provisional ? " (provisional)" : ""}`),
        el("td", {}, String(r.matches))))));
  }
}
