// Playing cards drawn as SVG of our own: the rank and the suit's symbol in its colour
// (four colours, so suits are told apart by symbol and colour), or the back.

const SUITS = {
  s: { symbol: "\u2660", name: "spades", colour: "#1b1b1b" },
  h: { symbol: "\u2665", name: "hearts", colour: "#c8102e" },
  d: { symbol: "\u2666", name: "diamonds", colour: "#1456b8" },
  c: { symbol: "\u2663", name: "clubs", colour: "#137a2e" },
};
const RANKS = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight",
  7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};
const SHOWN_RANK = { T: "10" };
const SVG = "http://www.w3.org/2000/svg";

/** The words for a card code such as "Td": "ten of diamonds". */
export function cardName(code) {
  const rank = RANKS[code[0]];
  const suit = SUITS[code[1]];
  if (!rank || !suit) return code.toLowerCase().startsWith("x") || code.startsWith("Jk")
    ? "joker" : code;
  return `${rank} of ${suit.name}`;
}

/** A card's symbols as text: "10♦". */
export function cardText(code) {
  const suit = SUITS[code[1]];
  if (!suit || !RANKS[code[0]]) return code;
  return (SHOWN_RANK[code[0]] || code[0]) + suit.symbol;
}

function node(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

function face(svg, code) {
  const suit = SUITS[code[1]];
  const known = suit && RANKS[code[0]];
  const colour = known ? suit.colour : "#6b2fa0";
  const rank = known ? (SHOWN_RANK[code[0]] || code[0]) : "\u2605";
  const symbol = known ? suit.symbol : "JOKER";
  svg.append(node("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#fffdf7",
    stroke: "#8a8a8a", "stroke-width": 1.5 }));
  svg.append(node("text", { x: 7, y: 22, "font-size": 19, "font-weight": 700, fill: colour,
    "font-family": "system-ui, sans-serif" }, rank));
  svg.append(node("text", { x: 7, y: 40, "font-size": 16, fill: colour,
    "font-family": "system-ui, sans-serif" }, known ? symbol : ""));
  svg.append(node("text", { x: 36, y: 72, "font-size": known ? 34 : 11, fill: colour,
    "text-anchor": "middle", "font-family": "system-ui, sans-serif" }, symbol));
}

function back(svg) {
  svg.append(node("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#27408b",
    stroke: "#f2f2f2", "stroke-width": 2 }));
  svg.append(node("rect", { x: 7, y: 7, width: 46, height: 70, rx: 3, fill: "none",
    stroke: "#9fb3ef", "stroke-width": 1.5 }));
  for (let step = 0; step < 6; step += 1) {
    svg.append(node("line", { x1: 7, y1: 7 + step * 14, x2: 53, y2: 21 + step * 14,
      stroke: "#4f68b8", "stroke-width": 1 }));
  }
}

/**
 * One card as an element: `code` face up, or the back when `code` is null.
 * `options.button` makes it a button (for discards and card play), `options.disabled`
 * and `options.why` mark a card that may not be chosen and say why.
 */
export function cardElement(code, options = {}) {
  const wrapper = document.createElement(options.button ? "button" : "span");
  wrapper.className = "card" + (code ? "" : " back") + (options.small ? " small" : "");
  const label = code ? cardName(code) : "a face-down card";
  const svg = node("svg", { viewBox: "0 0 60 84", role: "img", "aria-hidden": "true" });
  if (code) face(svg, code); else back(svg);
  wrapper.append(svg);
  if (code) wrapper.dataset.card = code;
  if (options.button) {
    wrapper.type = "button";
    wrapper.disabled = Boolean(options.disabled);
    wrapper.setAttribute("aria-label", label + (options.why ? ` (${options.why})` : ""));
    if (options.why) wrapper.title = options.why;
    if (options.pressed !== undefined) wrapper.setAttribute("aria-pressed", String(options.pressed));
  } else {
    wrapper.setAttribute("role", "img");
    wrapper.setAttribute("aria-label", label);
  }
  return wrapper;
}
