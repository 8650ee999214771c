// @ts-check
// Playing from the keyboard, as in the terminal game (docs/terminal.md): a key for every
// button (D draw, E end turn, U undo, Y redo, R reset, H hint, T / G sort, N new set) and the
// arrow keys moving the focus between the tiles of the rack and the sets of the table, so that
// placing a tile takes a few keys. `?` opens the list of the keys. Keys typed into a field
// (the chat, a name) are the field's own. The puzzle page plays with the same keys (E checks
// its answer).
import { t } from "./i18n.js";
import { h } from "./util.js";

/**
 * What the keys need of the page they play (the game, game.js; a puzzle, puzzles.js): whether
 * the keys play now, tap a zone, undo/redo, the piece picked up, sort, and what the page
 * has in place of the game's rack, buttons and list of keys.
 * @typedef {object} KeyTarget
 * @property {() => boolean} playing the keys play (a spectator has no keys but `?`)
 * @property {(target: import("./turn.js").Target) => void} tapZone
 * @property {(redo: boolean) => void} step
 * @property {() => boolean} selected a piece is picked up
 * @property {() => void} clear put the piece picked up back
 * @property {((mode: string) => void) | null} setSort null: the page has no sort
 * @property {(id: string, target: import("./turn.js").Target) => void} moveTo
 * @property {HTMLElement} root
 * @property {string} [rack] the rack's selector (default `#own-rack`)
 * @property {Record<string, string[]>} [buttons] the buttons the letter keys press (default: the game's)
 * @property {[string, string][]} [keys] the keys the help lists (default: the game's)
 */

/** The keys the help lists: [key, catalogue key of what it does].
 * @type {[string, string][]} */
export const KEYS = [
  ["← → ↑ ↓", "keys.arrows"],
  ["Home / End", "keys.home_end"],
  ["Shift+← →", "keys.arrange"],
  ["Space / Enter", "keys.pick"],
  ["N", "keys.new_set"],
  ["Esc", "keys.clear"],
  ["E", "keys.end_turn"],
  ["D", "keys.draw"],
  ["U / Ctrl+Z", "keys.undo"],
  ["Y / Ctrl+Y", "keys.redo"],
  ["R", "keys.reset"],
  ["H", "keys.hint"],
  ["T / G", "keys.sort"],
  ["?", "keys.help"],
];

/** The keys of the puzzle page: the game's, with E checking the answer and no drawing nor
 * sorting. @type {[string, string][]} */
export const PUZZLE_KEYS = [
  ["← → ↑ ↓", "keys.arrows"],
  ["Home / End", "keys.home_end"],
  ["Space / Enter", "keys.pick"],
  ["N", "keys.new_set"],
  ["Esc", "keys.clear"],
  ["E", "keys.check"],
  ["U / Ctrl+Z", "keys.undo"],
  ["Y / Ctrl+Y", "keys.redo"],
  ["R", "keys.reset"],
  ["H", "keys.hint"],
  ["?", "keys.help"],
];

// The buttons a key presses (the first one on the page that is enabled): the tile game's and
// Xpress's (E ends the turn in both; T throws in Xpress, below).
/** @type {Record<string, string[]>} */
const BUTTONS = {
  e: ["#btn-play", "#btn-end"],
  d: ["#btn-draw"],
  r: ["#btn-reset"],
  h: ["#btn-apply-hint", "#btn-hint"],
};

/** @param {EventTarget | null} el */
function typing(el) {
  if (!(el instanceof HTMLElement)) return false;
  return el.isContentEditable || el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT";
}

/** @param {HTMLElement} root @param {string[]} selectors */
function press(root, selectors) {
  for (const sel of selectors) {
    const b = /** @type {HTMLButtonElement | null} */ (root.querySelector(sel));
    if (b && !b.disabled) { b.click(); return true; }
  }
  return false;
}

// The rows the arrows move between: each set of the table, then the rack. A row's items are
// the set itself (to drop a tile at its end) and the pieces that take the focus.
// `rack` is the rack's row (-1: none).
/** @param {HTMLElement} root @param {string} rackSelector */
function rows(root, rackSelector) {
  /** @type {HTMLElement[][]} */
  const out = [];
  let rack = -1;
  root.querySelectorAll(".melds .meld").forEach((m) => {
    const meld = /** @type {HTMLElement} */ (m);
    const items = /** @type {HTMLElement[]} */ ([...meld.querySelectorAll(".piece[tabindex]")]);
    out.push(meld.tabIndex >= 0 ? [meld, ...items] : items);
  });
  const tray = /** @type {HTMLElement | null} */ (root.querySelector(rackSelector));
  if (tray) {
    const items = /** @type {HTMLElement[]} */ ([...tray.querySelectorAll(".piece[tabindex]")]);
    const row = items.length ? items : tray.tabIndex >= 0 ? [tray] : [];
    if (row.length) { rack = out.length; out.push(row); }
  }
  return { all: out, rack };
}

export class Keys {
  /** @param {KeyTarget} view */
  constructor(view) {
    this.view = view;
    this.rackColumn = 0; // where the focus was on the rack, to come back to
    /** @type {HTMLElement | null} */
    this.help = null;
    /** @type {Element | null} */
    this.before = null; // the focus before the help opened
    /** @param {KeyboardEvent} e */
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    this.closeHelp();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (e.defaultPrevented || typing(e.target) || e.altKey || e.metaKey) return;
    const k = e.key;
    if (this.help) {
      if (k === "Escape" || k === "?") { e.preventDefault(); this.closeHelp(); }
      return;
    }
    if (k === "?") { e.preventDefault(); this.openHelp(); return; }
    if (!this.view.playing()) return;
    const root = this.view.root;
    // the score card: its buttons are the keys (Tab, Enter)
    if (root.querySelector(".overlay")) return;
    const lower = k.toLowerCase();
    if (e.ctrlKey) {
      if (lower === "z") { e.preventDefault(); this.view.step(e.shiftKey); }
      else if (lower === "y") { e.preventDefault(); this.view.step(true); }
      return;
    }
    if (e.shiftKey && (k === "ArrowLeft" || k === "ArrowRight")) {
      if (this.arrange(k === "ArrowLeft" ? -1 : 1)) e.preventDefault();
      return;
    }
    if (k.startsWith("Arrow") || k === "Home" || k === "End") {
      if (this.move(k)) e.preventDefault();
      return;
    }
    if (k === "Escape") {
      if (this.view.selected()) { e.preventDefault(); this.view.clear(); }
      return;
    }
    if (lower === "n") { e.preventDefault(); if (this.view.selected()) this.view.tapZone({ kind: "new" }); return; }
    if (lower === "u") { e.preventDefault(); this.view.step(false); return; }
    if (lower === "y") { e.preventDefault(); this.view.step(true); return; }
    if (lower === "t" || lower === "g") {
      // Xpress has no sort: T throws, as in its terminal game
      const sort = this.view.setSort;
      if (!sort || !root.querySelector("#btn-sort")) { if (lower === "t" && press(root, ["#btn-throw"])) e.preventDefault(); return; }
      e.preventDefault();
      sort(lower === "t" ? "789" : "777");
      return;
    }
    const buttons = (this.view.buttons || BUTTONS)[lower];
    if (buttons && !e.shiftKey) { e.preventDefault(); press(root, buttons); }
  }

  // Move the rack's tile that has the focus one place left (-1) or right (1), as Shift+←/→ in
  // the terminal game: the rack is in the player's own order from then on.
  /** @param {number} by */
  arrange(by) {
    const at = /** @type {HTMLElement | null} */ (document.activeElement);
    const rack = this.view.root.querySelector(this.view.rack || "#own-rack");
    if (!at || !rack || !at.dataset.id || at.parentElement !== rack) return false;
    const tiles = [...rack.querySelectorAll(".piece")];
    const i = tiles.indexOf(at);
    if (i < 0 || i + by < 0 || i + by >= tiles.length) return true;
    this.view.moveTo(at.dataset.id, { kind: "rack", pos: by < 0 ? i - 1 : i + 2 });
    return true;
  }

  // Move the focus (an arrow, Home or End); false: nowhere to go.
  /** @param {string} k */
  move(k) {
    const { all, rack: rackRow } = rows(this.view.root, this.view.rack || "#own-rack");
    if (!all.length) return false;
    const at = document.activeElement;
    const r = all.findIndex((row) => row.some((x) => x === at));
    /** @param {number} row @param {number} col */
    const go = (row, col) => {
      const items = all[row];
      const el = items[Math.max(0, Math.min(items.length - 1, col))];
      if (row === rackRow) this.rackColumn = items.indexOf(el);
      el.focus();
      el.scrollIntoView({ block: "nearest", inline: "nearest" });
      return true;
    };
    if (r < 0) return go(rackRow >= 0 ? rackRow : 0, rackRow >= 0 ? this.rackColumn : 0); // from nowhere: the rack
    const c = all[r].indexOf(/** @type {HTMLElement} */ (at));
    switch (k) {
      case "ArrowLeft": return go(r, c - 1);
      case "ArrowRight": return go(r, c + 1);
      case "Home": return go(r, 0);
      case "End": return go(r, all[r].length - 1);
      case "ArrowUp": case "ArrowDown": {
        const to = (r + (k === "ArrowUp" ? -1 : 1) + all.length) % all.length;
        // onto the rack where the focus last was on it, onto a set at the set itself
        return go(to, to === rackRow ? this.rackColumn : 0);
      }
      default: return false;
    }
  }

  openHelp() {
    this.closeHelp();
    const close = h("button", { class: "btn small", id: "keys-close", type: "button", onclick: () => this.closeHelp() }, t("keys.close"));
    const card = h("div", { class: "card keys-card", role: "dialog", "aria-modal": "true", "aria-labelledby": "keys-title", id: "keys-help" },
      h("h2", { id: "keys-title" }, t("keys.title")),
      h("p", { class: "muted" }, t("keys.intro")),
      h("table", { class: "keys-table" }, h("tbody", {}, (this.view.keys || KEYS).map(([key, what]) =>
        h("tr", {}, h("td", {}, h("kbd", {}, key)), h("td", {}, t(what)))))),
      h("div", { class: "form-row" }, close));
    this.help = h("div", { class: "overlay keys-overlay", onclick: (e) => { if (e.target === this.help) this.closeHelp(); } }, card);
    this.before = document.activeElement;
    document.body.append(this.help);
    close.focus();
  }

  closeHelp() {
    if (!this.help) return;
    this.help.remove();
    this.help = null;
    const back = /** @type {HTMLElement | null} */ (this.before || null);
    if (back && back.isConnected) back.focus();
  }
}

// Make `el` take the focus and answer Enter and Space like a press (`own`: only when it has the
// focus itself, not one of its pieces).
/**
 * @param {HTMLElement} el
 * @param {() => void} onPress
 * @param {boolean} [own]
 */
export function pressable(el, onPress, own = false) {
  el.tabIndex = 0;
  el.setAttribute("role", "button");
  el.addEventListener("keydown", (e) => {
    if ((e.key !== "Enter" && e.key !== " ") || (own && e.target !== el)) return;
    e.preventDefault();
    e.stopPropagation();
    onPress();
  });
}

// The small button that opens the list of keys (for those who do not know `?`).
/** @param {Keys} keys */
export function keysButton(keys) {
  return h("button", { class: "btn small keys-btn", id: "btn-keys", type: "button", title: t("keys.title"),
    "aria-label": t("keys.title"), "aria-keyshortcuts": "?", onclick: () => keys.openHelp() }, "?");
}
