// @ts-check
// Following the game: what another player's move did to the table (the pieces that came from
// his rack, the pieces that moved to another set, a joker taken and laid again), shown for a
// few seconds and again on "Last move", with the pieces flown into place; and the alert when
// the turn comes to this player (a sound, the page's title, a vibration on phones).
import { baseOf } from "./pieces.js";

export const SHOW_MS = 4000; // how long a move stays highlighted

/** What the last move did with a piece: laid from the rack, moved from another set, a joker
 * taken from another set.
 * @typedef {"rack" | "moved" | "joker"} Mark */
/** Per set of the table, per piece: its mark, or null (it stayed where it was).
 * @typedef {(Mark | null)[][]} Marks */

/**
 * @param {string[]} pieces
 * @returns {Map<string, number>}
 */
function counts(pieces) {
  const c = new Map();
  for (const s of pieces) c.set(baseOf(s), (c.get(baseOf(s)) || 0) + 1);
  return c;
}

/**
 * @param {Map<string, number>} c
 * @param {string} k
 */
const take = (c, k) => {
  const n = c.get(k) ?? 0;
  if (!(n > 0)) return false;
  c.set(k, n - 1);
  return true;
};

// What each piece of table `after` (a list of sets of faces) is, compared with `before`: per
// set, per piece, null (it stayed where it was), "rack" (laid from the rack), "moved" (it was
// in another set) or "joker" (a joker taken from another set).
/**
 * @param {import("./types.js").Table} before
 * @param {import("./types.js").Table} after
 * @returns {Marks}
 */
export function tableMarks(before, after) {
  /** @param {import("./types.js").Meld} m */
  const key = (m) => m.map(baseOf).sort().join(" ");
  const unchanged = counts(before.map(key));
  const added = counts(after.flat());
  for (const [k, n] of counts(before.flat())) added.set(k, (added.get(k) || 0) - n);
  const same = after.map((m) => take(unchanged, key(m)));
  // the sets that changed: each keeps the pieces of the old set it shares the most with
  const consumed = counts(after.filter((_, i) => same[i]).map(key));
  const olds = before.filter((m) => !take(consumed, key(m))).map((m) => counts(m));
  return after.map((m, i) => {
    if (same[i]) return m.map(() => null);
    /** @type {Map<string, number> | null} */
    let best = null;
    let most = 0;
    for (const old of olds) {
      let n = 0;
      const c = new Map(old);
      for (const s of m) if (take(c, baseOf(s))) n++;
      if (n > most) { most = n; best = old; }
    }
    if (best) olds.splice(olds.indexOf(best), 1);
    return m.map((s) => {
      const b = baseOf(s);
      if (best && take(best, b)) return null;
      if (take(added, b)) return "rack";
      return b === "J" ? "joker" : "moved";
    });
  });
}

// Put the marks of the last move on the pieces of a turn just started (its sets are the
// server's table, in order).
/**
 * @param {import("./turn.js").Turn} turn
 * @param {Marks | null} marks
 */
export function markTurn(turn, marks) {
  if (!marks || marks.length !== turn.melds.length) return;
  turn.melds.forEach((m, i) => m.forEach((x, j) => { const k = marks[i][j]; if (k) x.mark = k; }));
}

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Fly the marked pieces of `area` into place: pieces from the rack from the mover's chip,
// pieces that moved from where they were (`before`: face -> rects of the pieces of the old
// table).
/**
 * @param {Element} area
 * @param {Element | null} from
 * @param {Map<string, DOMRect[]>} before
 */
export function flyIn(area, from, before) {
  if (reducedMotion()) return;
  const start = from ? from.getBoundingClientRect() : null;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (area.querySelectorAll(".piece.last"))) {
    const r = el.getBoundingClientRect();
    let src = null;
    if (el.classList.contains("last-rack")) src = start;
    else {
      const rects = before.get(baseOf(el.dataset.face || ""));
      if (rects && rects.length) src = rects.shift();
    }
    if (!src) continue;
    el.style.setProperty("--fx", `${Math.round(src.left + src.width / 2 - r.left - r.width / 2)}px`);
    el.style.setProperty("--fy", `${Math.round(src.top + src.height / 2 - r.top - r.height / 2)}px`);
    el.classList.add("fly");
  }
}

// Where every piece on the table is now: face -> its rects, to fly moved pieces from.
/**
 * @param {Element | null} area
 * @returns {Map<string, DOMRect[]>}
 */
export function pieceRects(area) {
  /** @type {Map<string, DOMRect[]>} */
  const out = new Map();
  if (!area) return out;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (area.querySelectorAll(".meld .piece"))) {
    const b = baseOf(el.dataset.face || "");
    const rects = out.get(b) ?? [];
    out.set(b, rects);
    rects.push(el.getBoundingClientRect());
  }
  return out;
}

// --- the turn alert ------------------------------------------------------------------------
const SOUND_KEY = "rummikub.sound";
/** @type {AudioContext | null} */
let audio = null;

export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) !== "off"; } catch { return true; }
}

/** @param {boolean} on */
export function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch { /* storage off */ }
}

// The browser lets a page make sound only after the person touched it: the audio context is
// made (or resumed) on the first press.
function unlock() {
  // Safari before 14.1 names it webkitAudioContext
  const Ctx = window.AudioContext || /** @type {{webkitAudioContext?: typeof AudioContext}} */ (window).webkitAudioContext;
  if (!Ctx) return;
  if (!audio) { try { audio = new Ctx(); } catch { return; } }
  if (audio.state === "suspended") audio.resume().catch(() => {});
}
if (typeof document !== "undefined") {
  document.addEventListener("pointerdown", unlock, { capture: true });
  document.addEventListener("keydown", unlock, { capture: true });
}

// Notes made by WebAudio (no sound file): [frequency, start, length] each, at `volume`.
/**
 * @param {[number, number, number][]} list
 * @param {number} [volume]
 * @param {OscillatorType} [type]
 */
function notes(list, volume = 0.18, type = "sine") {
  if (!soundOn()) return false;
  unlock();
  if (!audio) return false;
  const now = audio.currentTime;
  for (const [freq, at, len] of list) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(volume, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + at);
    osc.stop(now + at + len + 0.03);
  }
  return true;
}

// Your turn: two short rising notes.
export function chime() { return notes([[660, 0, 0.22], [880, 0.14, 0.22]]); }

// Another player laid tiles: a soft click, as of a tile put down.
export function clack() { return notes([[320, 0, 0.08]], 0.12, "triangle"); }

// One of the last seconds of your turn.
export function tick() { return notes([[1200, 0, 0.05]], 0.08, "square"); }

// The turn came to this player: a sound and a vibration (the title is the game view's).
export function alertTurn() {
  chime();
  if (typeof navigator.vibrate === "function") {
    try { navigator.vibrate([120, 60, 120]); } catch { /* not allowed */ }
  }
}
