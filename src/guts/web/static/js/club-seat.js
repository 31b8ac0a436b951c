// At a table: once this browser holds a seat, tell the server which device holds it, so
// the seat counts for this device's member when the table counts for a club; then link
// the club's page in the header.
import { deviceKey } from "./club-keys.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const done = `guts:club-seat:${tableId}`;

async function link() {
  const token = localStorage.getItem(`guts:token:${tableId}`);
  if (!token || localStorage.getItem(done) === token) return;
  const answer = await fetch(`/api/tables/${encodeURIComponent(tableId)}/club`, {
    method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ device: deviceKey() }) });
  if (answer.status === 403) return;  // no seat yet: asked again later
  localStorage.setItem(done, token);
  if (!answer.ok) return;  // a table of no club
  const body = await answer.json();
  localStorage.setItem(`guts:club:${tableId}`, JSON.stringify({ id: body.club_id, name: body.club_name }));
  show(body.club_id, body.club_name);
}

function show(clubId, name) {
  if (document.getElementById("club-link")) return;
  const anchor = document.createElement("a");
  anchor.id = "club-link";
  anchor.href = `/c/${encodeURIComponent(clubId)}`;
  anchor.textContent = "Club";  // short: a phone's header is narrow
  anchor.title = `${name}: the club's page (your nights and stats)`;
  anchor.setAttribute("style", "color: var(--accent); text-decoration: none; font-size: 0.85em;");
  const top = document.querySelector(".top");
  (top || document.body).append(anchor);
}

const known = localStorage.getItem(`guts:club:${tableId}`);
if (known) {
  try { const club = JSON.parse(known); show(club.id, club.name); } catch (error) { /* asked again */ }
}
link();
setInterval(link, 3000);
