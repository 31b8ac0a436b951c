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
  return entry.name === "games" && $("game").value === NIGHT ? [row, gamePicker(input)] : [row];
}

/** The night's games as entries of its text: [name, "name options..."] in order. */
function entriesOf(text) {
  return text.split(",").map((part) => part.trim()).filter(Boolean)
    .map((part) => [part.split(/\s+/)[0], part]);
}

/** A box per game of the catalog for a night's `games` option: ticking one adds it to the
 * text (which keeps any house options typed after a game's name), unticking removes it. */
function gamePicker(input) {
  const box = document.createElement("fieldset");
  box.className = "game-picker";
  box.id = "game-picker";
  const legend = document.createElement("legend");
  legend.textContent = "Games the chooser may name";
  box.append(legend);
  const ticked = () => new Set(entriesOf(input.value).map(([name]) => name));
  for (const game of catalog.filter((entry) => entry.name !== NIGHT)) {
    const tick = document.createElement("input");
    tick.type = "checkbox";
    tick.value = game.name;
    tick.id = `pick-${game.name}`;
    tick.checked = ticked().has(game.name);
    tick.addEventListener("change", () => {
      const entries = entriesOf(input.value).filter(([name]) => name !== game.name);
      if (tick.checked) entries.push([game.name, game.name]);
      input.value = entries.map(([, text]) => text).join(",");
      checkOptions();
    });
    const label = document.createElement("label");
    label.htmlFor = tick.id;
    label.title = game.summary;
    label.append(tick, ` ${game.name}`);
    box.append(label);
  }
  input.addEventListener("input", () => {
    const names = ticked();
    for (const tick of box.querySelectorAll("input[type=checkbox]")) tick.checked = names.has(tick.value);
  });
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
  box.querySelector("legend").textContent = `Options of ${game.name}`;
  $("options-title").textContent = `House rules: ${schema.length} options, set to ${game.name}'s`;
  for (const entry of schema) box.append(...control(entry));
  if (name === NIGHT) {  // a night is its options: show them at once
    box.hidden = false;
    $("options-title").setAttribute("aria-expanded", "true");
  }
  $("problem").textContent = "";
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
  const groups = {};
  for (const game of games) {
    if (!groups[game.family]) {
      groups[game.family] = document.createElement("optgroup");
      groups[game.family].label = game.family;
      $("game").append(groups[game.family]);
    }
    groups[game.family].append(option(game.name, game.name, game.name === "two-card-guts"));
  }
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
