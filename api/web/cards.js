// Cards: names, the one order of the terminal (api/clients/terminal.py), and pictures drawn as SVG
// here (French suits, or German/Bavarian ones as a setting): no image files, nothing fetched.

export const SUIT_ORDER = "CSHD";
export const RANK_ORDER = "ATKQJ987"; // the 8s and 7s only with the option deck 32
export const SUIT_NAMES = { C: "clubs", S: "spades", H: "hearts", D: "diamonds" };
export const RANK_NAMES = { A: "Ace", T: "Ten", K: "King", Q: "Queen", J: "Jack", 9: "Nine",
  8: "Eight", 7: "Seven" };
const GERMAN_SUIT_NAMES = { C: "acorns", S: "leaves", H: "hearts", D: "bells" };
const GERMAN_RANK_NAMES = { A: "Ace", T: "Ten", K: "King", Q: "Ober", J: "Unter", 9: "Nine",
  8: "Eight", 7: "Seven" };
const LABELS = {
  french: { A: "A", T: "10", K: "K", Q: "Q", J: "J", 9: "9", 8: "8", 7: "7" },
  german: { A: "A", T: "10", K: "K", Q: "O", J: "U", 9: "9", 8: "8", 7: "7" },
};
const COLOURS = {
  french: { C: "#1b1b1b", S: "#1b1b1b", H: "#c8102e", D: "#c8102e" },
  german: { C: "#7a4a12", S: "#2e7d32", H: "#c8102e", D: "#c98a00" },
};
const SVG_NS = "http://www.w3.org/2000/svg";

/** A card's rank as a word: "Seven", "Unter" (German pictures). */
export function rankName(code, deck = "french") {
  return (deck === "german" ? GERMAN_RANK_NAMES : RANK_NAMES)[code[0]];
}

/** "Queen of hearts" (German pictures: "Ober of hearts"). */
export function cardName(code, deck = "french") {
  return `${rankName(code, deck)} of ${suitName(code[1], deck)}`;
}

export function suitName(suit, deck = "french") {
  return (deck === "german" ? GERMAN_SUIT_NAMES : SUIT_NAMES)[suit];
}

/** The terminal's order: trumps first, then clubs, spades, hearts, diamonds; high to low. */
export function cardKey(code, trump) {
  return [code[1] === trump ? 0 : 1, SUIT_ORDER.indexOf(code[1]), RANK_ORDER.indexOf(code[0])];
}

export function sortCards(cards, trump) {
  return [...cards].sort((a, b) => {
    const ka = cardKey(a, trump);
    const kb = cardKey(b, trump);
    for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  });
}

// Suit symbols in a 100 x 100 box.
const FRENCH = {
  H: '<path d="M50 92C22 68 2 50 2 28 2 12 14 2 28 2c10 0 18 6 22 16C54 8 62 2 72 2c14 0 26 10 26 26 0 22-20 40-48 64z"/>',
  D: '<path d="M50 2 90 50 50 98 10 50z"/>',
  S: '<path d="M50 2C68 26 98 40 98 62c0 16-12 26-26 26-9 0-16-4-20-11 1 10 6 17 14 23H34c8-6 13-13 14-23-4 7-11 11-20 11C14 88 2 78 2 62 2 40 32 26 50 2z"/>',
  C: '<circle cx="50" cy="26" r="22"/><circle cx="25" cy="60" r="22"/><circle cx="75" cy="60" r="22"/><path d="M44 50h12c1 22 6 38 16 48H28c10-10 15-26 16-48z"/>',
};
const GERMAN = {
  H: FRENCH.H,
  // Schellen: a bell with its slot and knob
  D: '<circle cx="50" cy="10" r="8"/><circle cx="50" cy="56" r="38"/><path d="M14 52h72" stroke="#5a3d00" stroke-width="6" fill="none"/><path d="M40 74h20" stroke="#5a3d00" stroke-width="7" stroke-linecap="round"/><circle cx="50" cy="84" r="5" fill="#5a3d00"/>',
  // Eichel: an acorn with its cup and stalk
  C: '<path d="M50 2v14" stroke="#4a2c08" stroke-width="7"/><ellipse cx="50" cy="64" rx="26" ry="34"/><path d="M20 46c0-22 60-22 60 0-10 8-50 8-60 0z" fill="#4a2c08"/>',
  // Gras (Laub): a leaf with its vein and stem
  S: '<path d="M50 2C86 26 96 60 50 90 4 60 14 26 50 2z"/><path d="M50 14v84" stroke="#1b4d1e" stroke-width="5"/>',
};

function suitSvg(suit, deck, x, y, size, rotate = false) {
  const shapes = (deck === "german" ? GERMAN : FRENCH)[suit];
  const scale = size / 100;
  const turn = rotate ? ` rotate(180 50 50)` : "";
  return `<g transform="translate(${x - size / 2} ${y - size / 2}) scale(${scale})${turn}">${shapes}</g>`;
}

// Pip places (x, y, upside down) of the nine and the ten on a 100 x 150 card.
const PIPS = {
  7: [[38, 32], [62, 32], [50, 53], [38, 75], [62, 75], [38, 118, 1], [62, 118, 1]],
  8: [[38, 32], [62, 32], [50, 53], [38, 75], [62, 75], [50, 97, 1], [38, 118, 1], [62, 118, 1]],
  9: [[38, 32], [62, 32], [38, 60], [62, 60], [50, 75], [38, 90, 1], [62, 90, 1], [38, 118, 1],
    [62, 118, 1]],
  T: [[38, 32], [62, 32], [50, 47], [38, 60], [62, 60], [38, 90, 1], [62, 90, 1], [50, 103, 1],
    [38, 118, 1], [62, 118, 1]],
};

/** The SVG markup of a card's face (100 x 150). */
export function faceSvg(code, deck = "french") {
  const rank = code[0];
  const suit = code[1];
  const colour = COLOURS[deck][suit];
  const label = LABELS[deck][rank];
  let middle;
  if (PIPS[rank]) {
    middle = PIPS[rank].map(([x, y, down]) => suitSvg(suit, deck, x, y, 17, Boolean(down))).join("");
  } else if (rank === "A") {
    middle = suitSvg(suit, deck, 50, 75, 56);
  } else {
    middle = `<rect x="22" y="28" width="56" height="94" rx="6" fill="${colour}" fill-opacity="0.08" stroke="${colour}" stroke-width="2"/>`
      + `<text x="50" y="80" font-size="38" text-anchor="middle" font-weight="700">${label}</text>`
      + suitSvg(suit, deck, 50, 102, 22);
  }
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 100 150" aria-hidden="true" focusable="false">`
    + `<rect x="1.5" y="1.5" width="97" height="147" rx="9" fill="#fffdf7" stroke="#555" stroke-width="2"/>`
    + `<g fill="${colour}" font-family="system-ui, sans-serif">`
    + `<text x="12" y="24" font-size="20" text-anchor="middle" font-weight="700">${label}</text>`
    + suitSvg(suit, deck, 12, 36, 14)
    + `<g transform="rotate(180 50 75)"><text x="12" y="24" font-size="20" text-anchor="middle" font-weight="700">${label}</text>`
    + `${suitSvg(suit, deck, 12, 36, 14)}</g>${middle}</g></svg>`;
}

const BACK_LINES = Array.from({ length: 11 }, (_, i) => {
  const x = 8 + i * 16;
  return `M${x} 8l-84 134M${x - 84} 8l84 134`;
}).join("");

/** The SVG markup of a card's back (a lattice; no ids, so any number may share a page). */
export function backSvg() {
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 100 150" aria-hidden="true" focusable="false">`
    + '<rect x="1.5" y="1.5" width="97" height="147" rx="9" fill="#fff" stroke="#555" stroke-width="2"/>'
    + '<svg x="8" y="8" width="84" height="134" viewBox="8 8 84 134">'
    + '<rect x="8" y="8" width="84" height="134" fill="#1f4e79"/>'
    + `<path d="${BACK_LINES}" stroke="#3f7fbf" stroke-width="3"/></svg>`
    + '<rect x="8" y="8" width="84" height="134" rx="5" fill="none" stroke="#c9a227" stroke-width="2"/></svg>';
}

/** A card picture element with its name for screen readers (a <span role="img">). */
export function cardImage(code, deck, extraClass = "") {
  const el = document.createElement("span");
  el.className = `card ${extraClass}`.trim();
  el.setAttribute("role", "img");
  el.dataset.card = code;
  el.setAttribute("aria-label", cardName(code, deck));
  el.innerHTML = faceSvg(code, deck);
  return el;
}

export function cardBack(label = "a face-down card", extraClass = "") {
  const el = document.createElement("span");
  el.className = `card back ${extraClass}`.trim();
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  el.innerHTML = backSvg();
  return el;
}
