// The lobby: pick a game from the catalog, read its rules, set its options through a
// form made from their schema, set the stakes and open the table.

const $ = (id) => document.getElementById(id);
let schema = [];
let catalog = [];
const NIGHT = "dealers-choice";

function option(value, label, selected) {
  const element = document.createElement("option");
  element.value = value;
  element.textContent = label;
  element.selected = selected;
  return element;
}

function control(entry) {
  const id = `option-${entry.name}`;
  let input;
  if (entry.type === "bool" || entry.type === "choice") {
    input = document.createElement("select");
    const values = entry.type === "bool" ? ["yes", "no"] : entry.allowed;
    for (const value of values) input.append(option(value, value, value === entry.default));
    if (entry.optional) input.append(option("none", entry.type === "bool" ? "auto" : "none", entry.default === "none"));
  } else {
    input = document.createElement("input");
    input.type = "text";
    if (entry.type === "int") {
      input.inputMode = "numeric";
      input.pattern = entry.optional ? "-?[0-9]+|none" : "-?[0-9]+";
    }
    input.value = entry.default;
  }
  input.id = id;
  input.name = entry.name;
  input.dataset.default = entry.default;
  input.addEventListener("change", checkOptions);
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = entry.name;
  const doc = document.createElement("span");
  doc.className = "doc";
  doc.textContent = entry.doc;
  const row = document.createElement("div");
  row.className = "option";
  row.append(label, input, doc);
  if (entry.name === "games" && $("game").value === NIGHT) {
    const text = el("details", { class: "games-text" },
      el("summary", { text: "The list as text (to add a game's house options: bourre ante=2)" }), row);
    return [gamePicker(input), text];
  }
  return [row];
}

function el(tag, attributes = {}, ...children) {
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

/** "2 to 6 players", "2 or more players". */
function playersText(game) {
  if (!game.players) return "";
  const [fewest, most] = game.players;
  return most === null ? `${fewest} or more players` : `${fewest} to ${most} players`;
}

/** Whether ``game`` deals to ``count`` players (true when the count is unknown). */
function fits(game, count) {
  if (!count || !game.players) return true;
  const [fewest, most] = game.players;
  return count >= fewest && (most === null || count <= most);
}

/** The catalog grouped for the lobby: the common games, then each family's other games,
 * each game followed by its house-rule variations. */
function grouped() {
  const variations = {};
  for (const game of catalog) {
    if (game.variation_of) (variations[game.variation_of] ||= []).push(game);
  }
  const families = [];
  for (const game of catalog) {
    if (game.variation_of || game.common) continue;
    let family = families.find((entry) => entry.family === game.family);
    if (!family) families.push(family = { family: game.family, title: game.family_title, games: [] });
    family.games.push(game);
  }
  return { common: catalog.filter((game) => game.common), families, variations };
}

function gameCard(game, small) {
  return el("button", { type: "button", class: "game-card" + (small ? " variation" : ""), "data-game": game.name,
    "aria-pressed": String($("game").value === game.name), onclick: () => choose(game.name) },
  el("span", { class: "game-title", text: game.title }),
  el("span", { class: "game-line", text: game.summary }),
  small ? null : el("span", { class: "game-players", text: playersText(game) }));
}

function variationsOf(game, variations) {
  const list = variations[game.name] || [];
  if (!list.length) return null;
  return el("div", { class: "variations" },
    el("span", { class: "variations-title", text: `House rules of ${game.title}:` }),
    ...list.map((variation) => gameCard(variation, true)));
}

/** The games by family: the common ones first, each with its house-rule variations. */
function renderGameList() {
  const { common, families, variations } = grouped();
  const box = $("game-list");
  box.replaceChildren(
    el("h3", { text: "Common games" }),
    el("div", { class: "game-cards" }, ...common.map((game) => gameCard(game))),
    el("details", { class: "common-rules" }, el("summary", { text: "House-rule variations of the common games" }),
      ...common.map((game) => variationsOf(game, variations))),
    el("h3", { text: "More games" }),
    ...families.map((family) => el("details", { class: "family", "data-family": family.family },
      el("summary", { text: `${family.title}: ${family.games.map((game) => game.title).join(", ")}` }),
      el("div", { class: "game-cards" }, ...family.games.map((game) => gameCard(game))),
      ...family.games.map((game) => variationsOf(game, variations)))));
}

async function choose(name) {
  $("game").value = name;
  await showGame();
}

function markChosen() {
  const name = $("game").value;
  for (const card of document.querySelectorAll(".game-card")) {
    card.setAttribute("aria-pressed", String(card.dataset.game === name));
  }
  const game = catalog.find((entry) => entry.name === name);
  $("chosen-title").textContent = game ? game.title : name;
  const chosen = document.querySelector(`.game-card[data-game="${name}"]`);
  const family = chosen && chosen.closest("details");
  if (family) family.open = true;
}

/** The night's games as entries of its text: [name, "name options..."] in order. */
function entriesOf(text) {
  return text.split(",").map((part) => part.trim()).filter(Boolean)
    .map((part) => [part.split(/\s+/)[0], part]);
}

/** A box per game of the catalog for a night's `games` option, by family, each game with
 * its variations: ticking one adds it to the text (which keeps any house options typed
 * after a game's name), unticking removes it. A game that does not deal to the night's
 * number of players cannot be ticked, and says why. */
function gamePicker(input) {
  const box = el("fieldset", { class: "game-picker", id: "game-picker" },
    el("legend", { text: "Games the chooser may name" }));
  const count = el("input", { type: "number", id: "night-players", min: 2, max: 32, value: 4 });
  const why = el("p", { id: "picker-why", class: "hint", role: "status" });
  const warning = el("p", { id: "night-warning", class: "error", role: "alert" });
  box.append(el("p", { class: "night-players" }, el("label", { for: "night-players", text: "Players tonight " }), count,
    " (the games that do not deal to as many cannot be picked)"), why, warning);
  const ticked = () => new Set(entriesOf(input.value).map(([name]) => name));
  const tick = (game) => {
    const box = el("input", { type: "checkbox", value: game.name, id: `pick-${game.name}` });
    box.checked = ticked().has(game.name);
    box.addEventListener("change", () => {
      const entries = entriesOf(input.value).filter(([name]) => name !== game.name);
      if (box.checked) entries.push([game.name, game.name]);
      input.value = entries.map(([, text]) => text).join(",");
      checkOptions();
    });
    return el("label", { for: box.id, title: game.summary, class: game.variation_of ? "pick variation" : "pick" },
      box, ` ${game.title}`, el("span", { class: "pick-why" }));
  };
  const games = catalog.filter((entry) => entry.name !== NIGHT);
  const families = [...new Set(games.map((game) => game.family))];
  for (const family of families) {
    const inFamily = games.filter((game) => game.family === family);
    const group = el("div", { class: "pick-family" }, el("h4", { text: inFamily[0].family_title }));
    for (const game of inFamily.filter((entry) => !entry.variation_of)) {
      const own = inFamily.filter((entry) => entry.variation_of === game.name);
      group.append(el("div", { class: "pick-game" }, tick(game),
        own.length ? el("span", { class: "pick-rules", text: "house rules:" }) : null, ...own.map(tick)));
    }
    box.append(group);
  }
  const fitting = () => {
    const players = Number(count.value) || 0;
    const dropped = [];
    for (const game of games) {
      const check = box.querySelector(`#pick-${CSS.escape(game.name)}`);
      const ok = fits(game, players);
      check.disabled = !ok;
      check.closest("label").classList.toggle("unfit", !ok);
      check.closest("label").querySelector(".pick-why").textContent = ok ? "" : ` (${playersText(game)})`;
      if (!ok && check.checked) {
        check.checked = false;
        check.dispatchEvent(new Event("change"));
        dropped.push(game.title);
      }
    }
    const unfit = games.filter((game) => !fits(game, players)).map((game) => `${game.title} (${playersText(game)})`);
    why.textContent = (dropped.length ? `Taken off the list: ${dropped.join(", ")}. ` : "") +
      (unfit.length ? `Not for ${players} players: ${unfit.join(", ")}.` : "");
  };
  /** The dealer of a game's first deal chooses it: when the deal continues from game to
   * game, a cap of deals that is a multiple of the players brings the button back to the
   * same seat after every capped game. */
  const sameChooser = () => {
    const chooser = $("option-chooser");
    const deal = $("option-deal-after-game");
    const cap = Number($("option-cap") && $("option-cap").value);
    const players = Number(count.value) || 0;
    const stuck = chooser && chooser.value === "dealer" && deal && deal.value === "continues" &&
      Number.isInteger(cap) && cap > 0 && players >= 2 && cap % players === 0;
    warning.textContent = stuck
      ? `With chooser dealer, the deal continuing and a cap of ${cap} deals for ${players} ` +
        "players, the deal comes back to the same player after every capped game: they would " +
        "choose every game. Let the deal pass after a game, pick chooser next, or a cap that " +
        "is not a multiple of the players."
      : "";
  };
  count.addEventListener("input", sameChooser);
  box.addEventListener("change", sameChooser);
  queueMicrotask(() => {
    for (const id of ["option-chooser", "option-cap", "option-deal-after-game"]) {
      const input = $(id);
      if (input) for (const kind of ["input", "change"]) input.addEventListener(kind, sameChooser);
    }
    sameChooser();
  });
  count.addEventListener("input", fitting);
  input.addEventListener("input", () => {
    const names = ticked();
    for (const check of box.querySelectorAll("input[type=checkbox]")) check.checked = names.has(check.value);
  });
  queueMicrotask(fitting);
  return box;
}

function chosenOptions() {
  const options = {};
  for (const entry of schema) {
    const input = $(`option-${entry.name}`);
    if (input && input.value.trim() !== input.dataset.default) options[entry.name] = input.value.trim();
  }
  return options;
}

async function showGame() {
  const name = $("game").value;
  const response = await fetch(`/api/games/${encodeURIComponent(name)}`);
  const game = await response.json();
  $("summary").textContent = game.summary;
  $("rules").textContent = game.rules;
  schema = game.options;
  const box = $("options");
  box.replaceChildren(box.querySelector("legend") || document.createElement("legend"));
  const title = (catalog.find((entry) => entry.name === game.name) || { title: game.name }).title;
  box.querySelector("legend").textContent = `Options of ${title}`;
  $("options-title").textContent = `House rules: ${schema.length} options, set to ${title}'s`;
  for (const entry of schema) box.append(...control(entry));
  if (name === NIGHT) {  // a night is its options: show them at once
    box.hidden = false;
    $("options-title").setAttribute("aria-expanded", "true");
  }
  $("problem").textContent = "";
  markChosen();
  $("summary").dataset.game = game.name;
}

async function checkOptions() {
  const query = new URLSearchParams(chosenOptions()).toString();
  const response = await fetch(`/api/games/${encodeURIComponent($("game").value)}?${query}`);
  const answer = await response.json();
  if (response.ok) {
    $("rules").textContent = answer.rules;
    $("problem").textContent = "";
  } else {
    $("problem").textContent = answer.message;
  }
}

async function openTable(submitted) {
  submitted.preventDefault();
  $("problem").textContent = "";
  const body = {
    preset: $("game").value,
    options: chosenOptions(),
    buy_in: Number($("buy-in").value),
    auto_approve: $("auto-approve").checked,
    clock: Number($("clock").value),
    time_bank: Number($("time-bank").value),
  };
  const response = await fetch("/api/tables", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) {
    $("problem").textContent = answer.message;
    return;
  }
  $("join-link").value = answer.join_url;
  $("host-link").href = answer.host_url;
  $("created").hidden = false;
  $("created").scrollIntoView();
}

async function copyLink() {
  try {
    await navigator.clipboard.writeText($("join-link").value);
    $("copy").textContent = "Copied";
  } catch (error) {
    $("join-link").select();
  }
}

async function setUp() {
  const response = await fetch("/api/games");
  const { games } = await response.json();
  catalog = games;
  for (const game of games) $("game").append(option(game.name, game.title, game.name === "two-card-guts"));
  renderGameList();
  $("game").addEventListener("change", showGame);
  $("create").addEventListener("submit", openTable);
  $("copy").addEventListener("click", copyLink);
  $("options-title").addEventListener("click", () => {
    const open = $("options").hidden;
    $("options").hidden = !open;
    $("options-title").setAttribute("aria-expanded", String(open));
  });
  await showGame();
  document.body.dataset.ready = "yes";
}

setUp();
