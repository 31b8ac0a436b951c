// The replayer (loaded when the Deals tab is opened): the night's finished deals, and one
// deal step by step from one's own seat (the server's views of the seat, before each
// decision and at the end), with the log beside it. It works out no rule: each step is
// what the server says the seat saw then.

import { el, renderCentre, renderHand, renderLog, renderSeats } from "./render.js";

let open = null;  // the replayer on screen: {deal, step, root, lines, ctx}

function api(ctx, path) {
  return fetch(`/api/tables/${encodeURIComponent(ctx.tableId)}/${path}`,
    { headers: { authorization: `Bearer ${ctx.token()}` } });
}

/** The Deals panel: each finished deal with a button to replay it (newest first). */
export async function showDeals(root, ctx) {
  const token = ctx.token();
  if (!token) {
    root.replaceChildren(el("p", { text: "The deals show once you have a seat." }));
    return;
  }
  let deals = [];
  try {
    const response = await api(ctx, "deals");
    if (!response.ok) throw new Error(String(response.status));
    deals = (await response.json()).deals;
  } catch (error) {
    root.replaceChildren(el("p", { class: "error-line", text: "The deals could not be loaded: try again." }));
    return;
  }
  const list = el("ol", { class: "deal-list", reversed: true, "aria-label": "finished deals" },
    ...[...deals].reverse().map((deal) => el("li", { "data-deal": `${deal.session}.${deal.deal}` },
      el("button", { type: "button", class: "small replay-deal", text: "Replay",
        onclick: () => openReplay(ctx, deal.session, deal.deal) }),
      ` ${dealName(deal)} · ${deal.game}`)));
  root.replaceChildren(
    el("p", { class: "hint-line", text: deals.length
      ? "Step through a finished deal as your seat saw it: your cards and everything shown to all."
      : "No deal is finished yet." }),
    deals.length ? list : null);
}

function dealName(deal) {
  return `Deal ${deal.night} of the night`;
}

/** Open the replayer at deal ``deal`` of session ``session``. */
export async function openReplay(ctx, session, deal) {
  closeReplay();
  const root = el("div", { id: "replayer", class: "replayer", role: "dialog", "aria-modal": "true",
    "aria-label": `replay of session ${session}, deal ${deal}` });
  root.append(el("p", { class: "replay-loading", text: "Loading the deal…" }));
  document.body.append(root);
  open = { root, ctx, step: 0, deal: null, lines: [] };
  const opened = open;
  let answer;
  try {
    const response = await api(ctx, `deals/${session}/${deal}`);
    answer = await response.json();
    if (!response.ok) throw new Error(answer.message || String(response.status));
  } catch (error) {
    if (open !== opened) return;
    root.replaceChildren(el("p", { class: "replay-error", text: `That deal cannot be replayed: ${error.message}` }),
      el("button", { type: "button", text: "Close", onclick: closeReplay }));
    return;
  }
  if (open !== opened) return;
  opened.deal = answer;
  build(opened);
  draw(opened);
  opened.lines = await narrate(answer);
  if (open === opened) draw(opened);
}

/** The deal's events in the log's words, one entry (a line or null) per event. */
async function narrate(deal) {
  const names = deal.players.map((name, seat) => (seat === deal.seat ? "You" : name));
  try {
    const response = await fetch("/api/narrate", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ names, events: deal.events, you: deal.seat === null ? null : deal.players[deal.seat] }),
    });
    if (response.ok) return (await response.json()).lines;
  } catch (error) {
    // the replayer still steps, without the log
  }
  return [];
}

function build(opened) {
  const { deal, ctx } = opened;
  const title = `${dealName(deal)} · ${deal.game}`;
  const back = el("button", { type: "button", id: "replay-back", "aria-keyshortcuts": "ArrowLeft",
    onclick: () => step(-1) }, "◀ Back");
  const forward = el("button", { type: "button", id: "replay-forward", class: "primary",
    "aria-keyshortcuts": "ArrowRight", onclick: () => step(1) }, "Forward ▶");
  const sharing = ctx.hosting() ? el("button", { type: "button", id: "replay-share", class: "small",
    text: "Share with the table", onclick: () => shareDeal(opened) }) : null;
  opened.root.replaceChildren(
    el("header", { class: "replay-top" },
      el("h2", { text: title }),
      sharing,
      el("button", { type: "button", id: "replay-close", class: "small", text: "Close", "aria-label": "close the replay",
        onclick: closeReplay })),
    el("div", { class: "replay-body" },
      el("div", { class: "replay-table" },
        el("div", { class: "felt replay-felt" },
          el("div", { id: "replay-seats", class: "seats" }),
          el("div", { id: "replay-centre", class: "centre" })),
        el("div", { class: "replay-controls", role: "toolbar", "aria-label": "steps" },
          back, el("span", { id: "replay-step", role: "status", "aria-live": "polite" }), forward),
        el("div", { id: "replay-hand", class: "hand" }),
        el("p", { id: "replay-shared", class: "hint-line", role: "status" })),
      el("div", { class: "replay-log" }, el("h3", { text: "Log" }),
        el("ol", { id: "replay-log", class: "log", "aria-label": "the deal's log" }))));
  opened.root.querySelector("#replay-forward").focus();
}

function draw(opened) {
  const { deal, root } = opened;
  const steps = deal.steps;
  const index = Math.max(0, Math.min(opened.step, steps.length - 1));
  opened.step = index;
  const now = steps[index];
  const shown = { game: now.view, chose: new Set(), proofs: {}, described: {}, seats: [], clocks: [],
    decision: null, sent: false, picked: new Set(), table: null };
  renderSeats(root.querySelector("#replay-seats"), shown);
  renderCentre(root.querySelector("#replay-centre"), shown);
  const hand = root.querySelector("#replay-hand");
  delete hand.dataset.drawn;
  renderHand(hand, shown, () => {});
  root.querySelector("#replay-step").textContent = `Step ${index + 1} of ${steps.length}`;
  root.querySelector("#replay-back").disabled = index === 0;
  root.querySelector("#replay-forward").disabled = index === steps.length - 1;
  const lines = opened.lines.slice(0, now.seen).filter(Boolean);
  const log = root.querySelector("#replay-log");
  renderLog(log, lines, false);
  const last = log.lastElementChild;
  if (last) last.classList.add("latest");
  log.parentElement.scrollTop = log.parentElement.scrollHeight;  // beside the table (a laptop): its newest line
  root.dataset.step = String(index);
}

function step(by) {
  if (!open || !open.deal) return;
  open.step += by;
  draw(open);
}

/** The host tells the table where to find this deal's replay (a chat line with its link). */
function shareDeal(opened) {
  const { deal, ctx } = opened;
  const link = `${location.origin}/t/${encodeURIComponent(ctx.tableId)}#replay=${deal.session}.${deal.deal}`;
  if (ctx.chat(`Replay of ${dealName(deal).toLowerCase()}: ${link}`)) {
    opened.root.querySelector("#replay-shared").textContent = "Shared in the chat: each player sees it from their own seat.";
  }
}

export function closeReplay() {
  if (!open) return;
  open.root.remove();
  open = null;
  if (location.hash.includes("replay=")) history.replaceState(null, "", location.pathname + location.search);
}

document.addEventListener("keydown", (pressed) => {
  if (!open || pressed.target.closest("input, textarea, select")) return;
  if (pressed.key === "ArrowRight") step(1);
  else if (pressed.key === "ArrowLeft") step(-1);
  else if (pressed.key === "Escape") closeReplay();
  else if (pressed.key.length === 1 && !pressed.ctrlKey && !pressed.metaKey) {
    pressed.stopPropagation();  // the table's action keys do not act behind the replayer
    return;
  } else return;
  pressed.preventDefault();
  pressed.stopPropagation();
}, true);
