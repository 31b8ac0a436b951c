// The coach's review of one's own decisions (loaded when asked for): what the server's
// `guts review` says of each of the seat's declarations, for this player's eyes only.

import { el } from "./render.js";

/** ``x`` to ``places`` decimals, no sign on a zero (as `guts review` prints it). */
export function amount(x, places) {
  const text = x.toFixed(places);
  return Number(text) === 0 ? text.replace("-", "") : text;
}

/** What was declared before the seat, in words ("-": no one declared before it). */
function beforeText(before) {
  if (before === "-") return "first to declare";
  return before === "all at once" ? "all declare at once" : `before: ${before}`;
}

function dealName(decision) {
  return `${decision.session + 1}.${decision.deal}`;
}

/** Fetch the review of one's own decisions and draw it into ``root``. */
export async function showReview(root, ctx) {
  root.replaceChildren(el("p", { text: "Reviewing your decisions against the equilibrium…" }));
  let found;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(ctx.tableId)}/review`,
      { headers: { authorization: `Bearer ${ctx.token()}` } });
    found = await response.json();
    if (!response.ok) throw new Error(found.message || String(response.status));
  } catch (error) {
    root.replaceChildren(el("p", { class: "review-error", text: `The review could not be made: ${error.message}` }));
    return;
  }
  renderReview(root, found);
}

export function renderReview(root, found) {
  root.replaceChildren();
  if (!found.available) {
    root.append(el("p", { class: "review-missing", text: found.message }));
    return;
  }
  const judged = found.decisions;
  const [cost, chips] = [found.total.cost, found.total.cost_chips];
  root.append(el("h3", { text: "Your decisions against the equilibrium" }),
    el("p", { class: "review-total", "data-cost": cost, "data-chips": chips, text: judged.length
      ? `${judged.length} decision${judged.length === 1 ? "" : "s"} judged. Expected cost against the equilibrium: ${amount(cost, 3)} pot units, ${amount(chips, 1)} chips.`
      : "No decision of yours could be judged yet." }));
  if (judged.length) {
    const head = el("tr", {}, ...["Deal", "Your hand", "You / equilibrium", "Cost"]
      .map((text) => el("th", { scope: "col", text })));
    const rows = judged.map((d) => el("tr", { class: "review-row", "data-cost": d.cost, "data-chips": d.cost_chips },
      el("td", { class: "deal", text: dealName(d) }),
      el("td", {}, el("span", { class: "hand", text: d.hand }),
        el("small", {}, el("span", { class: "position", text: d.position }), " · ",
          el("span", { class: "before", text: beforeText(d.before) }))),
      el("td", {}, el("span", { class: "did", text: d.action }), " / ", el("span", { class: "best", text: d.best })),
      el("td", { class: "costs" }, el("span", { class: "cost", text: amount(d.cost, 3) }), " pot",
        el("small", {}, el("span", { class: "chips", text: amount(d.cost_chips, 1) }), " chips"))));
    root.append(el("table", { class: "review", "aria-label": "your decisions" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  }
  const costly = found.costliest.filter((d) => d.cost_chips > 0.05);
  if (costly.length) {
    root.append(el("h3", { text: "Costliest" }), el("ol", { class: "costliest" },
      ...costly.map((d) => el("li", { text: `Deal ${dealName(d)} (${d.position}, ${d.hand}, ${beforeText(d.before)}): `
        + `${d.action} where the equilibrium goes ${d.best}: ${amount(d.cost_chips, 1)} chips (${amount(d.cost, 3)} pot)` }))));
  }
  const reasons = Object.entries(found.unjudged_reasons);
  if (reasons.length) {
    root.append(el("h3", { text: `Not judged: ${found.unjudged.length} decision${found.unjudged.length === 1 ? "" : "s"}` }),
      el("ul", { class: "unjudged" }, ...reasons.map(([reason, count]) => el("li", { text: `${count} × ${reason}` }))));
  }
}
