// The Route-66 tour page (#tour): the map with its eight stations and their stamps, and a
// match against an open station's opponent (POST /v1/tour/{station}/start), or the latest
// game there resumed.

import { api } from "./api.js";
import { button, el, svgEl } from "./dom.js";
import { MAP, stationLabel, stationPoints, stationState } from "./tourmap.js";
import { store } from "./store.js";

export class TourPage {
  constructor(root, go) {
    this.root = root;
    this.go = go;
    this.stopped = false;
    this.message = "";
  }

  async start() {
    const player = store.player();
    if (!player) {
      this.draw(null, "Choose a name in the lobby first: the tour keeps your stamps.");
      return;
    }
    try {
      const tour = await api.tour(player.token);
      if (!this.stopped) this.draw(tour);
    } catch (error) {
      if (!this.stopped) this.draw(null, `The tour could not be read: ${error.message}`);
    }
  }

  stop() {
    this.stopped = true;
  }

  draw(tour, problem = "") {
    this.root.replaceChildren(el("main", { class: "lobby tour" },
      el("h1", {}, "Route 66: Chicago to Santa Monica"),
      el("nav", { class: "site-nav" }, el("a", { href: "#lobby" }, "Back to the lobby"),
        el("a", { href: "#leaderboard" }, "Leaderboard and ratings")),
      el("p", { class: "status-line", role: "status", "aria-live": "polite" },
        problem || this.message),
      tour ? el("section", { class: "panel wide",
        "aria-labelledby": "h-map" },
      el("h2", { id: "h-map" }, `Stamps: ${tour.stamps} of ${tour.stations.length}`),
      this.map(tour.stations),
      el("ol", { class: "stations" }, tour.stations.map((s) => this.station(s)))) : null));
  }

  map(stations) {
    const points = stationPoints(stations.length);
    const road = points.map((p) => `${p.x},${p.y}`).join(" ");
    return svgEl("svg", { class: "route-map", viewBox: `0 0 ${MAP.width} ${MAP.height}`,
      role: "img", "aria-label": `Route 66 map: ${stations.map(stationLabel).join("; ")}` },
    svgEl("polyline", { class: "road", points: road }),
    svgEl("polyline", { class: "stripe", points: road }),
    stations.map((s, i) => {
      const { x, y } = points[i];
      const state = stationState(s);
      return svgEl("g", { class: `station ${state}`, "data-station": s.station },
        svgEl("circle", { cx: x, cy: y, r: 14 }),
        svgEl("text", { x, y: y + 5, text: String(s.number) }),
        svgEl("text", { x, y: y + 34, text: s.city }),
        state === "stamped" ? svgEl("g", { transform: `rotate(-14 ${x} ${y - 34})` },
          svgEl("rect", { class: "stamp", x: x - 26, y: y - 46, width: 52, height: 22, rx: 4 }),
          svgEl("text", { class: "stamp-text", x, y: y - 31, text: "STAMPED" })) : null);
    }));
  }

  station(s) {
    const state = stationState(s);
    const resume = s.game && s.game.token && state !== "stamped" ? s.game : null;
    return el("li", { "data-station": s.station, class: state },
      el("h3", {}, `${s.number}. ${s.city}`),
      el("p", {}, `${s.diner}: ${s.opponent} (${s.level})`),
      el("p", {}, `${s.variant} to ${s.match_points}`),
      el("p", { class: "state" }, { stamped: "Stamped", open: "Open", locked: "Locked" }[state]),
      state === "locked" ? null : button(state === "stamped" ? "Play again" : `Play ${s.city}`,
        () => this.begin(s), { "aria-label": `Play ${s.opponent} in ${s.city}` }),
      resume ? el("a", { href: "#", onclick: (event) => {
        event.preventDefault();
        this.enter(resume.game_id, resume.token, s);
      } }, " resume the last game") : null);
  }

  async begin(station) {
    try {
      const started = await api.startTour(station.station, store.player().token);
      this.enter(started.game_id, started.token, station);
    } catch (error) {
      this.message = `No game: ${error.message}`;
      const line = this.root.querySelector(".status-line");
      if (line) line.textContent = this.message;
    }
  }

  enter(gameId, token, station) {
    store.saveGame(gameId, { token, seat: 0, label: `Route 66: ${station.city}` });
    this.go(`#game=${gameId}`);
  }
}
