// The replay page of a finished game, for both games: step through every position with the
// buttons, the slider or the arrow keys. The record (in the store) is read into steps
// (records.js); the game's adapter says which pieces to draw and how to word the counter and
// the ends of rounds.
import { t, translate } from "./i18n.js";
import { gameOfRecord } from "./games.js";
import { groupEl, pieceEl, withRoles } from "./pieces.js";
import { playerNames, readRecord } from "./records.js";
import { getState, subscribe, update } from "./store.js";
import { h, getJSON, icon } from "./util.js";

const SVG = "http://www.w3.org/2000/svg";
const svg = (tag, attrs = {}) => {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
};

// Each player's standing over the game: the points left in his rack (or hand) at every
// position, one line per player, and a marker at the position shown.
function standingsChart(steps, names, valueOf) {
  const points = steps.map((s) => s.hands.map((hand) => hand.reduce((a, p) => a + valueOf(p.face), 0)));
  const top = Math.max(1, ...points.flat());
  const width = 600, height = 120, last = Math.max(1, steps.length - 1);
  const x = (i) => (i / last) * width;
  const y = (v) => height - (v / top) * height;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "standings", role: "img", "aria-label": t("replay.standings") });
  names.forEach((_, p) => {
    const line = points.map((row, i) => `${x(i).toFixed(1)},${y(row[p]).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", { points: line, class: `curve curve-${p}`, fill: "none" }));
  });
  const marker = svg("line", { x1: 0, x2: 0, y1: 0, y2: height, class: "standings-marker" });
  chart.append(marker);
  const legend = h("div", { class: "standings-legend" },
    names.map((n, p) => h("span", { class: `legend legend-${p}` }, n)));
  return { el: h("div", { class: "standings-box" }, h("div", { class: "muted" }, t("replay.standings")), chart, legend),
    mark: (i) => { marker.setAttribute("x1", x(i).toFixed(1)); marker.setAttribute("x2", x(i).toFixed(1)); } };
}

export class ReplayPage {
  // `analyse`: ask for the game's analysis as soon as the record is in (the score card's link).
  constructor(root, code, { analyse = false } = {}) {
    this.root = root;
    this.code = code;
    this.analyseAtOnce = analyse;
    this.built = false;
    this.onKey = (e) => {
      if (e.key === "ArrowRight") this.go(1);
      if (e.key === "ArrowLeft") this.go(-1);
    };
    document.addEventListener("keydown", this.onKey);
    update((s) => {
      s.replay = { code, record: null, error: null, index: 0, analysis: null, analysing: false, better: false };
    });
    this.unsubscribe = subscribe((s, what) => this.render(what));
    this.load();
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    this.unsubscribe();
    update((s) => { s.replay = null; });
  }

  async load() {
    let record = null, error = null;
    try {
      record = await getJSON(`/api/rooms/${this.code}/record`);
    } catch (err) {
      error = err && err.error ? err.error : "";
    }
    update((s) => { if (s.replay && s.replay.code === this.code) Object.assign(s.replay, { record, error }); });
    if (record && this.analyseAtOnce) this.analyse();
  }

  // The analysis of the game (every turn judged against the best move), asked for once.
  async analyse() {
    const r = getState().replay;
    if (!r || r.analysis || r.analysing) return;
    update((s) => { s.replay.analysing = true; });
    let analysis = null;
    try {
      const data = await getJSON(`/api/rooms/${this.code}/analysis`);
      analysis = {};
      for (const turn of data.turns) analysis[`${turn.round}/${turn.turn}`] = turn;
    } catch (err) {
      analysis = { error: err && err.error ? err.error : t("replay.unavailable") };
    }
    update((s) => { if (s.replay && s.replay.code === this.code) Object.assign(s.replay, { analysis, analysing: false }); });
  }

  // Step `by` positions on (the store keeps the position).
  go(by) {
    if (!this.steps) return;
    update((s) => { s.replay.index = Math.max(0, Math.min(this.steps.length - 1, s.replay.index + by)); });
  }

  jump(to) {
    if (this.steps) update((s) => { s.replay.index = Math.max(0, Math.min(this.steps.length - 1, to)); });
  }

  render(what) {
    const r = getState().replay;
    if (!r || (r.record == null && r.error == null)) return;
    if (!this.built || what === "language") {
      this.built = true;
      this.build(r);
    }
    if (this.steps) this.draw(r);
  }

  // The page (again when the language changes: the steps' words are in it).
  build(r) {
    this.root.replaceChildren();
    const game = r.record && gameOfRecord(r.record.format);
    this.game = game;
    this.steps = null;
    if (!game) {
      this.root.append(h("div", { class: "card center" }, h("h2", {}, t("replay.unavailable")),
        h("p", { class: "muted" }, r.error || ""),
        h("a", { class: "btn", href: "/", "data-link": true }, t("room.back"))));
      return;
    }
    const record = r.record;
    this.steps = readRecord(record);
    const last = this.steps.length - 1;
    const names = playerNames(record);
    this.slider = h("input", { type: "range", min: 0, max: last, value: r.index, id: "replay-slider", "aria-label": t("replay.position") });
    this.slider.addEventListener("input", () => this.jump(Number(this.slider.value)));
    this.counter = h("span", { class: "replay-counter" });
    this.view = h("div", { class: "replay-view" + (game.css ? ` ${game.css}-replay` : "") });
    this.chart = standingsChart(this.steps, names, (face) => game.value(face, record.rules));
    const button = (id, title, name, onclick) => h("button", { class: "btn", id, onclick, title: t(title), "aria-label": t(title) }, icon(name));
    this.root.append(h("div", { class: "replay" },
      h("div", { class: "replay-head" }, h("h2", {}, game.replayTitle(this.code)),
        h("p", { class: "muted" }, names.map((n, i) => `${n}: ${game.formatScore(record.totals[i])}`).join(" · "))),
      h("div", { class: "replay-controls" },
        button("replay-first", "replay.first", "first", () => this.jump(0)),
        button("replay-prev", "replay.prev", "prev", () => this.go(-1)),
        button("replay-next", "replay.next", "next", () => this.go(1)),
        button("replay-last", "replay.last", "last", () => this.jump(last)),
        this.slider, this.counter,
        h("button", { class: "btn", id: "replay-analyse", onclick: () => this.analyse() }, t("replay.analyse"))),
      this.view, this.chart.el));
    translate(this.root);
  }

  draw(r) {
    const { game } = this;
    const players = r.record.players;
    const names = playerNames(r.record);
    const s = this.steps[r.index];
    this.slider.value = String(r.index);
    this.chart.mark(r.index);
    this.counter.textContent = game.replayCounter(s, r.index + 1, this.steps.length);
    const rolled = new Set(s.rolled);
    const hand = (i) => h("div", { class: "final-rack" + (i === s.player ? " current" : "") },
      h("span", { class: "final-name" }, `${names[i]} (${s.hands[i].length})`),
      groupEl(s.hands[i], { kind: game.piece, decorate: (el, p) => { if (rolled.has(p.die)) el.classList.add("rolling"); } }));
    const above = game.replayAbove(players);
    const below = players.map((_, i) => i).filter((i) => !above.includes(i));
    const judged = r.analysis && s.turn >= 0 ? r.analysis[`${s.round}/${s.turn}`] : null;
    // the better placement (an Xpress turn may have lost its points in the throw alone)
    const placementLost = judged ? judged.lost - (judged.throw ? judged.throw.lost : 0) : 0;
    const better = judged && judged.best && !["best", "forced"].includes(judged.verdict)
      && (placementLost > 0 || (judged.findings || []).includes("missed-out")) ? judged : null;
    const shownTable = better && r.better ? better.best : s.table;
    const table = h("div", { class: "melds replay-table" + (shownTable !== s.table ? " better" : "") },
      shownTable.length ? shownTable.map((m) => h("div", { class: "meld-wrap" }, h("div", { class: "meld" }, (game.piece === "tile" ? withRoles(m, (r.record.rules && r.record.rules.numbers) || 13) : m).map((f) => pieceEl(f, { kind: game.piece })))))
        : h("div", { class: "empty-table muted" }, t(game.emptyTable)));
    this.view.replaceChildren(h("div", { class: "replay-text" }, s.text));
    if (r.analysing) this.view.append(h("div", { class: "replay-verdict muted" }, t("replay.analysing")));
    if (r.analysis && r.analysis.error) this.view.append(h("div", { class: "replay-verdict muted" }, r.analysis.error));
    if (judged) {
      const line = h("div", { class: `replay-verdict verdict-${judged.verdict}`, "data-verdict": judged.verdict },
        t("replay.verdict", { verdict: t(`verdict.${judged.verdict}`), lost: judged.lost }));
      for (const f of judged.findings || []) line.append(" · ", h("span", { class: "finding", dataset: { finding: f } }, t(`finding.${f}`)));
      if (better) {
        line.append(" · ", t("replay.better_line", { tiles: better.best_placed.join(" "), points: better.best_points }), " ",
          h("button", { class: "btn small", id: "replay-better", onclick: () => update((st) => { st.replay.better = !st.replay.better; }) },
            t(r.better ? "replay.show_played" : "replay.show_better")));
      }
      if (judged.throw && judged.throw.lost > 0) {
        const kept = judged.throw.best_kept.join(" ") || t("replay.keep_nothing");
        line.append(" · ", h("span", { class: "better-throw" }, t("replay.better_throw", { tiles: kept, points: judged.throw.lost })));
      }
      this.view.append(line);
    }
    if (above.length) this.view.append(h("div", { class: "replay-racks" }, above.map(hand)));
    this.view.append(h("section", { class: "table-area" }, table), h("div", { class: "replay-racks" }, below.map(hand)));
    if (s.end) {
      this.view.append(h("div", { class: "card replay-end" },
        h("strong", {}, game.replayWinner(s.end, names)),
        h("span", {}, " " + s.end.scores.map((x, i) => `${names[i]} ${game.replayScore(x)}`).join(" · "))));
    }
  }
}
