// The Route-66 map (pure): where each station sits on the drawing, and what it shows.

/** The map's drawing size (SVG user units): Chicago at the right (east), Santa Monica left. */
export const MAP = { width: 800, height: 240, margin: 50 };

/**
 * The point of each of `count` stations, east to west along the road: evenly spaced from
 * right to left, dipping south (down) on the way as Route 66 does.
 */
export function stationPoints(count) {
  const { width, height, margin } = MAP;
  const step = count > 1 ? (width - 2 * margin) / (count - 1) : 0;
  return Array.from({ length: count }, (_, i) => {
    const t = count > 1 ? i / (count - 1) : 0;
    return { x: Math.round(width - margin - i * step),
      y: Math.round(70 + 90 * Math.sin(Math.PI * t * 0.9) + (i % 2 ? 12 : -6)) };
  });
}

/** A station's state: "stamped" (won), "open" (may be played now) or "locked". */
export function stationState(station) {
  if (station.stamped_at !== null && station.stamped_at !== undefined) return "stamped";
  return station.open ? "open" : "locked";
}

/** A station's line for screen readers and the list below the map. */
export function stationLabel(station) {
  const state = { stamped: "stamped", open: "open", locked: "locked" }[stationState(station)];
  return `${station.number}. ${station.city}, ${station.diner}: ${station.opponent} `
    + `(${station.level}), ${station.variant} to ${station.match_points} — ${state}`;
}
