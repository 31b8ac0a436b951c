// Fan Tan's layout on the page: one row per suit, built out from its seven, drawn from
// the engine's view (`rows`: each suit's cards played, low to high). The seat's own cards
// that fit now (`legal`, which only that seat's view carries) are lit at the row ends
// they would extend, and clicking one plays it. No rule is worked out here: which cards
// fit is the engine's answer.

import { cardElement } from "./cards.js";

const SUITS = [["clubs", "c"], ["diamonds", "d"], ["hearts", "h"], ["spades", "s"]];
const ORDER = { low: "A23456789TJQK", high: "23456789TJQKA" };

/** The rows' look (fantan.css beside the page's own style sheet), linked once: the page's
 * content security policy allows style sheets of the site, not inline styles. */
function styled() {
  if (document.getElementById("fantan-style")) return;
  const link = document.createElement("link");
  link.id = "fantan-style";
  link.rel = "stylesheet";
  link.href = "/static/fantan.css";
  document.head.append(link);
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/** Where a card of the seat's would go in a row: "low" (before the row), "high" (after
 * it), or "seven" (the row's first card), read from the row's cards and the rank order. */
function side(code, row, order) {
  if (!row.length) return "seven";
  const place = order.indexOf(code[0]);
  return place < order.indexOf(row[0][0]) ? "low" : "high";
}

function lit(code, onPlay) {
  const card = cardElement(code, { button: true, small: true });
  card.classList.add("fits");
  card.setAttribute("aria-label", `play the ${card.getAttribute("aria-label") || code}`);
  card.addEventListener("click", () => onPlay(code));
  return card;
}

/** Draw the rows of `view` into `root` (the page's middle of the table: PageView.module);
 * `onPlay(code)` plays one of the seat's lit cards (null: nothing is lit, as in a replay
 * or while the seat waits). */
export function renderCentre(root, view, onPlay = null) {
  styled();
  const order = ORDER[view.aces] || ORDER.low;
  const legal = onPlay ? view.legal || [] : [];
  const rows = element("div", { class: "fantan-rows", "aria-label": "the rows" });
  for (const [name, letter] of SUITS) {
    const row = (view.rows || {})[name] || [];
    const fitting = legal.filter((code) => code[1] === letter);
    const before = fitting.filter((code) => side(code, row, order) === "low");
    const after = fitting.filter((code) => side(code, row, order) !== "low");
    const line = element("div", { class: "fantan-row", "data-suit": name, "aria-label": `${name}: ${row.length ? row.length + " cards" : "not started"}` },
      ...before.map((code) => lit(code, onPlay)),
      ...row.map((code) => cardElement(code, { small: true })),
      ...after.map((code) => lit(code, onPlay)));
    if (!row.length && !after.length) line.append(element("span", { class: "fantan-empty", text: `${name}: waiting for the seven` }));
    rows.append(line);
  }
  root.append(rows);
  return rows;
}
