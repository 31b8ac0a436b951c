// The table page: one websocket to the table, the state it builds from the server's
// snapshots and events, and the render functions that draw it.

import { decisionOf, gameTitle, nightOf, titles } from "./model.js";
import {
  atEnd, clockText, el, followEnd, renderActions, renderCentre, renderChat, renderHand, renderHost, renderHostNotice, renderLedger,
  renderLog, renderSeatPanel, renderSeats,
} from "./render.js";

const PROTOCOL = 2;
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const stored = (name) => localStorage.getItem(`guts:${name}:${tableId}`);
const store = (name, value) => localStorage.setItem(`guts:${name}:${tableId}`, value);

const hostInLink = new URLSearchParams(location.hash.slice(1)).get("host");
if (hostInLink) store("host", hostInLink);
/** The host's secret: the host link's, or one's own device token once the host role
 * was handed to this seat. */
function hostSecret() {
  if (state.you && state.you.host) return stored("token");
  if (state.table && state.table.host_seat !== null && state.table.host_seat !== undefined) {
    return null;  // the role was handed to a seat: the host link's secret is no longer it
  }
  return stored("host");
}

const state = {
  table: null, seats: [], you: null, game: null, decision: null, seq: null,
  events: [], lines: [], chat: [], chose: new Set(), picked: new Set(), sent: false,
  proofs: {}, secret: null, unread: 0, alerts: [], follow: { log: true, chat: true },
  ledger: null, error: "", clocks: [], clocksAt: 0, optionsForm: null, catalog: null,
};

state.sound = localStorage.getItem("guts:sound") || "off";  // one's choice on every table
state.setSound = (on) => {
  state.sound = on ? "on" : "off";
  localStorage.setItem("guts:sound", state.sound);
};

const $ = (id) => document.getElementById(id);
let socket = null;
let retry = 0;
let retryTimer = null;

// -- the connection ----------------------------------------------------------------------

function connect() {
  clearTimeout(retryTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}?v=${PROTOCOL}`);
  showConnection("connecting");
  socket.addEventListener("open", () => {
    retry = 0;
    showConnection("online");
    const token = stored("token");
    send({ type: "resume", ...(token ? { token } : {}), last_seq: token ? state.seq : null });
  });
  socket.addEventListener("message", (message) => receive(JSON.parse(message.data)));
  socket.addEventListener("close", (closed) => {
    if (closed.code === 4404) {
      showConnection("gone");
      return;
    }
    const delay = Math.min(10000, 500 * 2 ** retry) * (0.75 + Math.random() / 2);
    retry += 1;
    showConnection("offline", delay);
    retryTimer = setTimeout(connect, delay);
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return true;
  }
  showError("Not connected: reconnecting…");
  return false;
}

function showConnection(how, delay) {
  const box = $("connection");
  box.dataset.state = how;
  box.textContent = {
    connecting: "Connecting…",
    online: "Connected",
    offline: `Connection lost: retrying in ${Math.ceil((delay || 0) / 1000)} s`,
    gone: "No table has that id",
  }[how];
  document.body.classList.toggle("offline", how !== "online");
}

// -- what the server says ----------------------------------------------------------------

const HANDLERS = {
  snapshot(message) {
    state.rejoining = false;
    state.table = message.table;
    state.seats = message.seats;
    const asked = state.you && ["requested", "refused"].includes(state.you.status) ? state.you : null;
    // a request refused (or withdrawn) leaves this connection a spectator: say so, and
    // offer to ask again, rather than a bare form
    state.you = message.you || (asked && { ...asked, status: "refused" });
    state.seq = message.seq;
    state.game = message.game;
    state.decision = decisionOf(message.game);
    state.events = message.game ? [...(message.game.events || [])] : [];
    told();
    state.sent = false;
    state.picked.clear();
    if (message.chat) state.chat = [...message.chat];
    setClocks(message.clocks);
    confirmOptions();
  },
  event(message) {
    state.seq = message.seq;
    state.table.status = message.status;
    state.game = message.game;
    state.decision = message.decision;
    state.events.push(...message.events);
    if (state.events.length > 3000) state.events.splice(0, state.events.length - 3000);
    told();
    state.sent = false;
    if (!message.decision || message.decision.kind !== "draw") state.picked.clear();
    setClocks(message.clocks);
  },
  seats(message) {
    state.seq = message.seq;
    state.seats = message.seats;
    state.table.status = message.status;
    const mine = state.you && message.seats.find((seat) => seat.seat_id === state.you.seat_id
      && seat.nickname === state.you.nickname);
    const dealtIn = mine && mine.seat !== null && state.you.seat !== mine.seat;
    if (mine) state.you = { ...state.you, status: mine.status, seat: mine.seat };
    // a request refused (or withdrawn) holds nothing: it leaves the list of seats
    else if (state.you && state.you.status === "requested") state.you = { ...state.you, status: "refused" };
    if (dealtIn && message.status === "playing" && state.game && state.game.seat !== mine.seat) {
      send({ type: "resume", token: stored("token") });  // dealt in: a snapshot of the seat's view
    }
  },
  welcome(message) {
    store("token", message.token);
    state.you = { seat_id: message.seat_id, nickname: message.nickname, status: message.status, seat: null };
    if (message.status === "requested" && hostSecret()) host("approve", { seat_id: message.seat_id });  // the host's own seat
  },
  ack() {},
  chat(message) {
    state.chat.push(message);
    if (state.chat.length > 200) state.chat.shift();
    const mine = state.you && message.seat_id === state.you.seat_id;
    if (document.body.dataset.tab !== "chat" && !mine) state.unread += 1;
  },
  error(message) {
    if (message.code === "no-such-seat") localStorage.removeItem(`guts:token:${tableId}`);
    state.sent = false;
    showError(message.message);
  },
};

/** Once the table has the options and buy-in the host asked for, say so in the host's form. */
function confirmOptions() {
  const asked = state.optionsAsked;
  const box = $("options-saved");
  if (!asked || !box || !state.table) return;
  const options = state.table.options || {};
  const same = state.table.buy_in === asked.buy_in &&
    Object.entries(asked.options).every(([name, value]) => String(options[name]) === value);
  if (!same) return;
  const words = Object.entries(asked.options).map(([name, value]) => `${name}=${value}`);
  box.textContent = `Saved: from the next deal the buy-in is ${asked.buy_in}` +
    (words.length ? ` and ${words.join(", ")}` : "") + ".";
  box.scrollIntoView({ block: "nearest" });
  state.optionsAsked = null;
}

function setClocks(clocks) {
  state.clocks = clocks || [];
  state.clocksAt = performance.now();
}

/** What the events told of the deal in progress: the seats that have chosen in a
 * simultaneous declaration not yet revealed, and the openers proved (or not) by seat. */
function told() {
  const chose = new Set();
  const proofs = {};
  let outcome = "";
  let last = "";
  let described = {};
  for (const event of state.events) {
    const kind = event.kind;
    if (kind === "outcome") outcome = withHands((state.saidOf && state.saidOf.get(event)) || event.text, described);
    if (kind === "draw-deal-ended") outcome = drawOutcome(event, described);
    if (event.description && Array.isArray(event.cards) && event.seat !== undefined) {
      described[event.seat] = { cards: event.cards, description: event.description };
    }
    if (kind.endsWith("deal-started")) {
      [last, outcome] = [outcome, ""];
      described = {};
    }
    if (kind.startsWith("night-")) [last, outcome] = ["", ""];  // a new game: its own story
    if (kind === "chose") chose.add(event.seat);
    else if (kind === "declared" || kind === "staged-stage" || kind.startsWith("night-")) chose.clear();
    else if (kind === "draw-openers-shown") proofs[event.seat] = { proved: event.proved, cards: event.cards };
    if (kind.endsWith("deal-started") || kind.startsWith("night-")) {
      chose.clear();
      for (const seat of Object.keys(proofs)) delete proofs[seat];
    }
  }
  state.chose = chose;
  state.proofs = proofs;
  state.described = described;
  state.outcome = outcome;
  state.lastOutcome = outcome ? "" : last;
  const secret = state.secret || JSON.parse(stored("secret") || "null");
  const mine = state.game && state.game.seat;
  state.secret = secret && state.game && chose.has(mine) && secret.deal === state.game.deal ? secret : null;
}

/** A seat's name in the page's words: "You" for one's own. */
function nameOf(seat) {
  const game = state.game;
  if (!game) return String(seat);
  return seat === game.seat ? "You" : (game.players || [])[seat] || `Seat ${seat + 1}`;
}

/** The hands shown at this deal's showdown, each named: "Bob: Pair of fours; You: Jack high". */
function handsText(described) {
  return Object.entries(described)
    .map(([seat, shown]) => `${nameOf(Number(seat))}: ${shown.description}`).join("; ");
}

/** A family's outcome line with the hands shown named after it. */
function withHands(text, described) {
  const hands = handsText(described);
  return hands ? `${text} (${hands})` : text;
}

/** A draw deal's end in words: who won what, with which hand, and the hands shown. */
function drawOutcome(event, described) {
  if (!event.won || !event.won.length) return event.reason || "";
  const won = event.won.map(([seat, amount]) => {
    const hand = described[seat] ? ` with ${described[seat].description}` : "";
    return `${nameOf(seat)} ${seat === (state.game && state.game.seat) ? "win" : "wins"} ${amount}${hand}`;
  }).join("; ");
  const others = Object.fromEntries(Object.entries(described).filter(([seat]) =>
    !event.won.some(([winner]) => winner === Number(seat))));
  const hands = handsText(others);
  return hands ? `${won} (${hands})` : won;
}

/** Remember one's own choice in a simultaneous declaration (the server tells nobody, not
 * even the chooser, until everyone has chosen), so the page can show it meanwhile. */
function keepSecret(action) {
  state.secret = { deal: state.game.deal, action };
  store("secret", JSON.stringify(state.secret));
}

function receive(message) {
  const handler = HANDLERS[message.type];
  if (!handler) return;
  if (message.type !== "error") showError("");
  handler(message);
  render();
  if (message.type === "snapshot" && !performance.getEntriesByName("guts-interactive").length) {
    performance.mark("guts-interactive");  // the page can act from here on
  }
  if (["snapshot", "event"].includes(message.type)) {
    narrateSoon();
    alertTurn();
  }
  if (["snapshot", "event", "seats"].includes(message.type)) ledgerSoon();
}

// -- turn alerts -------------------------------------------------------------------------

let alerted = "";
const TITLE_MARK = "● Your turn — ";

/** One's turn while the page is not in front: the tab's title says so, and as the
 * player chose, a sound, a desktop notification (asked for once, when joining) and a
 * vibration on phones. Each turn alerts once. */
function alertTurn() {
  const decision = state.decision;
  const key = decision && !state.sent ? `${state.seq}:${decision.seat}:${decision.kind}` : "";
  const turn = Boolean(key) && !alerted;
  alerted = key ? alerted || key : "";
  if (!turn || (!document.hidden && document.hasFocus())) return;
  state.alerts.push("title");
  renderTitle();
  if (state.sound === "on") {
    beep();
    state.alerts.push("sound");
  }
  if ("Notification" in window && Notification.permission === "granted") {
    const note = new Notification("Your turn at guts", { body: decision.prompt, tag: `guts-${tableId}` });
    note.onclick = () => window.focus();
    state.alerts.push("notification");
  }
  if (navigator.vibrate && navigator.vibrate([120, 60, 120])) state.alerts.push("vibration");
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 660;
    volume.gain.setValueAtTime(0.15, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch (error) {
    // no sound on this device
  }
}

/** Ask once (the browser remembers the answer) whether this page may notify. */
function askToNotify() {
  if (!("Notification" in window) || Notification.permission !== "default" || stored("asked-notify")) return;
  store("asked-notify", "yes");
  Notification.requestPermission().catch(() => {});
}

// -- acting ------------------------------------------------------------------------------

function nextClientSeq() {
  const next = Math.max(Number(stored("client_seq") || 0) + 1, Date.now());
  store("client_seq", String(next));
  return next;
}

function act(action) {
  if (!state.decision || state.sent || !state.game) return;
  const simultaneous = state.decision.simultaneous;
  if (send({ type: "act", seat: state.game.seat, action, client_seq: nextClientSeq() })) {
    if (simultaneous) keepSecret(action);
    state.sent = true;
    state.picked.clear();
    render();
  }
}

function onCard(code, how) {
  if (how === "play") {
    act(code);
    return;
  }
  if (state.picked.has(code)) state.picked.delete(code); else state.picked.add(code);
  render();
}

function host(type, fields) {
  send({ type, secret: hostSecret(), ...fields });
}

function player(type, fields) {
  if (type === "leave" && state.you) store("leaving", String(state.you.seat_id));  // one's own leaving, not a kick
  send({ type, ...fields });
}

// -- the hand log and the ledger ---------------------------------------------------------

let narrating = false;
let narrateAgain = false;

async function narrateSoon() {
  if (narrating) {
    narrateAgain = true;
    return;
  }
  narrating = true;
  try {
    do {
      narrateAgain = false;
      const events = state.events.slice(-1500);
      const names = (state.game ? state.game.players : []).map((name, seat) =>
        (seat === state.game.seat ? "You" : name));
      const response = await fetch("/api/narrate", {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ names, events, you: state.game && state.game.players ? state.game.players[state.game.seat] : null }),
      });
      if (response.ok) {
        const said = (await response.json()).lines;
        state.lines = said.filter(Boolean);
        state.saidOf = new WeakMap();
        events.forEach((event, index) => { if (said[index]) state.saidOf.set(event, said[index]); });
        renderLog($("log"), state.lines, state.follow.log);
        told();  // the outcome in the log's words (You for one's own seat)
        renderCentre($("centre"), state, onCard);
      }
    } while (narrateAgain);
  } catch (error) {
    // the log catches up with the next event
  } finally {
    narrating = false;
  }
}

let ledgerTimer = null;

function ledgerSoon() {
  clearTimeout(ledgerTimer);
  ledgerTimer = setTimeout(loadLedger, 150);
}

async function loadLedger() {
  const secret = hostSecret() || stored("token");
  if (!secret || !state.table || state.table.status === "lobby") {
    renderLedger($("ledger"), null);
    return;
  }
  const path = hostSecret() ? "ledger" : "standings";
  const headers = { authorization: `Bearer ${secret}` };
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/${path}`, { headers });
    if (!response.ok) return;
    state.ledger = await response.json();
    const csv = el("button", { type: "button", id: "csv", text: "Download CSV", onclick: () => downloadCsv(path, headers) });
    const history = el("button", { type: "button", id: "history", text: "Hand histories",
      onclick: () => download("history", headers, `guts-${tableId}-history.jsonl`) });
    const night = nightOf(state.game);
    if (night) night.names = state.game.players || [];
    renderLedger($("ledger"), state.ledger, el("p", { class: "downloads" }, csv, " ", history), night);
  } catch (error) {
    // offline: the indicator says so
  }
}

function downloadCsv(path, headers) {
  return download(`${path}?format=csv`, headers, `guts-${tableId}-ledger.csv`);
}

/** Save what `/api/tables/ID/<path>` answers as the file `name`. */
async function download(path, headers, name) {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/${path}`, { headers });
  if (!response.ok) {
    showError("That could not be downloaded.");
    return;
  }
  const link = el("a", { href: URL.createObjectURL(await response.blob()), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

// -- drawing -----------------------------------------------------------------------------

function showError(text) {
  state.error = text;
  $("error").textContent = text;
}

function renderTitle() {
  const table = state.table;
  const status = table && table.paused ? "paused" : table && table.status;
  const night = nightOf(state.game);
  const game = night ? `Dealer's choice${night.playing ? `: ${gameTitle(night.playing)}` : ""}`
    : table && gameTitle(table.preset);
  $("title").textContent = table ? `${game} · ${status}` : "guts";
  document.body.classList.toggle("paused", Boolean(table && table.paused));
  const mark = state.decision && !state.sent && (document.hidden || !document.hasFocus()) && alerted ? TITLE_MARK : "";
  document.title = mark + (table ? `${gameTitle(table.preset)} — guts` : "guts table");
}

/** A seat that left, or a request the host refused: forget its token, so this browser
 * may ask for a seat again (a new request, bounded like any by the server). */
function joinAgain() {
  localStorage.removeItem(`guts:token:${tableId}`);
  localStorage.removeItem(`guts:leaving:${tableId}`);
  state.you = null;
  state.rejoining = true;
  if (socket) socket.close();  // a fresh connection, which holds no seat (reconnects at once)
  retry = 0;
  render();
}

function renderJoin() {
  const box = $("join");
  const you = state.you;
  const lobby = state.table && state.table.status === "lobby";
  const mine = you && (state.seats || []).find((seat) => seat.seat_id === you.seat_id);
  box.hidden = false;
  if (state.rejoining) {
    box.replaceChildren(el("p", { class: "waiting", role: "status", text: "Reconnecting…" }));
  } else if (you && you.status === "requested") {
    box.replaceChildren(el("p", { class: "waiting", role: "status", text: `Waiting for the host to approve ${you.nickname}…` }));
  } else if (you && you.status === "approved" && lobby) {
    const words = hostSecret() ? "Start the game when everyone is seated." : "Waiting for the host to start.";
    box.replaceChildren(el("p", { class: "waiting", role: "status", text: `You are seated as ${you.nickname}. ${words}` }));
  } else if (you && you.status === "left") {
    const how = stored("leaving") === String(you.seat_id) ? "You left the table" : "The host removed you from the table";
    box.replaceChildren(el("p", { class: "waiting left-line" },
      `${how}; your chips are cashed out (see the ledger). `,
      state.table && state.table.status !== "over" ? el("button", { type: "button", id: "join-again", onclick: joinAgain, text: "Join again" }) : null));
  } else if (you && !lobby && mine && mine.leaving && stored("leaving") !== String(you.seat_id)) {
    box.replaceChildren(el("p", { class: "waiting", role: "status", text: "The host removed you from the table: you are cashed out at the next deal boundary." }));
  } else if (you && you.status === "refused") {
    const withdrew = stored("leaving") === String(you.seat_id);
    box.replaceChildren(el("p", { class: "waiting refused-line" },
      withdrew ? "You withdrew your request for a seat. " : "The host did not give you a seat. ",
      state.table && state.table.status !== "over"
        ? el("button", { type: "button", id: "ask-again", onclick: joinAgain, text: "Ask again" }) : null));
  } else if (!you && state.table && state.table.status !== "over" && !$("join-form")) {
    const nickname = el("input", { id: "nickname", name: "nickname", required: true, maxlength: 24, autocomplete: "nickname", value: stored("nickname") || "" });
    const buyIn = el("input", { id: "buy-in", name: "buy_in", type: "number", min: 1, value: state.table.buy_in, max: state.table.buy_in });
    const form = el("form", { id: "join-form", class: "join-form" },
      el("h2", { text: "Take a seat" }),
      el("label", { for: "nickname" }, "Nickname "), nickname,
      el("label", { for: "buy-in" }, " Buy-in "), buyIn,
      el("button", { type: "submit", class: "primary", text: "Join" }));
    form.addEventListener("submit", (submitted) => {
      submitted.preventDefault();
      store("nickname", nickname.value.trim());
      askToNotify();
      send({ type: "join", nickname: nickname.value.trim(), buy_in: Number(buyIn.value) || null, secret: hostSecret() });
    });
    box.replaceChildren(form);
  } else if (!you && state.table && state.table.status === "over") {
    box.replaceChildren(el("p", { class: "waiting", text: "The night is over." }));
  } else if (you && you.status === "approved" && you.seat === null && !lobby) {
    box.replaceChildren(el("p", { class: "waiting", role: "status", text: `You are seated as ${you.nickname}: you are dealt in from the next deal boundary.` }));
  } else if (you && !lobby && mine && mine.away && mine.status === "approved" && !mine.leaving) {
    if (!$("im-back")) {
      box.replaceChildren(el("p", { class: "waiting away-line", role: "status" },
        "You are sitting out: the table plays your seat safe. ",
        el("button", { type: "button", id: "im-back", class: "primary", onclick: () => player("come_back", {}), text: "I'm back" })));
    }
  } else if (you && !lobby) {
    box.hidden = true;
    box.replaceChildren();
  }
}

/** The catalog, loaded once: each game's one-line summary (for a night's choice of game)
 * and its name as people say it (for the title). */
async function loadCatalog() {
  state.catalog = {};
  try {
    const response = await fetch("/api/games");
    for (const game of (await response.json()).games) {
      state.catalog[game.name] = game.summary;
      titles[game.name] = { title: game.title, base: game.variation_of };
    }
    render();
  } catch (error) {
    state.catalog = null;  // tried again at the next render
  }
}

function render() {
  if (!state.catalog && state.table) loadCatalog();
  renderTitle();
  renderJoin();
  renderSeats($("seats"), state);
  renderCentre($("centre"), state, onCard);
  renderHand($("hand"), state, onCard);
  renderActions($("actions"), state, act);
  renderChat($("chat-lines"), state.chat, state.follow.chat);
  renderUnread();
  const hosting = Boolean(hostSecret());
  $("tab-host").hidden = !hosting;
  if (!hosting && document.body.dataset.tab === "host") showTab("log");
  renderHostNotice($("host-notice"), state, host, hosting);
  if (hosting) {
    if (!state.optionsForm && state.table) loadOptionsForm();
    renderHost($("host"), state, host, state.optionsForm);
  }
  $("tab-seat").hidden = !state.you;
  $("tab-deals").hidden = !(state.you || hosting) || !state.table || state.table.status === "lobby";
  renderSeatPanel($("seat-panel"), state, player);
  $("chat-form").hidden = !state.you;
}

/** The host's form for the next deals' options and buy-in, made from the game's schema. */
async function loadOptionsForm() {
  state.optionsForm = el("p", { text: "Loading the options…" });
  const response = await fetch(`/api/games/${encodeURIComponent(state.table.preset)}`);
  if (!response.ok) return;
  const game = await response.json();
  const inputs = {};
  const form = el("form", { id: "options-form", class: "options-form" });
  for (const entry of game.options) {
    const current = state.table.options[entry.name] ?? entry.default;
    let input;
    if (entry.type === "bool" || entry.type === "choice") {
      const values = entry.type === "bool" ? ["yes", "no"] : entry.allowed;
      input = el("select", { id: `next-${entry.name}` },
        ...[...values, ...(entry.optional ? ["none"] : [])].map((value) => el("option", { value, text: value })));
    } else input = el("input", { id: `next-${entry.name}` });
    input.value = current;
    inputs[entry.name] = { input, default: entry.default };
    form.append(el("div", { class: "option", title: entry.doc }, el("label", { for: input.id, text: entry.name }), input));
  }
  const buyIn = el("input", { type: "number", id: "next-buy-in", min: 1, value: state.table.buy_in });
  form.append(el("div", { class: "option" }, el("label", { for: "next-buy-in", text: "buy-in" }), buyIn),
    el("button", { type: "submit", text: "Use from the next deal" }),
    el("p", { id: "options-saved", class: "saved", role: "status" }));
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const options = {};
    for (const [name, { input, default: preset }] of Object.entries(inputs)) {
      if (input.value.trim() !== preset) options[name] = input.value.trim();
    }
    state.optionsAsked = { options, buy_in: Number(buyIn.value) || state.table.buy_in };
    host("set_options", { options, buy_in: Number(buyIn.value) || null });
  });
  state.optionsForm = el("details", {}, el("summary", { text: `${game.options.length} options` }), form);
  render();
}

function tickClocks() {
  for (const clock of document.querySelectorAll("[data-clock]")) {
    const text = clockText(state, Number(clock.dataset.clock));
    if (text) clock.textContent = text;
  }
}

// -- after the deal: the replayer and the review (their modules load when opened) ---------

const after = {
  tableId,
  token: () => stored("token") || hostSecret(),
  hosting: () => Boolean(hostSecret()),
  chat: (text) => send({ type: "chat", text }),
};

/** A shared deal's link (``#replay=SESSION.DEAL``) opens the replayer at that deal. */
function replayFromLink() {
  const found = /replay=(\d+)\.(\d+)/.exec(location.hash);
  if (!found || !after.token()) return;
  import("./replayer.js").then((replayer) => replayer.openReplay(after, Number(found[1]), Number(found[2])));
}

// -- the page's controls -----------------------------------------------------------------

function showTab(name) {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const chosen = tab.dataset.tab === name;
    tab.setAttribute("aria-selected", String(chosen));
    $(tab.getAttribute("aria-controls")).hidden = !chosen;
  }
  document.body.dataset.tab = name;
  if (name === "chat") {
    state.unread = 0;
    renderUnread();
  }
  followEnd($("panel-log"), name === "log" && state.follow.log);
  followEnd($("chat-lines"), name === "chat" && state.follow.chat);
  if (name === "ledger") loadLedger();
  if (name === "deals") import("./replayer.js").then((replayer) => replayer.showDeals($("deals"), after));
  if (window.matchMedia("(max-width: 899px)").matches && document.body.dataset.ready) {
    $(`panel-${name}`).scrollIntoView({ block: "nearest" });  // a phone: the panels are below the table
  }
}

/** The Chat tab's count of lines not read yet (those that came while another tab showed). */
function renderUnread() {
  const tab = $("tab-chat");
  tab.dataset.unread = String(state.unread);
  tab.setAttribute("aria-label", state.unread ? `Chat, ${state.unread} unread` : "Chat");
  tab.replaceChildren("Chat", state.unread ? el("span", { class: "unread", "aria-hidden": "true", text: String(state.unread) }) : "");
}

function keyboard(pressed) {
  if (pressed.target.closest("input, textarea, select") || pressed.ctrlKey || pressed.metaKey || pressed.altKey) return;
  const key = pressed.key.toUpperCase();
  const button = [...document.querySelectorAll("#actions button:not([disabled])")]
    .find((candidate) => (candidate.getAttribute("aria-keyshortcuts") || "").toUpperCase() === key);
  if (button) {
    pressed.preventDefault();
    button.click();
  }
}

function setUp() {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => showTab(tab.dataset.tab));
  }
  $("chat-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const text = $("chat-text").value.trim();
    if (text && send({ type: "chat", text })) $("chat-text").value = "";
  });
  $("copy-link").addEventListener("click", async () => {
    const link = `${location.origin}/t/${tableId}`;
    try {
      await navigator.clipboard.writeText(link);
      $("copy-link").textContent = "Link copied";
    } catch (error) {
      window.prompt("The join link:", link);
    }
  });
  document.addEventListener("keydown", keyboard);
  for (const back of ["visibilitychange", "focus"]) {
    (back === "focus" ? window : document).addEventListener(back, renderTitle);  // the title's mark goes
  }
  // a panel follows its newest line until its reader scrolls back, and again at the end
  $("panel-log").addEventListener("scroll", () => { state.follow.log = atEnd($("panel-log")); });
  $("chat-lines").addEventListener("scroll", () => { state.follow.chat = atEnd($("chat-lines")); });
  setInterval(tickClocks, 1000);
  $("review-open").addEventListener("click", () => import("./review.js").then((review) => review.showReview($("review"), after)));
  window.addEventListener("hashchange", replayFromLink);
  replayFromLink();
  showTab("log");
  document.body.dataset.ready = "yes";
  connect();
}

window.gutsState = state;  // for the browser tests and the curious
setUp();
