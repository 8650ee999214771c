// @ts-check
// Small helpers shared by the views: building elements, toasts, navigation, saved seats.
import { localise, t } from "./i18n.js";

/** An attribute's value: false or null leave it out, true sets it empty; `dataset` takes an
 * object.
 * @typedef {string | number | boolean | null | undefined | Record<string, string | number>} AttrValue */
/** Event handlers (`onclick`...), each given its event, whose target is an element.
 * @typedef {{[K in keyof HTMLElementEventMap as `on${K}`]?: (ev: HTMLElementEventMap[K] & {target: Element}) => unknown}} Handlers */
/** @typedef {Handlers & {[name: string]: AttrValue | ((ev: never) => unknown)}} Attrs */
/** A child: an element or text; null and false are left out, arrays are flattened.
 * @typedef {Node | string | number | null | undefined | false | Child[]} Child */

/**
 * An element `tag` with attributes `attrs` (`class`, `text`, `i18n`: a catalogue key for its
 * text, `dataset`, `on<event>`: a handler, others as they are) and `children`.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    if (k === "class") el.className = String(v);
    else if (k === "text") el.textContent = String(v);
    else if (k === "i18n") { el.dataset.i18n = String(v); el.textContent = t(String(v)); }
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;
/**
 * Show `text` for a few seconds at the foot of the page.
 * @param {string} text
 * @param {"info" | "error"} [kind]
 */
export function toast(text, kind = "info") {
  const el = /** @type {HTMLElement} */ (document.getElementById("toast"));
  el.textContent = text;
  el.className = `toast ${kind}`;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 3500);
}

/** @param {string} path */
export function navigate(path) {
  history.pushState({}, "", path);
  window.dispatchEvent(new Event("rummikub:route"));
}

/** A seat taken in room `code` from this browser, and its secret token.
 * @typedef {{seat: number, token: string}} SavedSeat */

/**
 * @param {string} code
 * @returns {SavedSeat | null}
 */
export function savedSeat(code) {
  try { return JSON.parse(localStorage.getItem(`rummikub.seat.${code}`) ?? "null"); } catch { return null; }
}
/**
 * @param {string} code
 * @param {number} seat
 * @param {string} token
 */
export function saveSeat(code, seat, token) {
  localStorage.setItem(`rummikub.seat.${code}`, JSON.stringify({ seat, token }));
}
/** @param {string} code */
export function forgetSeat(code) { localStorage.removeItem(`rummikub.seat.${code}`); }

export function playerName() { return localStorage.getItem("rummikub.name") || ""; }
/** @param {string} n */
export function setPlayerName(n) { localStorage.setItem("rummikub.name", n); }

/**
 * The JSON answer of `url`, of the type the caller names (`T`); rejects with the server's
 * error body (HttpError), worded in the page's language.
 * @template T
 * @param {string} url
 * @returns {Promise<T>}
 */
export async function getJSON(url) {
  const res = await fetch(url);
  const data = await res.json();
  if (!res.ok) throw localise(data);
  return data;
}

// Send a message and wait for its reply; a refusal is shown (a lost connection is not: the
// status line says so already).
/**
 * @param {import("./net.js").Net} net
 * @param {import("./types.js").ClientMsg} msg
 * @returns {Promise<import("./types.js").ServerMsg | null>}
 */
export async function act(net, msg) {
  try {
    return await net.request(msg);
  } catch (err) {
    const refusal = /** @type {import("./types.js").Refusal} */ (err);
    if (refusal.code !== "disconnected") toast(refusal.message, "error");
    return null;
  }
}

// Run `draw`, which may replace elements of `root`; the element that had the focus, if it was
// replaced by one with the same id, passes the focus on (with a text field's text and caret).
/**
 * @param {Element} root
 * @param {() => void} draw
 */
export function keepFocus(root, draw) {
  const a = document.activeElement;
  const id = a && a !== document.body && root.contains(a) && a.id ? a.id : null;
  /** @type {[string, number | null, number | null] | null} */
  let text = null;
  try {
    if (id && a instanceof HTMLInputElement && a.selectionStart != null) text = [a.value, a.selectionStart, a.selectionEnd];
  } catch { /* no caret in this kind of input */ }
  draw();
  if (!id || root.contains(a)) return;
  const b = /** @type {HTMLElement | null} */ (root.querySelector(`#${CSS.escape(id)}`));
  if (!b) return;
  if (text && b instanceof HTMLInputElement) { b.value = text[0]; b.setSelectionRange(text[1], text[2]); }
  b.focus({ preventScroll: true });
}

// A seat's name: the person's, or the bot's level and seat number.
/**
 * @param {import("./types.js").Seat} seat
 * @param {number} i
 */
export function seatName(seat, i) { return seat.name || botName(seat.bot || "", i); }

// A bot as it is named everywhere (the game, the lobby, the replay, profiles): its level in the
// page's language and its seat, "Greedy bot 2".
/**
 * @param {string} level
 * @param {number} i the seat
 */
export function botName(level, i) { return `${t(`bot.${level}`)} ${i + 1}`; }

// The names of a game's players from a list the server sent ("players") and each seat's bot
// level ("bots": null for a person): bots named as everywhere else.
/**
 * @param {string[]} players
 * @param {(string | null)[] | undefined} bots
 */
export function listedNames(players, bots) { return players.map((p, i) => (bots && bots[i] ? botName(bots[i] || "", i) : p)); }

export function botIcon() {
  const span = document.createElement("span");
  span.className = "bot-icon";
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = '<svg viewBox="0 0 24 24" width="20" height="20"><rect x="4" y="7" width="16" height="12" rx="3" fill="currentColor"/><circle cx="9" cy="13" r="1.8" fill="#1d3a2b"/><circle cx="15" cy="13" r="1.8" fill="#1d3a2b"/><rect x="11" y="2.5" width="2" height="4.5" fill="currentColor"/><circle cx="12" cy="2.5" r="1.6" fill="currentColor"/></svg>';
  return span;
}

// Icons drawn inline as SVG (no font needed: a symbol like ⏮ shows as an empty box where the
// system has no font for it).
/** @type {Record<string, string>} */
const ICONS = {
  sound: '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/><path d="M16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11"/>',
  muted: '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/><path d="M16 9l5 6M21 9l-5 6"/>',
  replay: '<path d="M3 12a9 9 0 1 0 3-6.7"/><path d="M3 4v5h5"/>',
  first: '<path d="M6 5v14"/><path d="M18 5l-9 7 9 7z" fill="currentColor"/>',
  prev: '<path d="M16 5l-9 7 9 7z" fill="currentColor"/>',
  next: '<path d="M8 5l9 7-9 7z" fill="currentColor"/>',
  last: '<path d="M18 5v14"/><path d="M6 5l9 7-9 7z" fill="currentColor"/>',
  undo: '<path d="M9 14L4 9l5-5"/><path d="M4 9h10a6 6 0 0 1 0 12h-3"/>',
  redo: '<path d="M15 14l5-5-5-5"/><path d="M20 9H10a6 6 0 0 0 0 12h3"/>',
  flag: '<path d="M5 21V4"/><path d="M5 4h11l-2 4 2 4H5" fill="currentColor"/>',
};

/** @param {string} name */
export function icon(name) {
  const span = document.createElement("span");
  span.className = `icon icon-${name}`;
  span.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${ICONS[name]}</svg>`;
  return span;
}
