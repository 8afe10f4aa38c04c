// The key map of the table (pure): 1-9 play the n-th card from the left, Enter confirms the
// settlement, R asks for a hint, B opens the balance of all hands (also over the settlement),
// Escape closes a panel, Tab stays inside an open dialog.

const TYPING = new Set(["INPUT", "SELECT", "TEXTAREA"]);

/**
 * The command of a key press, or null when the key is not ours (typed into a field, or with
 * Ctrl/Alt/Meta). `overlay` says whether a dialog (settlement, balance, hint) is open, and
 * `settlement` whether it is the settlement: then Enter, Escape, Tab and B (the balance over
 * it) mean something; over another dialog only Enter, Escape and Tab.
 */
export function keyCommand({ key, ctrlKey = false, altKey = false, metaKey = false, target = "" },
  { overlay = false, settlement = false } = {}) {
  if (ctrlKey || altKey || metaKey) return null;
  if (key === "Tab") return overlay ? { kind: "trap" } : null;
  if (TYPING.has(String(target).toUpperCase())) return null;
  if (key === "Enter") return overlay ? { kind: "confirm" } : null;
  if (key === "Escape") return overlay ? { kind: "dismiss" } : null;
  if ((key === "b" || key === "B") && (!overlay || settlement)) return { kind: "balance" };
  if (overlay) return null;
  if (/^[1-9]$/.test(key)) return { kind: "card", index: Number(key) - 1 };
  if (key === "r" || key === "R") return { kind: "hint" };
  return null;
}
