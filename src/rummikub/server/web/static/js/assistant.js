// @ts-check
// The assistant at a real table (/assistant): people playing with a physical set enter the
// table and their rack — by tapping tiles or typing "R4 R5 R6 | K1 K2 K3" — and see the best
// play laid out as the new table, every tile marked: from the rack, moved from another set, or
// kept in its set. Each view of "best" (most tiles, most value, fewest changes, keeping the
// joker) is one tab. "Play it" makes the new table the next position, so the next turn only
// needs the rack edited. The last position is kept in this browser. No room or account needed.
import { t, translate, presetLabel } from "./i18n.js";
import { COLOURS, pieceEl } from "./pieces.js";
import { getState } from "./store.js";
import { h, getJSON } from "./util.js";

const KEY = "rummikub.assistant";
const TILE_COLOURS = COLOURS.slice(0, 4);

/** The position kept in this browser.
 * @typedef {{table?: string, rack?: string, opened?: boolean, preset?: string}} Saved */

/** The page's fields and buttons (build).
 * @typedef {object} Ui
 * @property {HTMLTextAreaElement} tableInput
 * @property {HTMLInputElement} rackInput
 * @property {{rack: HTMLButtonElement, table: HTMLButtonElement}} targetButtons
 * @property {HTMLButtonElement[]} colourButtons
 * @property {HTMLButtonElement} go
 * @property {HTMLElement} result
 */

/** @returns {Saved} */
function loadSaved() {
  try { return JSON.parse(localStorage.getItem(KEY) ?? "null") || {}; } catch { return {}; }
}

// Tidy typed notation: upper case, single spaces, " | " between sets.
/** @param {string} text */
function tidy(text) {
  return text.toUpperCase().replace(/\n/g, "|").split("|").map((s) => s.trim().split(/\s+/).filter(Boolean).join(" "))
    .filter(Boolean).join(" | ");
}

export class AssistantPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    const saved = loadSaved();
    this.table = saved.table || "";
    this.rack = saved.rack || "";
    this.opened = saved.opened ?? true;
    this.preset = saved.preset || "standard";
    /** @type {"rack" | "table"} */
    this.target = "rack"; // where tapped tiles go
    this.colour = "R"; // the keypad's colour
    /** @type {import("./types.js").AssistAnswer | null} */
    this.answer = null;
    this.shown = 0; // the alternative shown
    this.busy = false;
    /** @type {string | null} */
    this.error = null;
    this.ui = this.build();
  }

  destroy() {}

  /** @param {string} [what] */
  render(what) {
    if (what === "language") { this.build(); this.drawAnswer(); }
  }

  save() {
    localStorage.setItem(KEY, JSON.stringify({ table: this.table, rack: this.rack, opened: this.opened, preset: this.preset }));
  }

  /** @returns {Ui} */
  build() {
    const info = getState().info;
    /** @type {Record<string, Partial<import("./types.js").TileRules>>} */
    const presets = (info && info.presets) || { standard: {} };
    const tableInput = h("textarea", { id: "assist-table", rows: 3, spellcheck: "false", autocapitalize: "characters",
      "data-i18n-placeholder": "assist.table_placeholder",
      onfocus: () => this.setTarget("table"),
      oninput: () => { this.table = tableInput.value; this.save(); } });
    tableInput.value = this.table;
    const rackInput = h("input", { id: "assist-rack", spellcheck: "false", autocapitalize: "characters", autocomplete: "off",
      "data-i18n-placeholder": "assist.rack_placeholder",
      onfocus: () => this.setTarget("rack"),
      oninput: () => { this.rack = rackInput.value; this.save(); } });
    rackInput.value = this.rack;
    const opened = h("input", { type: "checkbox", id: "assist-opened", checked: this.opened,
      onchange: () => { this.opened = opened.checked; this.save(); } });
    const preset = h("select", { id: "assist-preset", onchange: () => { this.preset = preset.value; this.save(); } },
      Object.keys(presets).map((p) => h("option", { value: p, selected: p === this.preset }, presetLabel(p, presets[p]))));
    const targetButtons = {
      rack: h("button", { type: "button", class: "btn small", id: "assist-to-rack", onclick: () => this.setTarget("rack") }, t("assist.to_rack")),
      table: h("button", { type: "button", class: "btn small", id: "assist-to-table", onclick: () => this.setTarget("table") }, t("assist.to_table")),
    };
    const colourButtons = TILE_COLOURS.split("").map((c) =>
      h("button", { type: "button", class: `btn small key-colour c-${c}`, dataset: { colour: c }, "aria-pressed": String(c === this.colour),
        onclick: () => this.setColour(c) }, c));
    const numbers = Array.from({ length: 13 }, (_, i) => h("button", { type: "button", class: "btn small key-number",
      dataset: { number: String(i + 1) }, onclick: () => this.tap(`${this.colour}${i + 1}`) }, String(i + 1)));
    const keypad = h("div", { class: "assist-keypad", role: "group", "aria-label": t("assist.keypad") },
      h("div", { class: "keypad-row" }, targetButtons.rack, targetButtons.table),
      h("div", { class: "keypad-row" }, colourButtons,
        h("button", { type: "button", class: "btn small key-joker", id: "assist-joker", onclick: () => this.tap("J") }, "J")),
      h("div", { class: "keypad-row keypad-numbers", dir: "ltr" }, numbers),
      h("div", { class: "keypad-row" },
        h("button", { type: "button", class: "btn small", id: "assist-new-set", onclick: () => this.newSet() }, t("assist.new_set")),
        h("button", { type: "button", class: "btn small", id: "assist-back", onclick: () => this.backspace() }, t("assist.back")),
        h("button", { type: "button", class: "btn small", id: "assist-clear", onclick: () => this.clear() }, t("assist.clear"))));
    const go = h("button", { class: "btn primary big", id: "assist-go", onclick: () => this.ask() }, t("assist.go"));
    const result = h("div", { id: "assist-result", "aria-live": "polite" });
    this.root.replaceChildren(h("div", { class: "assistant" },
      h("section", { class: "card" },
        h("h2", { i18n: "assist.title" }),
        h("p", { class: "muted", i18n: "assist.intro" }),
        h("label", { class: "stack" }, h("span", { i18n: "assist.table" }), tableInput),
        h("label", { class: "stack" }, h("span", { i18n: "assist.rack" }), rackInput),
        keypad,
        h("div", { class: "form-row checks" },
          h("label", { class: "check" }, opened, h("span", { i18n: "assist.opened" })),
          h("label", {}, h("span", { i18n: "lobby.rules" }), preset)),
        go),
      result));
    this.ui = { tableInput, rackInput, targetButtons, colourButtons, go, result };
    translate(this.root);
    this.setTarget(this.target);
    return this.ui;
  }

  /** @param {"rack" | "table"} target */
  setTarget(target) {
    this.target = target;
    for (const [k, b] of Object.entries(this.ui.targetButtons)) b.setAttribute("aria-pressed", String(k === target));
  }

  /** @param {string} c */
  setColour(c) {
    this.colour = c;
    for (const b of this.ui.colourButtons) b.setAttribute("aria-pressed", String(b.dataset.colour === c));
  }

  field() { return this.target === "table" ? this.ui.tableInput : this.ui.rackInput; }

  /**
   * @param {HTMLInputElement | HTMLTextAreaElement} field
   * @param {string} text
   */
  write(field, text) {
    field.value = text;
    if (field === this.ui.tableInput) this.table = text; else this.rack = text;
    this.save();
  }

  /** @param {string} tile */
  tap(tile) {
    const field = this.field();
    const text = field.value.trimEnd();
    const sep = !text || text.endsWith("|") ? (text ? " " : "") : " ";
    this.write(field, `${text}${sep}${tile}`);
  }

  newSet() {
    this.setTarget("table");
    const text = this.ui.tableInput.value.trimEnd();
    if (text && !text.endsWith("|")) this.write(this.ui.tableInput, `${text} |`);
  }

  backspace() {
    const field = this.field();
    const parts = field.value.trimEnd().split(/\s+/);
    parts.pop();
    this.write(field, parts.join(" "));
  }

  clear() { this.write(this.field(), ""); }

  async ask() {
    if (this.busy) return;
    this.write(this.ui.tableInput, tidy(this.ui.tableInput.value));
    this.write(this.ui.rackInput, tidy(this.ui.rackInput.value).replace(/ \| /g, " "));
    const q = new URLSearchParams({ table: this.table, rack: this.rack, opened: String(this.opened), preset: this.preset });
    this.busy = true;
    this.ui.go.disabled = true;
    this.ui.result.replaceChildren(h("p", { class: "muted" }, t("assist.thinking")));
    try {
      this.answer = await getJSON(`/api/assist?${q}`);
      this.shown = 0;
      this.error = null;
    } catch (e) {
      const err = /** @type {Partial<import("./types.js").HttpError>} */ (e);
      this.answer = null;
      // the catalogue's text of the refusal, and the token it stumbled on ("Z4")
      const token = err.params && err.params.token ? ` (${err.params.token})` : "";
      this.error = (err.message || err.error || t("error.generic")) + token;
    } finally {
      this.busy = false;
      this.ui.go.disabled = false;
    }
    this.drawAnswer();
  }

  drawAnswer() {
    if (this.error) {
      this.ui.result.replaceChildren(h("p", { class: "error-text", id: "assist-error", role: "alert" }, this.error));
      return;
    }
    const a = this.answer;
    if (!a) { this.ui.result.replaceChildren(); return; }
    if (!a.alternatives.length) {
      const why = a.opened ? t("assist.nothing") : t("assist.no_opening");
      this.ui.result.replaceChildren(h("section", { class: "card" }, h("p", { id: "assist-nothing" }, why)));
      return;
    }
    const alt = a.alternatives[this.shown];
    const tabs = h("div", { class: "assist-tabs", role: "tablist" }, a.alternatives.map((x, i) =>
      h("button", { class: "btn small assist-tab", role: "tab", "aria-selected": String(i === this.shown),
        dataset: { views: x.views.join(" ") },
        onclick: () => { this.shown = i; this.drawAnswer(); } }, x.views.map((v) => t(`assist.view.${v}`)).join(" · "))));
    const melds = alt.table.map((meld) => h("div", { class: "meld assist-meld", dir: "ltr" },
      meld.map((x) => {
        const el = pieceEl(x.tile);
        el.classList.add(`mark-${x.mark}`);
        el.dataset.mark = x.mark;
        return el;
      })));
    const summary = t("assist.summary", { count: alt.tiles, tiles: alt.play.join(" "), value: alt.value, changes: alt.changes });
    const legend = h("div", { class: "assist-legend muted" },
      ["rack", "moved", "kept"].map((m) => h("span", { class: `legend-mark mark-${m}` }, t(`assist.mark.${m}`))));
    this.ui.result.replaceChildren(h("section", { class: "card" },
      tabs,
      h("p", { id: "assist-summary" }, summary),
      alt.optimal ? null : h("p", { class: "muted" }, t("assist.not_optimal")),
      h("div", { class: "assist-table", id: "assist-new-table" }, melds),
      legend,
      h("button", { class: "btn", id: "assist-play", onclick: () => this.playIt(alt) }, t("assist.play_it"))));
  }

  // The new table becomes the position; the placed tiles leave the rack.
  /** @param {import("./types.js").AssistAlternative} alt */
  playIt(alt) {
    const table = alt.table.map((meld) => meld.map((x) => x.tile).join(" ")).join(" | ");
    const rack = this.rack.split(/\s+/).filter(Boolean);
    for (const tile of alt.play) {
      const i = rack.indexOf(tile);
      if (i >= 0) rack.splice(i, 1);
    }
    this.write(this.ui.tableInput, table);
    this.write(this.ui.rackInput, rack.join(" "));
    this.opened = true;
    /** @type {HTMLInputElement} */ (this.root.querySelector("#assist-opened")).checked = true;
    this.save();
    this.answer = null;
    this.drawAnswer();
    this.setTarget("rack");
  }
}
