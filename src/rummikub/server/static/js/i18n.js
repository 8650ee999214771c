// Interface text from a message catalogue (static/i18n/<lang>.json).
const SUPPORTED = ["en", "sv"];
let catalogue = {};
let fallback = {};
let current = "en";
const listeners = new Set();

async function load(lang) {
  const res = await fetch(`/static/i18n/${lang}.json`);
  if (!res.ok) throw new Error(`no catalogue for ${lang}`);
  return res.json();
}

export function pickLanguage() {
  const saved = localStorage.getItem("rummikub.lang");
  if (saved && SUPPORTED.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = l.toLowerCase().split("-")[0];
    if (SUPPORTED.includes(base)) return base;
  }
  return "en";
}

export async function setLanguage(lang) {
  if (!SUPPORTED.includes(lang)) lang = "en";
  if (!Object.keys(fallback).length) fallback = await load("en");
  catalogue = lang === "en" ? fallback : await load(lang);
  current = lang;
  localStorage.setItem("rummikub.lang", lang);
  document.documentElement.lang = lang;
  translate(document);
  for (const fn of listeners) fn(lang);
}

export function language() { return current; }
export function onLanguage(fn) { listeners.add(fn); }

// t("key", {name: "Ann"}) -> text with {name} replaced.
export function t(key, vars = {}) {
  let s = catalogue[key] ?? fallback[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, String(v));
  return s;
}

// Elements with data-i18n="key" get their text; data-i18n-placeholder / -title / -aria.
export function translate(root) {
  root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll("[data-i18n-placeholder]").forEach((el) => {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  });
  root.querySelectorAll("[data-i18n-title]").forEach((el) => {
    el.title = t(el.dataset.i18nTitle);
    el.setAttribute("aria-label", el.title);
  });
}
