// Small helpers shared by the views: building elements, toasts, navigation, saved seats.
import { localise, t } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "i18n") { el.dataset.i18n = v; el.textContent = t(v); }
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

let toastTimer = null;
export function toast(text, kind = "info") {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.className = `toast ${kind}`;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 3500);
}

export function navigate(path) {
  history.pushState({}, "", path);
  window.dispatchEvent(new Event("rummikub:route"));
}

export function savedSeat(code) {
  try { return JSON.parse(localStorage.getItem(`rummikub.seat.${code}`)); } catch { return null; }
}
export function saveSeat(code, seat, token) {
  localStorage.setItem(`rummikub.seat.${code}`, JSON.stringify({ seat, token }));
}
export function forgetSeat(code) { localStorage.removeItem(`rummikub.seat.${code}`); }

export function playerName() { return localStorage.getItem("rummikub.name") || ""; }
export function setPlayerName(n) { localStorage.setItem("rummikub.name", n); }

export async function getJSON(url) {
  const res = await fetch(url);
  const data = await res.json();
  if (!res.ok) throw localise(data);
  return data;
}

// Send a message and wait for its reply; a refusal is shown (a lost connection is not: the
// status line says so already).
export async function act(net, msg) {
  try {
    return await net.request(msg);
  } catch (err) {
    if (err.code !== "disconnected") toast(err.message, "error");
    return null;
  }
}

// Run `draw`, which may replace elements of `root`; the element that had the focus, if it was
// replaced by one with the same id, passes the focus on (with a text field's text and caret).
export function keepFocus(root, draw) {
  const a = document.activeElement;
  const id = a && a !== document.body && root.contains(a) && a.id ? a.id : null;
  let text = null;
  try {
    if (id && a.tagName === "INPUT" && a.selectionStart != null) text = [a.value, a.selectionStart, a.selectionEnd];
  } catch { /* no caret in this kind of input */ }
  draw();
  if (!id || root.contains(a)) return;
  const b = root.querySelector(`#${CSS.escape(id)}`);
  if (!b) return;
  if (text && b.tagName === "INPUT") { b.value = text[0]; b.setSelectionRange(text[1], text[2]); }
  b.focus({ preventScroll: true });
}

// A seat's name: the person's, or the bot's level and seat number.
export function seatName(seat, i) { return seat.name || `${t(`bot.${seat.bot}`)} ${i + 1}`; }

export function botIcon() {
  const span = document.createElement("span");
  span.className = "bot-icon";
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = '<svg viewBox="0 0 24 24" width="20" height="20"><rect x="4" y="7" width="16" height="12" rx="3" fill="currentColor"/><circle cx="9" cy="13" r="1.8" fill="#1d3a2b"/><circle cx="15" cy="13" r="1.8" fill="#1d3a2b"/><rect x="11" y="2.5" width="2" height="4.5" fill="currentColor"/><circle cx="12" cy="2.5" r="1.6" fill="currentColor"/></svg>';
  return span;
}

// Icons drawn inline as SVG (no font needed: a symbol like ⏮ shows as an empty box where the
// system has no font for it).
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

export function icon(name) {
  const span = document.createElement("span");
  span.className = `icon icon-${name}`;
  span.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${ICONS[name]}</svg>`;
  return span;
}
