// Building DOM nodes (no framework): el("p", {class: "x"}, "text", child...).

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
  }
  return node;
}

/** A labelled select field of `[value, text]` options (id `f-<name>`). */
export function select(name, label, options, value) {
  const id = `f-${name}`;
  return el("p", { class: "field" },
    el("label", { for: id }, label),
    el("select", { id, name }, options.map(([v, text]) =>
      el("option", { value: v, selected: String(v) === String(value) }, text))));
}

export function button(label, onclick, attrs = {}) {
  return el("button", { type: "button", onclick, ...attrs }, label);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element (attributes set as given; text only as text). */
export function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/** The index Tab (or Shift+Tab: `back`) moves to among `count` items from `index` (-1: none
 * focused), wrapping round: a dialog keeps the focus. */
export function wrapIndex(index, count, back) {
  if (index < 0) return back ? count - 1 : 0;
  return (index + (back ? count - 1 : 1)) % count;
}

const FOCUSABLE = "button:not([disabled]), [href], input:not([disabled]), select, textarea, "
  + "[tabindex]:not([tabindex='-1'])";

/** Tab inside `dialog`: the focus goes to its next (previous) control, never out of it. */
export function trapTab(dialog, event) {
  const items = [...dialog.querySelectorAll(FOCUSABLE)];
  event.preventDefault();
  if (!items.length) return;
  items[wrapIndex(items.indexOf(document.activeElement), items.length, event.shiftKey)].focus();
}
