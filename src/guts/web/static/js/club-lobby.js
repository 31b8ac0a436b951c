// The lobby's club line: start a club for one's regulars, or count the table being opened
// for the club this browser hosts (attached once the lobby has opened it).
import { hostedClub, keepHostedClub } from "./club-keys.js";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function render() {
  const slot = $("club-slot");
  if (!slot) return;
  const club = hostedClub();
  if (club) {
    slot.replaceChildren(el("label", {}, el("input", { type: "checkbox", id: "club-use", checked: "" }),
      " Count this table for my club ", el("b", { text: club.name })),
      " · ", el("a", { id: "club-page", href: `/c/${club.id}`, text: "the club page" }));
    return;
  }
  const name = el("input", { id: "club-name", placeholder: "Friday game", maxlength: "40", "aria-label": "the club's name" });
  const start = el("button", { type: "button", id: "club-start", text: "Start a club" });
  const problem = el("span", { class: "error", role: "alert" });
  start.addEventListener("click", async () => {
    const answer = await fetch("/api/clubs", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: name.value.trim() || "My game" }) });
    const body = await answer.json();
    if (!answer.ok) { problem.textContent = body.message; return; }
    keepHostedClub({ id: body.club_id, name: body.name, secret: body.club_secret });
    render();
  });
  slot.replaceChildren(el("span", { class: "hint", text: "Regulars? A club keeps their nights, nets and stats across tables: " }),
    name, " ", start, " ", problem);
}

/** Once a table is opened, count it for the club if asked to. */
async function attach() {
  const club = hostedClub();
  const use = $("club-use");
  if (!club || !use || !use.checked) return;
  const link = new URL($("host-link").href);
  const tableId = link.pathname.split("/")[2];
  const hostSecret = new URLSearchParams(link.hash.slice(1)).get("host");
  const answer = await fetch(`/api/clubs/${encodeURIComponent(club.id)}/tables`, {
    method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${club.secret}` },
    body: JSON.stringify({ table_id: tableId, host_secret: hostSecret }) });
  const line = $("club-counted") || el("p", { id: "club-counted", class: "hint" });
  line.textContent = answer.ok ? `This table counts for ${club.name}.` : "This table could not be counted for the club.";
  $("created").append(line);
}

render();
const created = $("created");
if (created) {
  new MutationObserver(() => { if (!created.hidden) attach(); })
    .observe(created, { attributes: true, attributeFilter: ["hidden"] });
}
