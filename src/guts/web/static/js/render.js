// One render function per part of the table. Each takes the page's state (what the
// server sent) and redraws its part; none of them works out a rule.

import { cardElement, cardText } from "./cards.js";
import { centreOf, choosingGame, nightOf, openersText, pageOf, seatsOf } from "./model.js";

export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") element.className = value;
    else if (key === "text") element.textContent = value;
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) element.append(child);
  return element;
}

function lobbySeat(state, number) {
  return (state.seats || []).find((seat) => seat.seat === number && seat.status === "approved");
}

/** True if ``root`` already shows what ``parts`` say (so a button is not replaced under
 * a finger that is pressing it); remembers ``parts`` otherwise. */
function unchanged(root, parts) {
  const key = JSON.stringify(parts);
  if (root.dataset.drawn === key) return true;
  root.dataset.drawn = key;
  return false;
}

/** Seats around the oval, one's own at the bottom. */
export function renderSeats(root, state) {
  root.replaceChildren();
  const view = state.game;
  if (!view) {
    renderLobbySeats(root, state);
    return;
  }
  const seats = seatsOf(view, state.chose, state.proofs, state.described);
  const count = seats.length;
  const bottom = view.seat ?? 0;
  for (const seat of seats) {
    const angle = (Math.PI / 2) + (2 * Math.PI * (seat.seat - bottom)) / count;
    const x = 50 + 38 * Math.cos(angle);
    const y = 50 + 40 * Math.sin(angle);
    const info = lobbySeat(state, seat.seat);
    const badges = [];
    if (seat.dealer) badges.push(el("span", { class: "button-chip", title: "dealer", "aria-label": "dealer", text: "D" }));
    if (info && info.kind !== "person") badges.push(el("span", { class: "badge", text: "bot" }));
    if (info && info.away) badges.push(el("span", { class: "badge warn", text: "away" }));
    if (info && info.leaving) badges.push(el("span", { class: "badge warn", text: "leaving" }));
    if (info && info.connected === false) badges.push(el("span", { class: "badge warn", text: "disconnected" }));
    const cards = el("div", { class: "seat-cards" + (seat.cards.length > 4 ? " many" : ""), "data-count": seat.cards.length },
      ...seat.cards.map((code) => cardElement(code, { small: true })));
    const status = seat.chose && !seat.status ? chosenWord(state, seat) : seat.status;
    const clock = clockText(state, seat.seat);
    const label = `${seat.name}${seat.you ? " (you)" : ""}, stack ${seat.stack}` +
      (status ? `, ${status}` : "") + (seat.toAct ? ", to act" : "");
    root.append(el("div", {
      class: "seat" + (seat.toAct ? " to-act" : "") + (seat.you ? " you" : "") +
        (status === "folded" || status === "out" ? " gone" : ""),
      style: `left:${x}%;top:${y}%`, "data-seat": seat.seat, "aria-label": label, role: "group",
    },
    el("div", { class: "seat-name" }, el("span", { text: seat.name }), ...badges),
    el("div", { class: "seat-stack", text: `${seat.stack}` }),
    status ? el("div", { class: "seat-status", text: status }) : null,
    seat.toAct ? el("div", { class: "seat-clock", "data-clock": seat.seat, text: clock || "to act" }) : null,
    seat.you ? null : cards,
    seat.description ? el("div", { class: "seat-hand", text: seat.description }) : null,
    seat.earlier ? el("div", { class: "seat-earlier", text:
      `showed ${seat.earlier.cards.map(cardText).join(" ")}: ${seat.earlier.description}` }) : null,
    seat.notes.length ? el("div", { class: "seat-notes", text: seat.notes.join(" · ") }) : null));
  }
  keepInside(root);
}

/** Move each seat sideways as far as it runs over the table's edge (a phone, seven cards). */
function keepInside(root) {
  const bounds = root.getBoundingClientRect();
  if (!bounds.width) return;
  for (const seat of root.querySelectorAll(".seat")) {
    const box = seat.getBoundingClientRect();
    const shift = box.left < bounds.left ? bounds.left - box.left
      : (box.right > bounds.right ? bounds.right - box.right : 0);
    if (shift) seat.style.left = `calc(${seat.style.left} + ${Math.round(shift)}px)`;
  }
}

/** A seat that has chosen in a simultaneous declaration: "chose" (one's own page adds the
 * choice, which only it knows until everyone has chosen). */
function chosenWord(state, seat) {
  return seat.you && state.secret ? `you chose ${state.secret.action}` : "chose";
}

/** A seat's clock as the server last sent it, counted down since: "12 s" or "bank 40 s". */
export function clockText(state, number) {
  const clock = (state.clocks || []).find((entry) => entry.seat === number);
  if (!clock) return "";
  const paused = state.table && state.table.paused;
  const gone = paused ? 0 : (performance.now() - state.clocksAt) / 1000;
  const seconds = clock.seconds - gone;
  if (seconds > 0) return `to act · ${Math.ceil(seconds)} s`;
  const bank = clock.bank + seconds;
  return bank > 0 ? `to act · time bank ${Math.ceil(bank)} s` : "to act · time is up";
}

/** A seat's name for people: its ``seat_id`` counted from 1. */
export function seatName(seatId) {
  return `Seat ${seatId + 1}`;
}

const MAX_SEATS = 32;

/** The seats no seat of the table holds, for a bot: those of a ten-seat table, or up to
 * one past the last seat held. */
function freeSeats(seats) {
  const held = new Set(seats.map((seat) => seat.seat_id));
  const last = Math.max(-1, ...held);
  const count = Math.min(MAX_SEATS, Math.max(10, last + 2));
  return [...Array(count).keys()].filter((seatId) => !held.has(seatId));
}

function renderLobbySeats(root, state) {
  const list = el("ul", { class: "lobby-seats", "aria-label": "seats" });
  for (const seat of state.seats || []) {
    if (seat.status === "refused") continue;
    list.append(el("li", { "data-seat-id": seat.seat_id },
      el("span", { class: "seat-number", text: seatName(seat.seat_id) }),
      ` ${seat.nickname} — ${seat.kind === "person" ? "" : "bot, "}buy-in ${seat.buy_in}, `,
      el("span", { class: "badge", text: seat.status })));
  }
  root.append(el("div", { class: "lobby-box" },
    el("h2", { text: "Waiting to start" }), list));
}

/** The middle of the table: pot, reserve, cards in the middle, trick, trump, stage. */
const FAMILY_MODULES = {};
/** The module a family draws the middle of its table with (its PageView's ``module``), or
 * null: none, or not loaded yet (``loaded`` is called once it is). */
function familyModule(view, loaded) {
  const name = pageOf(view.game).module;
  if (!name) return null;
  if (!(name in FAMILY_MODULES)) {
    FAMILY_MODULES[name] = null;
    import(`./${name}`).then((module) => { FAMILY_MODULES[name] = module; loaded(); });
  }
  return FAMILY_MODULES[name];
}

export function renderCentre(root, state, onCard = null) {
  root.replaceChildren();
  const view = state.game;
  if (!view) return;
  const own = familyModule(view, () => renderCentre(root, state, onCard));
  const centre = centreOf(view);
  const night = nightOf(view);
  if (night) root.append(el("div", { class: "night", "data-playing": night.playing || "", text: night.line }));
  const played = night && !night.playing && night.played[night.played.length - 1];
  if (played) {
    root.append(el("div", { class: "centre-line", text:
      `Game ${played.number} (${played.game}): ${played.deals} deal${played.deals === 1 ? "" : "s"}, ${played.reason}` }));
  }
  if (!choosingGame(view)) root.append(el("div", { class: "pot", "aria-label": `pot ${centre.pot}`, text: `Pot ${centre.pot}` }));
  if (centre.trump) {
    root.append(el("div", { class: "trump" }, `Trump: ${centre.trump.suit} `,
      centre.trump.card ? cardElement(centre.trump.card, { small: true }) : null));
  }
  if (centre.stage) {
    const wild = centre.wild.map((rank) => RANK_WORDS[rank] || String(rank)).join(", ");
    root.append(el("div", { class: "stage", text: centre.stage }));
    if (wild) root.append(el("div", { class: "wild", text: `Wild: ${wild}` }));
  }
  if (centre.cards.length) {
    root.append(el("div", { class: "community", "aria-label": "cards in the middle" },
      ...centre.cards.map((code) => cardElement(code, { small: true }))));
  }
  if (own) {
    const playing = onCard && state.decision && !state.sent && !(state.table && state.table.paused);
    own.renderCentre(root, view, playing ? (code) => onCard(code, "play") : null);
  }
  if (centre.trick.length) {
    const names = view.players || [];
    root.append(el("div", { class: "trick", "aria-label": "the trick" },
      ...centre.trick.map(({ seat, card }) => el("figure", {},
        cardElement(card, { small: true }), el("figcaption", { text: names[seat] || seat })))));
  }
  for (const line of centre.lines) root.append(el("div", { class: "centre-line", text: line }));
  if (state.outcome) root.append(el("div", { class: "centre-line outcome", text: state.outcome, title: state.outcome }));
  else if (state.lastOutcome) root.append(el("div", { class: "centre-line last", text: `Last deal: ${state.lastOutcome}`, title: state.lastOutcome }));
  if (state.table && state.table.waiting) {
    root.append(el("div", { class: "wild", text: "Waiting for enough players with chips to deal" }));
  }
}

const RANK_WORDS = { 1: "aces", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes",
  7: "sevens", 8: "eights", 9: "nines", 10: "tens", 11: "jacks", 12: "queens", 13: "kings",
  14: "aces" };

function amountControl(decision, send, limitWord, opening) {
  const options = decision.options;
  const word = decision.actions.some((a) => a.startsWith("raise")) ? "raise" : "bet";
  const verb = word === "raise" ? "Raise to" : (opening ? "Open" : "Bet");
  const least = word === "raise" ? options.min_raise_to : options.min_bet;
  const most = word === "raise" ? options.max_raise_to : options.max_bet;
  if (least === null || least === undefined) return null;
  const box = el("div", { class: "amount" });
  const input = el("input", { type: "number", min: least, max: most, value: least, step: 1,
    id: "amount", "aria-label": `${word === "raise" ? "raise to" : "bet"} amount, ${least} to ${most}` });
  const range = el("input", { type: "range", min: least, max: most, value: least, step: 1,
    "aria-label": "amount slider" });
  const go = el("button", { type: "button", class: "act primary", "data-action": word,
    "aria-keyshortcuts": "R" });
  const sync = (value) => {
    const amount = Math.min(most, Math.max(least, Math.round(Number(value) || least)));
    input.value = amount; range.value = amount;
    go.textContent = `${verb} ${amount}`;
  };
  input.addEventListener("input", () => { range.value = input.value; go.textContent = `${verb} ${input.value}`; });
  input.addEventListener("change", () => sync(input.value));
  range.addEventListener("input", () => sync(range.value));
  go.addEventListener("click", () => { sync(input.value); send(`${word} ${input.value}`); });
  sync(least);
  const presets = el("div", { class: "presets" });
  if (most > least) {
    const top = limitWord === "pot" ? "Pot" : (most >= options.stack ? "All-in" : "Max");
    presets.append(
      el("button", { type: "button", class: "preset", text: "Min", onclick: () => sync(least) }),
      el("button", { type: "button", class: "preset", text: top, onclick: () => sync(most) }));
    box.append(range, input);
  }
  box.append(presets, go);
  return box;
}

function actionButton(action, label, send, key) {
  return el("button", { type: "button", class: "act", "data-action": action,
    "aria-keyshortcuts": key || undefined, onclick: () => send(action) },
  label, key ? el("kbd", { "aria-hidden": "true", text: key.toLowerCase() }) : null);
}

const KEYS = { in: "I", out: "O", fold: "F", check: "C", call: "C", play: "P", stand: "S",
  "stand pat": "S", high: "H", low: "L", both: "B" };

const LABELS = { both: "Both ways" };

function label(action) {
  return LABELS[action] || action.charAt(0).toUpperCase() + action.slice(1);
}

function decisionButtons(decision, send) {
  return decision.actions.map((action, index) =>
    actionButton(action, label(action), send, KEYS[action] || (index < 9 ? String(index + 1) : "")));
}

function drawBar(bar, decision, state, send) {
  const options = decision.options;
  const chosen = options.hand.filter((card) => state.picked.has(card));
  const action = `discard ${chosen.join(" ")}`;
  const legal = chosen.length > 0 && decision.actions.includes(action);
  bar.append(el("p", { class: "hint", text:
    `Tap the cards to discard (up to ${options.limit}` +
    (options.extra && options.extra.length ? `, more with ${options.extra.map(cardText).join(" ")}` : "") + ")." }));
  bar.append(
    el("button", { type: "button", class: "act primary", "data-action": "discard", disabled: !legal,
      "aria-keyshortcuts": "D", onclick: () => send(action) },
    chosen.length ? `Discard ${chosen.map(cardText).join(" ")}` : "Discard", el("kbd", { "aria-hidden": "true", text: "d" })),
    actionButton(options.pat, options.pat === "stand" ? "Stand" : "Stand pat", send, "S"));
  if (chosen.length && !legal) {
    bar.append(el("p", { class: "why", role: "alert", text: `You may not discard ${chosen.length} of these cards.` }));
  }
}

function betBar(bar, decision, state, send) {
  const options = decision.options;
  for (const action of decision.actions) {
    if (action === "fold" || action === "check") bar.append(actionButton(action, action === "fold" ? "Fold" : "Check", send, KEYS[action]));
    if (action === "call") bar.append(actionButton("call", `Call ${options.call_amount}`, send, "C"));
  }
  const limitWord = state.table && state.table.options ? state.table.options.limit : "";
  const view = state.game;
  const opening = opens(decision, view);
  const control = amountControl(decision, send, limitWord, opening);
  if (control) bar.append(control);
  if (opening) {
    bar.append(el("p", { class: "hint", text:
      `Openers: ${openersText(view.openers)}. Whoever opens proves them when the hand ends; without them the hand is dead.` }));
  }
}

/** The night's choice of game: one button per allowed game with its one-line summary, and
 * the options the chooser may add (when the night lets them). */
function gameChoiceBar(bar, decision, state, send) {
  const summaries = state.catalog || {};
  const house = (state.game.night && state.game.night.house) || {};
  const free = !state.table || (state.table.options || {})["chooser-options"] !== "no";
  const extra = free ? el("input", { id: "game-options", autocomplete: "off", placeholder: "e.g. ante=2",
    "aria-label": "options for the game you choose (name=value, separated by spaces)" }) : null;
  const choices = el("div", { class: "game-choices" });
  decision.actions.forEach((game, index) => {
    const fixed = Object.entries(house[game] || {}).map(([key, value]) => `${key}=${value}`).join(" ");
    const key = index < 9 ? String(index + 1) : "";
    choices.append(el("button", { type: "button", class: "act game-choice", "data-action": game,
      "aria-keyshortcuts": key || undefined, onclick: () => {
        const options = extra ? extra.value.trim() : "";
        send(options ? `${game} ${options}` : game);
      } },
    el("span", { class: "game-name" }, game, key ? el("kbd", { "aria-hidden": "true", text: key }) : null),
    el("span", { class: "game-summary", text: [summaries[game], fixed && `house: ${fixed}`].filter(Boolean).join(" · ") })));
  });
  bar.append(choices);
  if (extra) bar.append(el("label", { class: "hint game-options", for: "game-options" }, "Your options for it ", extra));
}

/** True when the decision's bet opens the pot of a game played with openers. */
function opens(decision, view) {
  return Boolean(view && view.openers && view.openers !== "any" && view.opener === null &&
    decision.actions.some((action) => action.startsWith("bet")));
}

/** The decision's prompt in the engine's words (an opening bet called opening). */
function promptOf(decision, view) {
  const opening = opens(decision, view) ? decision.prompt.replace(/\bbet\b/, "open") : decision.prompt;
  const words = opening.replace(/\b(?:[2-9TJQKA][shdc]|X[rb])\b/g, (code) => cardText(code));
  return words + (decision.simultaneous ? " (everyone chooses at once)" : "");
}

/** The action bar: exactly the seat's pending decision, nothing when it has none. */
export function renderActions(bar, state, send) {
  const paused = Boolean(state.table && state.table.paused);
  if (unchanged(bar, [state.decision, state.sent, [...state.picked], state.game && state.game.to_act, state.secret,
    Object.keys(state.catalog || {}).length, paused])) return;
  bar.replaceChildren();
  drawActions(bar, state, send);
  if (paused && state.game) {
    for (const control of bar.querySelectorAll("button, input")) control.disabled = true;
    bar.prepend(el("p", { class: "paused-line", role: "status", text: "The table is paused: wait for the host to resume it." }));
  }
}

function drawActions(bar, state, send) {
  const decision = state.decision;
  if (!decision || state.sent) {
    const view = state.game;
    if (view && view.to_act && view.to_act.length) {
      const names = view.to_act.map((seat) => (view.players || [])[seat]).filter(Boolean);
      const kept = state.secret ? `You chose ${state.secret.action}; the choices are shown together when everyone has chosen. ` : "";
      bar.append(el("p", { class: "waiting", text: state.sent ? "Sent…" : `${kept}Waiting for ${names.join(", ")}` }));
    }
    return;
  }
  bar.append(el("p", { class: "prompt", text: promptOf(decision, state.game) }));
  if (decision.kind === "choose" && choosingGame(state.game)) gameChoiceBar(bar, decision, state, send);
  else if (decision.kind === "bet") betBar(bar, decision, state, send);
  else if (decision.kind === "draw") drawBar(bar, decision, state, send);
  else if (decision.kind === "play") {
    const why = Object.entries(decision.options.why_not || {});
    const words = decision.options.words || [];  // said instead of a card (pass)
    const cards = decision.options.allowed.length;
    const hint = cards ? `Tap a card to play it${words.length ? `, or ${words.join(" or ")}` : ""}.` : "No card may be played.";
    bar.append(el("p", { class: "hint", text: hint }));
    bar.append(...words.map((word) => actionButton(word, label(word), send, KEYS[word] || word[0].toUpperCase())));
    if (why.length) {
      const reasons = [...new Set(why.map(([, reason]) => reason))];
      bar.append(el("p", { class: "why", text: `Greyed cards may not be played: ${reasons.join("; ")}` }));
    }
  } else bar.append(...decisionButtons(decision, send));
}

/** More cards than a phone's row shows readably: such a hand wraps into rows there. */
const MANY_IN_HAND = 9;

/** One's own cards, face up; buttons while discarding or playing a card. */
export function renderHand(root, state, onCard) {
  const view = state.game;
  const description = view ? (seatsOf(view, state.chose, state.proofs, state.described)[view.seat] || {}).description : "";
  const up = view && view.face_up ? (view.face_up[String(view.seat)] || []) : [];
  if (unchanged(root, [view && view.hand, up, description, state.decision, state.sent, [...state.picked],
    Boolean(state.table && state.table.paused)])) return;
  root.replaceChildren();
  if (!view || !view.hand) return;
  const decision = state.sent ? null : state.decision;
  const kind = decision && decision.kind;
  const own = seatsOf(view, state.chose, state.proofs, state.described)[view.seat];
  root.append(el("div", { class: "hand-label" }, `Your cards`,
    own && own.description ? ` — ${own.description}` : ""));
  const cards = el("div", { class: view.hand.length > MANY_IN_HAND ? "hand-cards many" : "hand-cards" });
  for (const code of view.hand) {
    if (kind === "draw") {
      const picked = state.picked.has(code);
      const card = cardElement(code, { button: true, pressed: picked });
      if (picked) card.classList.add("picked");
      card.addEventListener("click", () => onCard(code, "draw"));
      cards.append(card);
    } else if (kind === "play") {
      const allowed = decision.options.allowed.includes(code) && !(state.table && state.table.paused);
      const card = cardElement(code, { button: true, disabled: !allowed,
        why: allowed ? "" : (decision.options.why_not || {})[code] });
      card.addEventListener("click", () => onCard(code, "play"));
      cards.append(card);
    } else cards.append(cardElement(code));
  }
  for (const code of up.filter((card) => !view.hand.includes(card))) {
    const card = cardElement(code);  // one's own cards dealt face up (Four-Two-Two's last two)
    card.classList.add("face-up");
    cards.append(card);
  }
  root.append(cards);
}

/** True while ``panel`` is scrolled to its end (or cannot scroll): it follows new lines. */
export function atEnd(panel) {
  return panel.scrollTop + panel.clientHeight >= panel.scrollHeight - 8;
}

/** Scroll ``panel`` to its newest line if it was following (``follow``). */
export function followEnd(panel, follow) {
  if (follow) panel.scrollTop = panel.scrollHeight;
}

/** The hand log, in the terminal's words (the panel around it scrolls to the newest line
 * unless the reader scrolled back). */
export function renderLog(root, lines, follow = true) {
  root.replaceChildren(...lines.map((line) => el("li", {
    class: line.startsWith("—") ? "deal-line" : (line.startsWith("══") ? "game-line" : ""), text: line })));
  followEnd(root.parentElement, follow);
}

/** The chat lines (the list scrolls to the newest unless the reader scrolled back). */
export function renderChat(root, chat, follow = true) {
  if (unchanged(root, [chat.length, chat.length ? chat[chat.length - 1].seq ?? chat[chat.length - 1].text : null])) return;
  root.replaceChildren(...chat.map((line) => el("li", {},
    el("b", { text: `${line.nickname}: ` }), ...withReplayLinks(line.text))));
  followEnd(root, follow);
}

/** A chat line's text with each link to a replay at this table as a link (the replayer
 * opens at that deal, from the reader's own seat). */
function withReplayLinks(text) {
  const link = new RegExp(`${location.origin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${location.pathname}#replay=\\d+\\.\\d+`, "g");
  const parts = [];
  let last = 0;
  for (const found of text.matchAll(link)) {
    parts.push(text.slice(last, found.index), el("a", { href: found[0], class: "replay-link", text: found[0] }));
    last = found.index + found[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

/** The ledger: each player's buy-in, cash-out, stack and net, and the settlement. */
export function renderLedger(root, ledger, csvLink, night) {
  root.replaceChildren();
  if (!ledger) {
    root.append(el("p", { text: "The ledger shows once you have a seat." }));
    return;
  }
  const head = el("tr", {}, ...["Player", "Buy-in", "Cash-out", "Stack", "Net"].map((h) => el("th", { scope: "col", text: h })));
  const rows = ledger.players.map((row) => el("tr", { "data-player": row.player_nickname },
    el("th", { scope: "row", text: row.player_nickname }),
    ...[row.buy_in, row.buy_out, row.stack, row.net].map((cell, index) =>
      el("td", { text: index === 3 && cell > 0 ? `+${cell}` : String(cell) }))));
  root.append(el("table", { class: "ledger", "aria-label": "ledger" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  if (ledger.settlement.length) {
    root.append(el("h3", { text: ledger.status === "over" ? "Settlement" : "To settle now" }),
      el("ul", { class: "settlement" }, ...ledger.settlement.map((p) => el("li", { text: `${p.from} pays ${p.to} ${p.amount}` }))));
  } else if (ledger.unsettled) {
    root.append(el("p", { class: "unsettled", text: `No settlement yet: ${ledger.unsettled}.` }));
  }
  if (ledger.players.some((row) => row.bot)) {
    root.append(el("p", { class: "bots-note", text:
      "A bot's chips are the host's: what the bots won or lost is settled with the host, and people settle with people." }));
  }
  if (night && night.played.length) {
    root.append(el("h3", { text: "Games of the night" }), el("ol", { class: "night-games" },
      ...night.played.map((game) => el("li", { "data-game": game.game }, `${game.game}`,
        game.chooser !== null && game.chooser !== undefined ? ` (chosen by ${night.names[game.chooser]})` : "",
        game.deals ? `, ${game.deals} deal${game.deals === 1 ? "" : "s"}: ` : ", not dealt",
        game.deals ? game.change.map((chips, seat) => `${night.names[seat]} ${chips > 0 ? "+" : ""}${chips}`).join(", ") : ""))));
  }
  if (csvLink) root.append(csvLink);
}

/** The host's business at the table itself (a phone shows the Host tab below the table):
 * each seat request and each ask for chips, with its buttons; Start before the start. */
export function renderHostNotice(root, state, host, hosting) {
  const table = state.table;
  const live = (state.seats || []).filter((seat) => seat.status !== "refused" && seat.status !== "left");
  const waiting = hosting ? live.filter((seat) => seat.status === "requested") : [];
  const asking = hosting ? live.filter((seat) => seat.asked && seat.status === "approved") : [];
  const start = hosting && table && table.status === "lobby";
  if (unchanged(root, [waiting, asking, start, live.filter((seat) => seat.status === "approved").length])) return;
  root.replaceChildren();
  root.hidden = !(waiting.length || asking.length || start);
  for (const seat of waiting) {
    root.append(el("div", { class: "notice-line request-notice", "data-seat-id": seat.seat_id },
      el("span", { text: `${seat.nickname} asks for a seat (buy-in ${seat.buy_in}) ` }),
      el("button", { type: "button", class: "approve primary", onclick: () => host("approve", { seat_id: seat.seat_id }), text: "Approve" }),
      el("button", { type: "button", class: "refuse", onclick: () => host("refuse", { seat_id: seat.seat_id }), text: "Refuse" })));
  }
  for (const seat of asking) {
    root.append(el("div", { class: "notice-line chips-notice", "data-seat-id": seat.seat_id },
      el("span", { text: `${seat.nickname} asks for ${seat.asked} chips ` }),
      el("button", { type: "button", class: "approve-chips primary", onclick: () => host("approve_chips", { seat_id: seat.seat_id }), text: "Give" }),
      el("button", { type: "button", class: "refuse-chips", onclick: () => host("refuse_chips", { seat_id: seat.seat_id }), text: "Refuse" })));
  }
  if (start) {
    const seated = live.filter((seat) => seat.status === "approved").length;
    root.append(el("div", { class: "notice-line start-line" },
      el("span", { text: `${seated} seated. ` }),
      el("button", { type: "button", id: "start-at-table", class: "primary", onclick: () => host("start", {}), text: "Start the game" })));
  }
}

/** The host's panel: seat requests, chips asked for, bots, start, pause, away and kick,
 * the next deal's options, the host role, the end of the night. */
export function renderHost(root, state, host, optionsForm) {
  if (unchanged(root, [state.seats, state.table, state.you, Boolean(optionsForm && optionsForm.open !== undefined)])) return;
  root.replaceChildren();
  const table = state.table;
  if (!table) return;
  const seats = (state.seats || []).filter((seat) => seat.status !== "refused" && seat.status !== "left");
  const waiting = seats.filter((seat) => seat.status === "requested");
  const asking = seats.filter((seat) => seat.asked);
  const box = el("div", { class: "host" });
  box.append(el("h3", { text: "Seat requests" }));
  if (!waiting.length) box.append(el("p", { text: "None waiting." }));
  for (const seat of waiting) {
    box.append(el("div", { class: "request", "data-seat-id": seat.seat_id },
      `${seat.nickname} (buy-in ${seat.buy_in}) `,
      el("button", { type: "button", class: "approve", onclick: () => host("approve", { seat_id: seat.seat_id }), text: "Approve" }),
      el("button", { type: "button", class: "refuse", onclick: () => host("refuse", { seat_id: seat.seat_id }), text: "Refuse" })));
  }
  for (const seat of asking) {
    box.append(el("div", { class: "chips-request", "data-seat-id": seat.seat_id },
      `${seat.nickname} asks for ${seat.asked} chips `,
      el("button", { type: "button", class: "approve-chips", onclick: () => host("approve_chips", { seat_id: seat.seat_id }), text: "Give" }),
      el("button", { type: "button", class: "refuse-chips", onclick: () => host("refuse_chips", { seat_id: seat.seat_id }), text: "Refuse" })));
  }
  if (table.status !== "over") {
    const kind = el("select", { "aria-label": "bot kind", id: "bot-kind",
      onchange: () => { state.botKind = kind.value; } },
    ...["sensible", "threshold", "random"].map((k) => el("option", { value: k, text: k })));
    kind.value = state.botKind || "sensible";
    const free = freeSeats(state.seats || []);
    const where = el("select", { "aria-label": "bot seat", id: "bot-seat",
      onchange: () => { state.botSeat = where.value; } },
    el("option", { value: "", text: "next free seat" }),
    ...free.map((seatId) => el("option", { value: String(seatId), text: seatName(seatId) })));
    where.value = free.map(String).includes(state.botSeat) ? state.botSeat : "";
    const seated = () => (where.value === "" ? {} : { seat_id: Number(where.value) });
    box.append(el("h3", { text: "Bots" }), el("div", { class: "add-bot" }, kind, where,
      el("button", { type: "button", id: "add-bot", onclick: () => host("add_bot", { bot: kind.value, ...seated() }), text: "Add a bot" })));
  }
  box.append(el("h3", { text: "The game" }));
  if (table.status === "lobby") {
    box.append(el("button", { type: "button", id: "start", class: "primary", onclick: () => host("start", {}), text: "Start the game" }));
  }
  if (table.status === "playing") {
    box.append(el("button", { type: "button", id: "pause", "aria-pressed": String(Boolean(table.paused)),
      onclick: () => host("pause", { paused: !table.paused }), text: table.paused ? "Resume the table" : "Pause the table" }));
  }
  if (table.status !== "over") {
    box.append(el("button", { type: "button", id: "end", onclick: () => {
      if (window.confirm("End the night? The deal in progress is played out first.")) host("end", {});
    }, text: "End the night" }));
  }
  const people = seats.filter((seat) => seat.status === "approved");
  if (people.length && table.status !== "over") {
    const list = el("ul", { class: "host-seats" });
    for (const seat of people) {
      const person = seat.kind === "person";
      list.append(el("li", { "data-seat-id": seat.seat_id },
        el("span", { class: "seat-number", text: seatName(seat.seat_id) }), ` ${seat.nickname} `,
        person ? el("button", { type: "button", class: "away", onclick: () => host("set_away", { seat_id: seat.seat_id, away: !seat.away }), text: seat.away ? "Back" : "Away" }) : null,
        el("button", { type: "button", class: "give-chips", onclick: () => {
          const amount = Number(window.prompt(`Chips for ${seat.nickname}:`, String(table.buy_in)));
          if (amount > 0) host("approve_chips", { seat_id: seat.seat_id, amount });
        }, text: "Give chips" }),
        person && state.you && seat.seat_id !== state.you.seat_id ? el("button", { type: "button", class: "hand-host", onclick: () => {
          if (window.confirm(`Make ${seat.nickname} the host?`)) host("hand_host", { seat_id: seat.seat_id });
        }, text: "Make host" }) : null,
        seat.leaving || (state.you && seat.seat_id === state.you.seat_id) ? null : el("button", { type: "button", class: "kick", onclick: () => {
          if (window.confirm(`Remove ${seat.nickname} at the next deal boundary?`)) host("kick", { seat_id: seat.seat_id });
        }, text: person ? "Kick" : "Remove" })));
    }
    box.append(el("h3", { text: "Seats" }), list);
  }
  if (optionsForm && table.status !== "over") box.append(el("h3", { text: "Options for the next deals" }), optionsForm);
  root.append(box);
}

/** One's own seat: sit out or come back, ask for chips, leave. */
export function renderSeatPanel(root, state, player) {
  if (unchanged(root, [state.seats, state.you, state.table && state.table.status])) return;
  root.replaceChildren();
  const you = state.you;
  const mine = you && (state.seats || []).find((seat) => seat.seat_id === you.seat_id);
  if (!mine || mine.status !== "approved" || (state.table && state.table.status === "over")) {
    root.append(el("p", { text: "Your seat's controls show once the host has seated you." }));
    return;
  }
  const amount = el("input", { type: "number", id: "chips-amount", min: 1, max: state.table.buy_in,
    value: state.table.buy_in, "aria-label": "chips to ask for" });
  const sound = el("input", { type: "checkbox", id: "turn-sound", checked: state.sound === "on",
    onchange: () => state.setSound(sound.checked) });
  root.append(el("div", { class: "seat-panel" },
    el("p", { text: mine.away ? "You are sitting out: the table plays your seat safe." : `You play as ${mine.nickname}.` }),
    el("p", {}, el("label", { for: "turn-sound" }, sound, " A sound when it is my turn and this page is not in front")),
    mine.away
      ? el("button", { type: "button", id: "come-back", onclick: () => player("come_back", {}), text: "Come back" })
      : el("button", { type: "button", id: "sit-out", onclick: () => player("sit_out", {}), text: "Sit out" }),
    el("h3", { text: "More chips (a rebuy or top-up)" }),
    mine.asked ? el("p", { text: `You asked for ${mine.asked}; the host decides.` }) : null,
    el("div", {}, amount, el("button", { type: "button", id: "buy-chips", onclick: () => player("buy_chips", { amount: Number(amount.value) }), text: "Ask for chips" })),
    el("h3", { text: "Leave" }),
    mine.leaving ? el("p", { text: "You leave at the next deal boundary." })
      : el("button", { type: "button", id: "leave", onclick: () => {
        if (window.confirm("Leave the table? You are cashed out at the next deal boundary.")) player("leave", {});
      }, text: "Leave the table" })));
}
