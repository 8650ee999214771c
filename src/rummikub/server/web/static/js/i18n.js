// @ts-check
// Interface text from the message catalogue the server serves (/i18n/<lang>.json: the same
// files as the terminal games use, rummikub/i18n/<lang>.json). The languages are the server's
// list (rummikub.i18n.SHIPPED), which it writes on the page: <html data-languages="[{code,
// name, dir}...]">.
/** @typedef {{code: string, name: string, dir: string}} LanguageInfo */
/** @type {LanguageInfo[]} */
export const LANGUAGES = readLanguages();
const SUPPORTED = LANGUAGES.map((l) => l.code);

/** @returns {LanguageInfo[]} */
function readLanguages() {
  try {
    const listed = JSON.parse(document.documentElement.dataset.languages || "[]");
    if (Array.isArray(listed) && listed.length) return listed;
  } catch { /* a page without the list: English only */ }
  return [{ code: "en", name: "English", dir: "ltr" }];
}

// Fills a language menu (<select>) with every language under its own name.
/** @param {HTMLSelectElement} select */
export function fillLanguageMenu(select) {
  select.replaceChildren(...LANGUAGES.map((l) => {
    const option = document.createElement("option");
    option.value = l.code;
    option.textContent = l.name;
    option.lang = l.code;
    option.dir = l.dir;
    return option;
  }));
}
/** @typedef {Record<string, string>} Catalogue */
/** @type {Catalogue} */
let catalogue = {};
/** @type {Catalogue} */
let fallback = {};
let current = "en";
let plurals = new Intl.PluralRules("en");
/** @type {Set<(lang: string) => void>} */
const listeners = new Set();

/**
 * @param {string} lang
 * @returns {Promise<Catalogue>}
 */
async function load(lang) {
  const res = await fetch(`/i18n/${lang}.json`);
  if (!res.ok) throw new Error(`no catalogue for ${lang}`);
  return res.json();
}

// The page's language: ?lang=xx in the address, else the one chosen before (the menu), else
// the first of the browser's languages (navigator.languages) there is a catalogue of, else the
// one the server chose from Accept-Language (<html lang>).
export function pickLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && SUPPORTED.includes(asked)) return asked;
  const saved = localStorage.getItem("rummikub.lang");
  if (saved && SUPPORTED.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = l.toLowerCase().split("-")[0];
    if (SUPPORTED.includes(base)) return base;
  }
  const served = document.documentElement.lang;
  return SUPPORTED.includes(served) ? served : "en";
}

/** @param {string} lang @returns {string} "rtl" or "ltr" */
export function direction(lang) {
  return LANGUAGES.find((l) => l.code === lang)?.dir === "rtl" ? "rtl" : "ltr";
}

// Numbers, percentages and dates as the page's language writes them.
/** @param {number} x @param {Intl.NumberFormatOptions} [options] */
export function formatNumber(x, options) { return new Intl.NumberFormat(current, options).format(x); }
/** @param {Date} date @param {Intl.DateTimeFormatOptions} [options] */
export function formatDate(date, options) { return new Intl.DateTimeFormat(current, options).format(date); }

/** @param {string} lang */
export async function setLanguage(lang) {
  if (!SUPPORTED.includes(lang)) lang = "en";
  if (!Object.keys(fallback).length) fallback = await load("en");
  catalogue = lang === "en" ? fallback : await load(lang);
  current = lang;
  plurals = new Intl.PluralRules(lang);
  localStorage.setItem("rummikub.lang", lang);
  document.documentElement.lang = lang;
  document.documentElement.dir = direction(lang);
  translate(document);
  for (const fn of listeners) fn(lang);
}

export function language() { return current; }
/** @param {(lang: string) => void} fn */
export function onLanguage(fn) { listeners.add(fn); }
/** @param {string} key */
export function has(key) { return key in fallback; }

// t("key", {name: "Ann"}) -> text with {name} replaced. A number in `count` (or else `n`)
// picks the plural form key#one, key#few... of the language's CLDR category, when there is one.
/**
 * @param {string} key
 * @param {Record<string, unknown>} [vars]
 * @returns {string}
 */
export function t(key, vars = {}) {
  const count = vars.count ?? vars.n;
  if (typeof count === "number") {
    const form = `${key}#${plurals.select(count)}`;
    if (form in catalogue || (!(key in catalogue) && form in fallback)) key = form;
  }
  let s = catalogue[key] ?? fallback[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, String(v));
  return s;
}

// The text of an error code with its params (error.<code>); a `why` param that is itself a
// code is put in first. An unknown code gets the generic message, never the server's English.
/**
 * @param {string} code
 * @param {import("./types.js").Params} [params]
 */
export function codeText(code, params = {}) {
  const vars = { ...params };
  if (typeof vars.why === "string" && has(`error.${vars.why}`)) {
    const { why, ...rest } = vars;
    vars.why = t(`error.${why}`, rest);
  }
  return t(has(`error.${code}`) ? `error.${code}` : "error.error", vars);
}

// A refusal from the server ({code, params, reason?}): the engine's code in `reason` (an
// illegal play, a rules error) says more than the server's `code`.
/** @param {{code: string, params?: import("./types.js").Params, reason?: string}} err */
export function errorText(err) {
  const code = err.reason && has(`error.${err.reason}`) ? err.reason : err.code;
  return codeText(code, err.params || {});
}

// Puts the catalogue's text in place of the English of a message from the server: an error
// (WebSocket or HTTP), and the refused melds and play of a "checked" reply.
/**
 * @template T
 * @param {T} msg
 * @returns {T}
 */
export function localise(msg) {
  if (!msg || typeof msg !== "object") return msg;
  // a message straight from JSON.parse: one of the server's (its type says which)
  localiseFields(/** @type {import("./types.js").ServerMsg | import("./types.js").HttpError} */ (/** @type {unknown} */ (msg)));
  return msg;
}

/** @param {import("./types.js").ServerMsg | import("./types.js").HttpError} msg */
function localiseFields(msg) {
  if (msg.type === "error" || (msg.type === undefined && msg.code && msg.error)) {
    msg.message = errorText(msg);
    if (msg.error !== undefined) msg.error = msg.message;
  } else if (msg.type === "checked") {
    for (const m of msg.melds || []) if (m.ok === false && m.code) m.reason = codeText(m.code, m.params);
    if (msg.play && msg.play.ok === false && msg.play.code) msg.play.message = codeText(msg.play.code, msg.play.params);
  }
}

// Elements with data-i18n="key" get their text; data-i18n-placeholder / -title / -aria.
/** @param {ParentNode} root */
export function translate(root) {
  root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n ?? ""); });
  root.querySelectorAll("[data-i18n-placeholder]").forEach((el) => {
    const field = /** @type {HTMLInputElement} */ (el);
    field.placeholder = t(field.dataset.i18nPlaceholder ?? "");
  });
  root.querySelectorAll("[data-i18n-title]").forEach((e) => {
    const el = /** @type {HTMLElement} */ (e);
    el.title = t(el.dataset.i18nTitle ?? "");
    el.setAttribute("aria-label", el.title);
  });
  root.querySelectorAll("[data-i18n-aria]").forEach((e) => {
    const el = /** @type {HTMLElement} */ (e);
    el.setAttribute("aria-label", t(el.dataset.i18nAria ?? ""));
  });
}

// The label of a rules preset from the rules it stands for ("Standard (2 min)"): the name from
// the catalogue, each detail worded with the rules' own values (rummikub/i18n/presets.py).
/**
 * @param {string} name
 * @param {Partial<import("./types.js").TileRules>} [rules]
 */
export function presetLabel(name, rules) {
  if (!rules || !("turn_seconds" in rules)) return t(`preset.${name}`);
  const details = [];
  const seconds = rules.turn_seconds;
  if (seconds == null) details.push(t("preset.no_clock"));
  else details.push(t("preset.minutes", { minutes: formatNumber(seconds / 60, { maximumFractionDigits: 1 }) }));
  if (rules.invalid_play === "penalty") details.push(t("preset.penalty", { count: rules.invalid_penalty }));
  if ((rules.max_players ?? 0) > USUAL_MAX_PLAYERS) details.push(t("preset.players", { count: rules.max_players }));
  return t("preset.label", { name: t(`preset.${name}`), details: details.join(t("preset.separator")) });
}
// the players of the usual tile set (a preset for more says so)
const USUAL_MAX_PLAYERS = 4;

// Xpress in a sentence, from its rules ("2 players, 18 dice, 6 rounds: ...").
/** @param {{rounds: number, dice_per_player: number}} rules @param {number} [players] */
export function xpressSummary(rules, players = 2) {
  return t("lobby.xpress_text", {
    players: t("count.players", { count: players }),
    dice: t("count.dice", { count: players * rules.dice_per_player }),
    rounds: t("count.rounds", { count: rules.rounds }),
  });
}
