// The replay page of a finished game, for both games: step through every position with the
// buttons, the slider or the arrow keys. The record is read into steps (records.js); the game's
// adapter says which pieces to draw and how to word the counter and the ends of rounds.
import { t, translate } from "./i18n.js";
import { gameOfRecord } from "./games.js";
import { groupEl, pieceEl } from "./pieces.js";
import { readRecord } from "./records.js";
import { h, getJSON } from "./util.js";

export class ReplayPage {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.record = null;
    this.error = null;
    this.index = 0;
    this.onKey = (e) => {
      if (!this.steps) return;
      if (e.key === "ArrowRight") this.go(this.index + 1);
      if (e.key === "ArrowLeft") this.go(this.index - 1);
    };
    document.addEventListener("keydown", this.onKey);
    this.load();
  }

  destroy() {
    this.gone = true;
    document.removeEventListener("keydown", this.onKey);
  }

  async load() {
    try {
      this.record = await getJSON(`/api/rooms/${this.code}/record`);
      this.game = gameOfRecord(this.record.format);
    } catch (err) {
      this.error = err && err.error ? err.error : "";
    }
    if (!this.gone) this.render();
  }

  // Build the page (again when the language changes: the steps' words are in it).
  render() {
    if (this.record == null && this.error == null) return;
    this.root.replaceChildren();
    if (this.error != null || !this.game) {
      this.steps = null;
      this.root.append(h("div", { class: "card center" }, h("h2", {}, t("replay.unavailable")),
        h("p", { class: "muted" }, this.error || ""),
        h("a", { class: "btn", href: "/", "data-link": true }, t("room.back"))));
      return;
    }
    const { record, game } = this;
    this.steps = readRecord(record);
    this.index = Math.min(this.index, this.steps.length - 1);
    const names = record.players.map((p) => p.name);
    this.slider = h("input", { type: "range", min: 0, max: this.steps.length - 1, value: this.index, id: "replay-slider", "aria-label": t("replay.position") });
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.counter = h("span", { class: "replay-counter" });
    this.view = h("div", { class: "replay-view" + (game.css ? ` ${game.css}-replay` : "") });
    const button = (id, title, label, to) => h("button", { class: "btn", id, onclick: () => this.go(to()), title: t(title) }, label);
    this.root.append(h("div", { class: "replay" },
      h("div", { class: "replay-head" }, h("h2", {}, game.replayTitle(this.code)),
        h("p", { class: "muted" }, names.map((n, i) => `${n}: ${game.formatScore(record.totals[i])}`).join(" · "))),
      h("div", { class: "replay-controls" },
        button("replay-first", "replay.first", "⏮", () => 0),
        button("replay-prev", "replay.prev", "◀", () => this.index - 1),
        button("replay-next", "replay.next", "▶", () => this.index + 1),
        button("replay-last", "replay.last", "⏭", () => this.steps.length - 1),
        this.slider, this.counter),
      this.view));
    translate(this.root);
    this.draw();
  }

  go(i) {
    this.index = Math.max(0, Math.min(this.steps.length - 1, i));
    this.slider.value = String(this.index);
    this.draw();
  }

  draw() {
    const { game, record } = this;
    const names = record.players.map((p) => p.name);
    const s = this.steps[this.index];
    this.counter.textContent = game.replayCounter(s, this.index + 1, this.steps.length);
    const rolled = new Set(s.rolled);
    const hand = (i) => h("div", { class: "final-rack" + (i === s.player ? " current" : "") },
      h("span", { class: "final-name" }, `${names[i]} (${s.hands[i].length})`),
      groupEl(s.hands[i], { kind: game.piece, decorate: (el, p) => { if (rolled.has(p.die)) el.classList.add("rolling"); } }));
    const above = game.replayAbove(record.players);
    const below = record.players.map((_, i) => i).filter((i) => !above.includes(i));
    const table = h("div", { class: "melds replay-table" },
      s.table.length ? s.table.map((m) => h("div", { class: "meld-wrap" }, h("div", { class: "meld" }, m.map((f) => pieceEl(f, { kind: game.piece })))))
        : h("div", { class: "empty-table muted" }, t(game.emptyTable)));
    this.view.replaceChildren(h("div", { class: "replay-text" }, s.text));
    if (above.length) this.view.append(h("div", { class: "replay-racks" }, above.map(hand)));
    this.view.append(h("section", { class: "table-area" }, table), h("div", { class: "replay-racks" }, below.map(hand)));
    if (s.end) {
      this.view.append(h("div", { class: "card replay-end" },
        h("strong", {}, game.replayWinner(s.end, names)),
        h("span", {}, " " + s.end.scores.map((x, i) => `${names[i]} ${game.replayScore(x)}`).join(" · "))));
    }
  }
}
