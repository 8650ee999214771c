// Small DOM helpers shared by the views.
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
