// What the table shows, read from the engine's view of the seat (the `game` of a
// snapshot or an event frame). Each family's view names its parts its own way; these
// readers only pick the fields out (no rule is worked out here). How a family's seats are
// drawn comes from the server (`/api/families.js`: each family's PageView), so no family
// is named here.

import { FAMILIES } from "/api/families.js";

function at(mapping, seat) {
  if (!mapping) return undefined;
  return mapping[String(seat)] ?? mapping[seat];
}

function cardsOf(record) {
  if (Array.isArray(record)) return { cards: record, description: "" };
  if (record && Array.isArray(record.cards)) {
    return { cards: record.cards, description: record.description || "" };
  }
  return null;
}

/** The last showing of each seat in a list of `{seat, cards, description}` records. */
function lastShown(records) {
  const shown = {};
  for (const record of records || []) shown[record.seat] = cardsOf(record);
  return shown;
}

/** Each seat's showing: in a staged game only the current stage's (`earlier`: the last
 * showing of any stage, which the seat tells in words). */
function showings(view, earlier = false) {
  if (Array.isArray(view.shown)) {
    const size = view.stage && !earlier ? view.stage.size : null;
    return lastShown(view.shown.filter((record) => size === null || record.cards.length === size));
  }
  const shown = {};
  for (const [seat, record] of Object.entries(view.shown || {})) shown[seat] = cardsOf(record);
  return shown;
}

/** Where each kind of view says how many cards a seat holds (null: it does not say). */
const FACE_DOWN = {
  hand(view) { return view.hand ? view.hand.length : null; },
  stage(view) { return view.stage ? view.stage.size : null; },
  "hand-sizes"(view, seat) { return at(view.hand_sizes, seat) ?? null; },
};

const DEFAULT_PAGE = { face_down: "hand", cards: 2, out_hides: false };

/** How the page draws the seats of `family` (its PageView). */
export function pageOf(family) {
  return FAMILIES[family] || DEFAULT_PAGE;
}

function status(view, seat) {
  if (view.game === "night") return view.night && view.night.chooser === seat ? "choosing the game" : "";
  const dealt = (view.dealt_in || []).includes(seat);
  if (!dealt) return "sitting out";
  if ((view.folded || []).includes(seat)) return "folded";
  const intent = at(view.intents, seat);
  if (intent) return intent === "fold" ? "folded" : "playing";
  const declared = at(view.declared, seat);
  if (declared) return declared;
  return "";
}

function notes(view, seat, proofs) {
  const parts = [];
  const proof = proofs[seat];
  if (proof) parts.push(proof.proved ? "proved openers" : "could not prove openers: dead hand");
  if (view.points) {
    const word = view.word || "point";
    const count = view.points[seat] || 0;
    if (count) parts.push(`${count} ${word}${count === 1 ? "" : "s"}`);
  }
  const tricks = at(view.tricks_won, seat);
  if (tricks !== undefined && (view.playing || []).includes(seat)) {
    parts.push(`${tricks} trick${tricks === 1 ? "" : "s"}`);
  }
  const bet = at(view.bets, seat);
  if (bet) parts.push(`bet ${bet}`);
  if (view.opener === seat) parts.push("opener");
  const drawn = at(view.drawn, seat);
  if (drawn !== undefined) parts.push(drawn ? `drew ${drawn}` : "stood pat");
  if ((view.bourre || []).includes(seat)) parts.push("bourré");
  return parts;
}

/** The seat's cards as shown: face-up codes, and null for each face-down card. */
function seatCards(view, seat, shown, family) {
  if (shown[seat]) return shown[seat];
  if (seat === view.seat && view.hand) return { cards: view.hand, description: "" };
  if (!(view.dealt_in || []).includes(seat)) return { cards: [], description: "" };
  const gone = status(view, seat);
  const page = pageOf(family);
  if (gone === "folded" || (gone === "out" && page.out_hides)) {
    return { cards: [], description: "" };
  }
  const up = at(view.face_up, seat) || [];
  const count = (FACE_DOWN[page.face_down] || FACE_DOWN.hand)(view, seat) ?? page.cards;
  const down = Math.max(0, count - up.length);
  return { cards: [...up, ...Array(down).fill(null)], description: "" };
}

function same(one, other) {
  return one.length === other.length && one.every((card, index) => card === other[index]);
}

/** The seats as the table shows them (``proofs``: the openers shown by seat in this deal). */
export function seatsOf(view, chose, proofs = {}, described = {}) {
  const family = view.game;
  const shown = showings(view);
  const before = showings(view, true);
  const dealer = view.dealer ?? view.button;
  return (view.players || []).map((name, seat) => {
    const held = seatCards(view, seat, shown, family);
    const told = described[seat];
    if (shown[seat] && !held.description && told && same(told.cards, held.cards)) held.description = told.description;
    const earlier = !shown[seat] && before[seat] ? before[seat] : null;
    return {
      seat,
      name,
      stack: (view.stacks || [])[seat],
      dealer: seat === dealer,
      toAct: (view.to_act || []).includes(seat),
      chose: chose.has(seat),
      you: seat === view.seat,
      status: status(view, seat),
      cards: held.cards,
      description: held.description,
      earlier,
      notes: notes(view, seat, proofs),
    };
  });
}

const OPENERS = { jacks: "jacks or better", queens: "queens or better", kings: "kings or better",
  aces: "aces or better" };

/** The words for an opening requirement: "jacks or better". */
export function openersText(requirement) {
  return OPENERS[requirement] || requirement;
}

/** The middle of the table: pot, reserve, community cards, trick, trump, stage. */
export function centreOf(view) {
  const centre = { pot: view.pot ?? 0, lines: [], cards: [], trick: [] };
  if (view.reserve) centre.lines.push(`Reserve ${view.reserve}`);
  if (view.aside) centre.lines.push(`Aside ${view.aside}`);
  if (view.community && view.community.length) centre.cards = view.community;
  if (view.widow) centre.cards = [view.widow];
  if (view.offer && view.offer.up) centre.cards = [view.offer.up];
  if (view.trump) {
    centre.trump = { suit: view.trump, card: view.trump_card };
  }
  if (view.stage) {
    centre.stage = view.stage.label;
    centre.wild = view.stage.wild || [];
  }
  if (view.target && view.word) centre.lines.push(`First to ${view.target} ${view.word}s`);
  if (view.trick) centre.trick = view.trick.map(([seat, card]) => ({ seat, card }));
  if (view.stock !== undefined) centre.lines.push(`Stock ${view.stock}`);
  if (view.current_bet) centre.lines.push(`Current bet ${view.current_bet}`);
  if (view.openers && view.openers !== "any") {
    const opener = (view.players || [])[view.opener];
    centre.lines.push(opener ? `Opened by ${opener}` : `Openers: ${openersText(view.openers)}`);
  }
  if (view.deal) centre.lines.push(`Deal ${view.deal}`);
  if (view.over) centre.lines.push(view.over);
  return centre;
}

/** Each game's name in the catalog ({title, base}: a variation's own name and its game's),
 * filled in by the page once it has read ``/api/games``. */
export const titles = {};

/** A game's name as people say it ("Fan Tan", "Bourré: Cinch"); its catalog name until
 * the catalog is loaded. */
export function gameTitle(name) {
  const known = titles[name];
  if (!known) return name;
  return known.base ? `${gameTitle(known.base)}: ${known.title}` : known.title;
}

/** A night of dealer's choice as the table shows it, or null: the game being played (or
 * the one being chosen), who chooses, and the games played so far. */
export function nightOf(view) {
  const night = view && view.night;
  if (!night) return null;
  const names = view.players || [];
  const playing = night.playing;
  const dealt = (night.played || []).filter((game) => game.deals > 0).length;
  const line = night.over ? `The night is over after ${dealt} game${dealt === 1 ? "" : "s"}` : playing
    ? `Game ${night.number}: ${gameTitle(playing)}`
    : (night.chooser !== null && night.chooser !== undefined
      ? `${names[night.chooser] || "The chooser"} chooses game ${night.number + 1}`
      : `Game ${night.number + 1} next`);
  return { line, playing, chooser: night.chooser, games: night.games, played: night.played || [],
    over: night.over };
}

/** True when the view is a night's, between games (its decision is the choice of game). */
export function choosingGame(view) {
  return Boolean(view && view.game === "night");
}

/** The seat's own pending decision in the view, or null. */
export function decisionOf(view) {
  return (view && view.pending && view.pending[0]) || null;
}
