// The club page: a host's view of every member (nights, net, plots, codes, merges, CSV),
// or a member's view of their own stats; and the claim of a membership on a new device.
// Everything shown is text set with textContent; the plots are SVG made here.
import { deviceKey, hostSecret } from "./club-keys.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
  "#e377c2", "#7f7f7f", "#bcbd22"];
const clubId = decodeURIComponent(location.pathname.split("/")[2] || "");

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const percent = (part, whole) => (whole ? `${Math.round((100 * part) / whole)}%` : "–");

async function api(path, options = {}) {
  const response = await fetch(path, options);
  const type = response.headers.get("content-type") || "";
  const body = type.includes("json") ? await response.json() : await response.text();
  return { ok: response.ok, status: response.status, body };
}

function bearer(secret) {
  return { authorization: `Bearer ${secret}` };
}

// -- the view -------------------------------------------------------------------------------

let view = null;

async function load() {
  const secret = hostSecret(clubId);
  document.body.classList.toggle("hosting", Boolean(secret));
  const answer = secret
    ? await api(`/api/clubs/${encodeURIComponent(clubId)}`, { headers: bearer(secret) })
    : await api(`/api/clubs/${encodeURIComponent(clubId)}/me`, { headers: bearer(deviceKey()) });
  $("claim-box").hidden = Boolean(secret) || answer.ok;  // a member's device has claimed
  if (!answer.ok) {
    view = null;
    $("status").textContent = secret
      ? "This club secret is not this club's."
      : "This device is not a member of this club yet: sit at one of its tables, or claim your membership with a code from the host.";
    for (const id of ["members-box", "plot-box", "games-box", "merge-box"]) $(id).hidden = true;
    return;
  }
  view = answer.body;
  render();
}

function render() {
  const { club, members, host } = view;
  document.title = `guts — ${club.name}`;
  $("club-name").textContent = club.name;
  $("who").textContent = host
    ? `You host this club: ${members.length} member${members.length === 1 ? "" : "s"}, ${view.tables} table${view.tables === 1 ? "" : "s"}.`
    : `You are ${members[0].name} here.`;
  $("status").textContent = members.length ? "" : "No member yet: players become members by sitting at the club's tables.";
  $("members-title").textContent = host ? "Members" : "Your record";
  renderMembers(members, host);
  renderNights(host ? null : members[0]);
  $("elsewhere").hidden = !host;
  if (host) $("host-link").value = `${location.origin}/c/${club.id}#host=${hostSecret(clubId)}`;
  renderNetPlot(members);
  renderGames(members, host);
  renderMerge(members, host);
}

function renderMembers(members, host) {
  const body = $("members").querySelector("tbody");
  body.replaceChildren();
  members.forEach((member, index) => {
    const net = el("td", { class: `num ${member.net >= 0 ? "up" : "down"}`, text: signed(member.net) });
    const name = el("td", {}, el("span", { class: "swatch", style: `background:${COLORS[index % COLORS.length]}` }), member.name);
    const row = el("tr", { "data-member": member.id }, name,
      el("td", { class: "num", text: String(member.nights.length) }), net);
    if (host) {
      row.append(el("td", { class: "num", text: String(member.devices ?? "") }),
        el("td", {}, el("button", { type: "button", class: "code-button", text: "Code for a new device",
          onclick: () => issueCode(member) }), " ",
        el("button", { type: "button", class: "rename-button", text: "Rename", onclick: () => rename(member) })));
    }
    body.append(row);
  });
  $("members-box").hidden = members.length === 0;
}

/** A member's own nights, newest first. */
function renderNights(member) {
  const body = $("nights").querySelector("tbody");
  body.replaceChildren();
  $("nights-box").hidden = !member || member.nights.length === 0;
  if (!member) return;
  for (const night of [...member.nights].reverse()) {
    body.append(el("tr", {}, el("td", { text: day(night.when) }), el("td", { text: night.preset }),
      el("td", { text: night.nickname }),
      el("td", { class: `num ${night.net >= 0 ? "up" : "down"}`, text: signed(night.net),
        title: `${signed(night.running)} after this night` })));
  }
}

// -- plots ----------------------------------------------------------------------------------

/** Each member's running net after each of the club's nights (a line per member). */
function renderNetPlot(members) {
  const when = [...new Set(members.flatMap((m) => m.nights.map((n) => n.when)))].sort();
  const box = $("net-plot");
  box.replaceChildren();
  $("net-legend").replaceChildren();
  if (when.length === 0) { $("plot-box").hidden = true; return; }
  $("plot-box").hidden = false;
  const width = plotWidth(box), height = Math.round(Math.min(280, Math.max(200, width * 0.45)));
  const left = 44, right = 16, top = 14, bottom = 34;
  const series = members.map((member) => {
    let total = 0;
    const at = new Map(member.nights.map((n) => [n.when, n.running]));
    const points = [];
    when.forEach((moment, index) => {
      if (at.has(moment)) { total = at.get(moment); points.push([index, total]); }
    });
    return { member, points, total };
  });
  const values = series.flatMap((s) => s.points.map((p) => p[1])).concat([0]);
  let low = Math.min(...values), high = Math.max(...values);
  if (low === high) { low -= 1; high += 1; }
  const x = (i) => left + (when.length === 1 ? (width - left - right) / 2 : (i * (width - left - right)) / (when.length - 1));
  const y = (v) => top + ((high - v) * (height - top - bottom)) / (high - low);
  const plot = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": "each member's net after each night" });
  plot.append(svg("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), stroke: "#888", "stroke-dasharray": "4 3" }));
  for (const value of new Set([high, 0, low])) {
    plot.append(svg("text", { x: left - 6, y: y(value) + 4, "text-anchor": "end", "font-size": 12, fill: "#444" }, signed(Math.round(value))));
  }
  const step = Math.max(1, Math.ceil(when.length / Math.max(2, Math.floor(width / 90))));
  let shown = "";
  when.forEach((moment, index) => {
    const label = day(moment);
    if ((index % step && index !== when.length - 1) || label === shown) return;
    shown = label;
    const anchor = when.length === 1 ? "middle" : index === 0 ? "start" : index === when.length - 1 ? "end" : "middle";
    plot.append(svg("text", { x: x(index), y: height - 12, "text-anchor": anchor, "font-size": 12, fill: "#444" }, label));
  });
  series.forEach(({ member, points }, index) => {
    const color = COLORS[index % COLORS.length];
    if (points.length > 1) {
      plot.append(svg("polyline", { points: points.map(([i, v]) => `${x(i)},${y(v)}`).join(" "),
        fill: "none", stroke: color, "stroke-width": 2.5, "stroke-linejoin": "round" }));
    }
    for (const [i, v] of points) {
      const dot = svg("circle", { cx: x(i), cy: y(v), r: 4, fill: color, class: "night-dot" });
      dot.append(svg("title", {}, `${member.name}: ${signed(v)} after ${when[i].slice(0, 10)}`));
      plot.append(dot);
    }
    $("net-legend").append(el("span", {}, el("span", { class: "swatch", style: `background:${color}` }),
      `${member.name} ${signed(member.net)}`));
  });
  box.append(plot);
}

/** The plot's width in its box's CSS pixels (so that its text reads at its own size). */
function plotWidth(box) {
  return Math.round(Math.max(280, Math.min(900, box.clientWidth || 640)));
}

/** A night's day, short ("Dec 4"). */
function day(moment) {
  return new Date(moment).toLocaleDateString([], { month: "short", day: "numeric" });
}

/** The per-game table: for each family, each member's counts. */
function renderGames(members, host) {
  const games = $("games");
  games.replaceChildren();
  const families = new Map();
  for (const member of members) {
    for (const family of member.families) {
      if (!families.has(family.family)) families.set(family.family, { name: family.name, rows: [] });
      families.get(family.family).rows.push([member, family]);
    }
  }
  $("games-box").hidden = families.size === 0;
  for (const [key, { name, rows }] of families) {
    const guts = key === "guts" || key === "staged";
    const draw = key === "draw";
    const heads = [...(host ? ["Member"] : []), "Deals", ...(guts ? ["In"] : []), ...(draw ? ["Showdowns won"] : []), "Biggest pot", "Net"];
    const table = el("table", { class: "family", "data-family": key },
      el("caption", { text: name }),
      el("thead", {}, el("tr", {}, ...heads.map((h, i) => el("th", { scope: "col", class: i || !host ? "num" : "", text: h })))));
    const body = el("tbody");
    for (const [member, family] of rows) {
      const cells = [...(host ? [member.name] : []), String(family.deals)];
      if (guts) cells.push(`${percent(family.in, family.declared)} (${family.in}/${family.declared})`);
      if (draw) cells.push(`${family.showdowns_won}/${family.showdowns}`);
      cells.push(String(family.biggest_pot), signed(family.net));
      body.append(el("tr", {}, ...cells.map((c, i) => el("td", { class: i || !host ? "num" : "", text: c }))));
    }
    table.append(body);
    games.append(el("div", { class: "scroll" }, table));
  }
  const choices = members.filter((m) => m.families.some((f) => f.by_position.length));
  $("positions-title").hidden = choices.length === 0;
  $("positions-plot").parentElement.hidden = choices.length === 0;
  const select = $("positions-member");
  const chosen = select.value;
  select.replaceChildren(...choices.map((m) => el("option", { value: m.id, text: m.name })));
  if (choices.some((m) => m.id === chosen)) select.value = chosen;
  renderPositions();
}

/** Bars: how often the chosen member went in, by seat after the dealer (Guts families). */
function renderPositions() {
  const box = $("positions-plot");
  box.replaceChildren();
  if (!view) return;
  const member = view.members.find((m) => m.id === $("positions-member").value) || view.members[0];
  if (!member) return;
  const counts = new Map();
  for (const family of member.families) {
    for (const [position, declared, went] of family.by_position) {
      const [d, w] = counts.get(position) || [0, 0];
      counts.set(position, [d + declared, w + went]);
    }
  }
  const positions = [...counts.keys()].sort((a, b) => (a === 0) - (b === 0) || a - b);
  if (positions.length === 0) return;
  const width = plotWidth(box), height = 200, left = 40, bottom = 30, top = 18;
  const slot = (width - left) / positions.length;
  const plot = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `how often ${member.name} went in, by seat after the dealer` });
  for (const value of [0, 50, 100]) {
    const yy = top + ((100 - value) * (height - top - bottom)) / 100;
    plot.append(svg("line", { x1: left, x2: width, y1: yy, y2: yy, stroke: "#ddd" }));
    plot.append(svg("text", { x: left - 6, y: yy + 4, "text-anchor": "end", "font-size": 12, fill: "#444" }, `${value}%`));
  }
  positions.forEach((position, index) => {
    const [declared, went] = counts.get(position);
    const share = declared ? went / declared : 0;
    const barHeight = share * (height - top - bottom);
    const x0 = left + index * slot + slot * 0.2;
    const bar = svg("rect", { x: x0, y: height - bottom - barHeight, width: slot * 0.6, height: Math.max(barHeight, 1), fill: "#17603a", class: "position-bar" });
    bar.append(svg("title", {}, `${went} in of ${declared}`));
    plot.append(bar);
    plot.append(svg("text", { x: x0 + slot * 0.3, y: height - bottom - barHeight - 4, "text-anchor": "middle", "font-size": 12, fill: "#1d1d1d" }, percent(went, declared)));
    plot.append(svg("text", { x: x0 + slot * 0.3, y: height - 14, "text-anchor": "middle", "font-size": 12, fill: "#444" }, position === 0 ? "dealer" : `${position}`));
  });
  box.append(plot);
}

function renderMerge(members, host) {
  $("merge-box").hidden = !host || members.length < 2;
  for (const id of ["merge-keep", "merge-gone"]) {
    $(id).replaceChildren(...members.map((m) => el("option", { value: m.id, text: `${m.name} (${m.nights.length} nights)` })));
  }
  if (members.length > 1) $("merge-gone").value = members[1].id;
}

// -- the host's actions ---------------------------------------------------------------------

async function hostPost(path, body) {
  const answer = await api(`/api/clubs/${encodeURIComponent(clubId)}/${path}`, {
    method: "POST", headers: { "content-type": "application/json", ...bearer(hostSecret(clubId)) },
    body: JSON.stringify(body),
  });
  $("problem").textContent = answer.ok ? "" : answer.body.message || "That did not work.";
  return answer;
}

async function issueCode(member) {
  const answer = await hostPost("codes", { member_id: member.id });
  if (!answer.ok) return;
  const until = new Date(answer.body.expires).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  $("code-line").replaceChildren(`Code for ${member.name}'s new device: `,
    el("b", { class: "code", text: answer.body.code }),
    ` — they type it on this club's page (${location.origin}/c/${clubId}); good once, until ${until}.`);
  $("code-line").hidden = false;
}

async function rename(member) {
  const name = window.prompt(`A new name for ${member.name}`, member.name);
  if (!name) return;
  if ((await hostPost("rename", { member_id: member.id, name })).ok) await load();
}

async function merge(event) {
  event.preventDefault();
  const keep = $("merge-keep").value, gone = $("merge-gone").value;
  if (keep === gone) { $("problem").textContent = "Pick two different members."; return; }
  if ((await hostPost("merge", { keep, gone })).ok) await load();
}

async function download(kind) {
  const secret = hostSecret(clubId);
  const path = secret
    ? `/api/clubs/${encodeURIComponent(clubId)}/export?kind=${kind}`
    : `/api/clubs/${encodeURIComponent(clubId)}/me?format=csv`;
  const response = await fetch(path, { headers: bearer(secret || deviceKey()) });
  if (!response.ok) { $("problem").textContent = "That could not be downloaded."; return; }
  const link = el("a", { href: URL.createObjectURL(await response.blob()),
    download: secret ? `guts-club-${kind}.csv` : "guts-club-my-nights.csv" });
  document.body.append(link);
  link.click();
  link.remove();
}

// -- a member's claim -----------------------------------------------------------------------

async function claim(event) {
  event.preventDefault();
  const answer = await api(`/api/clubs/${encodeURIComponent(clubId)}/claim`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ code: $("code").value, device: deviceKey() }),
  });
  if (!answer.ok) { $("problem").textContent = answer.body.message || "That code did not work."; return; }
  $("problem").textContent = "";
  $("code").value = "";
  await load();
  $("status").textContent = `This device is ${answer.body.member.name} at ${answer.body.club_name} from now on.`;
}

$("claim").addEventListener("submit", claim);
$("merge").addEventListener("submit", merge);
$("csv-members").addEventListener("click", () => download("members"));
$("csv-nights").addEventListener("click", () => download("nights"));
$("positions-member").addEventListener("change", renderPositions);
if (!hostSecret(clubId)) $("csv-nights").hidden = true;  // a member's CSV is their nights
load();
