// @ts-check
// Pieces: a tile of the tile game or a face of an Xpress die, read from its notation ("R7", "J",
// "J=R6") and drawn by one renderer. Every view that shows pieces (the table, racks and trays,
// the score card, the replay) draws them here.
import { t } from "./i18n.js";
import { h } from "./util.js";

export const COLOURS = "KRBOGPYW";
const NAMES = ["black", "red", "blue", "orange", "green", "purple", "yellow", "white"];

// "R7" -> {colour: 1, number: 7}; "J" / "J=R6" / "J=7" -> a joker with an optional role.
/** @typedef {import("./types.js").Face} Face */
/** @typedef {{joker: boolean, colour: number, number: number, role: string | null}} Parsed */
/** A piece to draw: its face, and a die's number (null: a tile, or a die not known).
 * @typedef {{face: Face, die?: number | null}} Piece */

/**
 * @param {Face} s
 * @returns {Parsed}
 */
export function parseFace(s) {
  if (s[0] === "J") {
    const role = s.includes("=") ? s.split("=")[1] : null;
    return { joker: true, colour: -1, number: 0, role };
  }
  return { joker: false, colour: COLOURS.indexOf(s[0]), number: Number(s.slice(1)), role: null };
}

// The piece itself, whatever a joker stands for: "J=R6" -> "J".
/** @param {Face} s */
export function baseOf(s) { return s[0] === "J" ? "J" : s; }

// 789: colour then number; 777: number then colour. Jokers last.
/**
 * @template T
 * @param {T[]} items
 * @param {string} mode "789" or "777"
 * @param {(x: T) => Face} [get] an item's face (default: the item is one)
 * @returns {T[]}
 */
export function sortFaces(items, mode, get = (x) => /** @type {Face} */ (x)) {
  /** @param {T} x */
  const key = (x) => {
    const p = parseFace(get(x));
    if (p.joker) return [99, 99];
    return mode === "777" ? [p.number, p.colour] : [p.colour, p.number];
  };
  return [...items].sort((a, b) => {
    const ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

// A piece read out in the page's language: "R7" -> "red 7", "7" (a group joker's role) -> "7".
/** @param {Face} face */
export function faceLabel(face) {
  if (/^\d+$/.test(face)) return face;
  const p = parseFace(face);
  if (p.joker) return t("piece.joker");
  return t("piece.tile", { colour: t(`piece.${NAMES[p.colour] || "black"}`), n: p.number });
}

// Points of a piece left over at the end of a round; a joker counts what the rules say.
/**
 * @param {Face} face
 * @param {number} jokerValue
 */
export function faceValue(face, jokerValue) {
  const p = parseFace(face);
  return p.joker ? jokerValue : p.number;
}

// How each kind of piece looks: a tile is a cream slab, a die a rounded cube with a face inset;
// the joker shows a mark (a face on a tile, a star on a gold die) and, in a set, its role.
/** @typedef {"tile" | "die"} PieceKind */
/** @type {Record<PieceKind, {cls: string, inset: string | null, mark: string, markCls: string, jokerLetter: boolean}>} */
const LOOKS = {
  tile: { cls: "tile", inset: null, mark: "☺", markCls: "face", jokerLetter: false },
  die: { cls: "die", inset: "die-face", mark: "★", markCls: "star", jokerLetter: true },
};

// A piece element: `kind` "tile" or "die"; `die` is a die's number (0-17), when known.
// Every piece has the class `piece` and `data-face`; a tile also `data-tile`, a die `data-die`.
/**
 * @param {Face} face
 * @param {{kind?: PieceKind, die?: number | null, small?: boolean}} [options]
 */
export function pieceEl(face, { kind = "tile", die = null, small = false } = {}) {
  const look = LOOKS[kind];
  const p = parseFace(face);
  const el = h("div", { class: `piece ${look.cls}` + (small ? " small" : ""), dataset: { face } });
  if (kind === "tile") el.dataset.tile = face;
  if (die != null) el.dataset.die = String(die);
  const body = look.inset ? h("div", { class: look.inset }) : el;
  if (p.joker) {
    el.classList.add("joker");
    body.append(h("span", { class: look.markCls, "aria-hidden": "true" }, look.mark));
    if (look.jokerLetter) body.append(h("span", { class: "letter" }, "J"));
    if (p.role) body.append(h("span", { class: "role" }, `=${p.role}`));
    el.setAttribute("aria-label", p.role ? t("piece.joker_as", { tile: faceLabel(p.role) }) : t("piece.joker"));
  } else {
    const name = NAMES[p.colour] || "black";
    el.classList.add(`c-${name}`);
    body.append(h("span", { class: "num" }, String(p.number)), h("span", { class: "letter" }, COLOURS[p.colour]));
    el.setAttribute("aria-label", faceLabel(face));
  }
  if (body !== el) el.append(body);
  return el;
}

// A row of small pieces (a rack or hand at the end of a round, in the replay): `pieces` are
// faces or {face, die}; `decorate(el, piece)` may add classes.
/**
 * @param {(Face | Piece)[]} pieces
 * @param {{kind?: PieceKind, small?: boolean, decorate?: ((el: HTMLElement, piece: Piece) => void) | null}} [options]
 */
export function groupEl(pieces, { kind = "tile", small = true, decorate = null } = {}) {
  return h("span", { class: "tiles-inline", dir: "ltr" }, pieces.map((x) => {
    const piece = typeof x === "string" ? { face: x, die: null } : x;
    const el = pieceEl(piece.face, { kind, die: piece.die, small });
    if (decorate) decorate(el, piece);
    return el;
  }));
}

// Sets written in a line, each a chip of coloured numbers (a move log's play): the pieces
// `played` (faces) are underlined, and a joker shows what it stands for.
/**
 * @param {import("./types.js").Table} sets
 * @param {Face[]} [played]
 */
export function setsLine(sets, played = []) {
  const left = [...played];
  return h("span", { class: "sets-line" }, sets.map((m) => h("span", { class: "set-chip" }, m.map((s) => {
    const k = left.indexOf(baseOf(s));
    if (k >= 0) left.splice(k, 1);
    const p = parseFace(s);
    const cls = p.joker ? "joker" : `c-${NAMES[p.colour] || "black"}`;
    return h("span", { class: `set-piece ${cls}` + (k >= 0 ? " new" : "") }, p.joker ? `☺${p.role ? `=${p.role}` : ""}` : s);
  }))));
}

// The tile each joker of a set stands for, where the set does not say (a record's table writes
// a joker "J"): "J=R6" in a run, "J=7" in a group. Numbers run 1..`top`. A set that is neither
// a run nor a group is left as it is.
/**
 * @param {import("./types.js").Meld} meld
 * @param {number} [top]
 * @returns {import("./types.js").Meld}
 */
export function withRoles(meld, top = 13) {
  if (!meld.includes("J")) return meld;
  const ps = meld.map(parseFace);
  const real = ps.filter((p) => !p.joker);
  if (!real.length) return meld;
  const colours = new Set(real.map((p) => p.colour));
  if (real.length > 1 && real.every((p) => p.number === real[0].number) && colours.size === real.length) {
    return meld.map((s) => (s === "J" ? `J=${real[0].number}` : s));
  }
  if (colours.size !== 1) return meld;
  const c = COLOURS[real[0].colour];
  // written in order: each joker takes its place's number
  const start = ps.findIndex((p) => !p.joker);
  const first = ps[start].number - start;
  if (first >= 1 && first + meld.length - 1 <= top && ps.every((p, i) => p.joker || p.number === first + i)) {
    return meld.map((s, i) => (s === "J" ? `J=${c}${first + i}` : s));
  }
  // else the jokers fill the gaps, then go on past the highest number (or before the lowest)
  const have = new Set(real.map((p) => p.number));
  const lo = Math.min(...have), hi = Math.max(...have);
  /** @type {number[]} */
  const roles = [];
  for (let n = lo; n <= hi; n++) if (!have.has(n)) roles.push(n);
  for (let n = hi + 1; roles.length < meld.length - real.length && n <= top; n++) roles.push(n);
  for (let n = lo - 1; roles.length < meld.length - real.length && n >= 1; n--) roles.push(n);
  let k = 0;
  return meld.map((s) => (s === "J" && k < roles.length ? `J=${c}${roles[k++]}` : s));
}
