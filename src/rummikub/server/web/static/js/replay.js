// @ts-check
// The replay page of a finished game, for both games: step through every position with the
// buttons, the slider or the arrow keys. The record (in the store) is read into steps
// (records.js); the game's adapter says which pieces to draw and how to word the counter and
// the ends of rounds. **Analyse** adds the game review (review.js): the summary per player,
// the evaluation graph, the verdict of every turn and the better move; Shift+←/→ go to the
// previous and next mistake.
import { t, translate } from "./i18n.js";
import { gameOfRecord } from "./games.js";
import { groupEl, pieceEl, withRoles } from "./pieces.js";
import { playerNames, readRecord } from "./records.js";
import { MISTAKES, betterMove, betterThrowText, betterTableEl, betterText, evalGraph, judgedTurn, positionOf, puzzlesEl, readAnalysis, summaryEl, verdictText } from "./review.js";
import { getState, subscribe, update } from "./store.js";
import { h, getJSON, icon, keepFocus } from "./util.js";
import { moveList } from "./movelist.js";

/** @typedef {import("./types.js").Step} Step */
/** @typedef {import("./store.js").ReplayState} ReplayState */

const SVG = "http://www.w3.org/2000/svg";
/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 */
const svg = (tag, attrs = {}) => {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
};

// Each player's standing over the game: the points left in his rack (or hand) at every
// position, one line per player, and a marker at the position shown.
/**
 * @param {Step[]} steps
 * @param {string[]} names
 * @param {(face: string) => number} valueOf
 * @param {string} title the chart's title (its key: the game's words, rack or hand)
 */
function standingsChart(steps, names, valueOf, title) {
  const points = steps.map((s) => s.hands.map((hand) => hand.reduce((a, p) => a + valueOf(p.face), 0)));
  const top = Math.max(1, ...points.flat());
  const width = 600, height = 120, last = Math.max(1, steps.length - 1);
  /** @param {number} i */
  const x = (i) => (i / last) * width;
  /** @param {number} v */
  const y = (v) => height - (v / top) * height;
  // the chart spans its box (stretched; its strokes keep their width)
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "none", class: "standings", role: "img", "aria-label": t(title) });
  names.forEach((_, p) => {
    const line = points.map((row, i) => `${x(i).toFixed(1)},${y(row[p]).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", { points: line, class: `curve curve-${p}`, fill: "none" }));
  });
  const marker = svg("line", { x1: 0, x2: 0, y1: 0, y2: height, class: "standings-marker" });
  chart.append(marker);
  const legend = h("div", { class: "standings-legend" },
    names.map((n, p) => h("span", { class: `legend legend-${p}` }, n)));
  return { el: h("div", { class: "standings-box" }, h("div", { class: "muted" }, t(title)), chart, legend),
    /** @param {number} i */
    mark: (i) => { marker.setAttribute("x1", x(i).toFixed(1)); marker.setAttribute("x2", x(i).toFixed(1)); } };
}

// The analysis being made: how many turns the server has judged, of all, once it says (until
// then, or when it knows of none: a bar that only says it is busy).
/** @param {ReplayState["progress"]} progress */
function progressEl(progress) {
  const known = progress != null && progress.total > 0;
  const words = known ? { done: progress.done, total: progress.total } : undefined;
  const fill = h("div", { class: "progress-fill" });
  const bar = h("div", { class: "progress" + (known ? "" : " indeterminate"), role: "progressbar",
    "aria-label": t("replay.analysing"), "aria-valuemin": 0,
    "aria-valuemax": known ? progress.total : null, "aria-valuenow": known ? progress.done : null,
    "aria-valuetext": known ? t("replay.analysing_turns", words) : null }, fill);
  if (known) fill.style.width = `${Math.min(100, (100 * progress.done) / progress.total).toFixed(1)}%`;
  return h("div", { class: "replay-verdict replay-progress muted", id: "replay-progress" },
    h("span", {}, known ? t("replay.analysing_progress", words) : t("replay.analysing")), bar);
}

// Ask the server every PROGRESS_POLL ms how far the analysis of `code` is, handing each
// answer of one being made to `seen`, until the returned function is called.
const PROGRESS_POLL = 1000;
/**
 * @param {string} code
 * @param {(progress: {done: number, total: number}) => void} seen
 */
function pollProgress(code, seen) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let stopped = false;
  const poll = async () => {
    /** @type {import("./types.js").AnalysisProgress | null} */
    let p = null;
    try {
      p = await getJSON(`/api/rooms/${code}/analysis/progress`);
    } catch {
      p = null; // a refusal or a lost connection: the analysis's own answer will say
    }
    if (stopped) return;
    if (p && p.state === "running") seen({ done: p.done, total: p.total });
    timer = setTimeout(poll, PROGRESS_POLL);
  };
  timer = setTimeout(poll, PROGRESS_POLL);
  return () => { stopped = true; clearTimeout(timer); };
}

/**
 * The parts of the page build() makes, which draw() fills.
 * @typedef {object} Parts
 * @property {import("./types.js").GameAdapter} game
 * @property {import("./types.js").GameRecord} record
 * @property {HTMLInputElement} slider
 * @property {HTMLElement} counter
 * @property {HTMLElement} view
 * @property {ReturnType<typeof standingsChart>} chart
 * @property {HTMLElement} reviewBox
 * @property {HTMLButtonElement} analyseButton
 * @property {ReturnType<typeof moveList>} moves the list of moves beside the position
 */

export class ReplayPage {
  // `analyse`: ask for the game's analysis as soon as the record is in (the score card's link).
  /**
   * @param {HTMLElement} root
   * @param {string} code
   * @param {{analyse?: boolean}} [options]
   */
  constructor(root, code, { analyse = false } = {}) {
    this.root = root;
    this.code = code;
    this.analyseAtOnce = analyse;
    this.built = false;
    /** @type {Parts | null} */
    this.parts = null;
    /** @type {Step[] | null} */
    this.steps = null;
    /** @type {Map<string, number>} */
    this.stepOfTurn = new Map();
    /** @type {import("./review.js").Analysis | null} */
    this.reviewOf = null; // the analysis the review box shows
    /** @type {ReturnType<typeof evalGraph> | null} */
    this.graph = null;
    /** @type {(() => void) | null} */
    this.stopProgress = null;
    /** @param {KeyboardEvent} e */
    this.onKey = (e) => {
      // a field takes its own keys (the slider steps by itself)
      const target = /** @type {Partial<Element> | null} */ (e.target);
      if (e.ctrlKey || e.metaKey || e.altKey || (target && target.closest && target.closest("input, select, textarea"))) return;
      // the next and previous mistake as the terminal's replay has them too: ] [ and N, Shift+N
      const mistake = /** @type {Record<string, number>} */ ({ "]": 1, "[": -1, n: 1, N: -1 })[e.key];
      if (mistake) this.mistake(mistake);
      else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        const by = e.key === "ArrowRight" ? 1 : -1;
        if (e.shiftKey) this.mistake(by);
        else this.go(by);
      } else return;
      e.preventDefault();
    };
    document.addEventListener("keydown", this.onKey);
    update((s) => {
      s.replay = { code, record: null, error: null, index: 0, analysis: null, analysing: false, progress: null, better: false };
    });
    this.unsubscribe = subscribe((s, what) => this.render(what));
    this.load();
  }

  destroy() {
    if (this.stopProgress) this.stopProgress();
    document.removeEventListener("keydown", this.onKey);
    this.unsubscribe();
    update((s) => { s.replay = null; });
  }

  async load() {
    /** @type {import("./types.js").GameRecord | null} */
    let record = null;
    /** @type {string | null} */
    let error = null;
    try {
      record = await getJSON(`/api/rooms/${this.code}/record`);
    } catch (err) {
      const refusal = /** @type {Partial<import("./types.js").HttpError> | null} */ (err);
      error = refusal && refusal.error ? refusal.error : "";
    }
    update((s) => { if (s.replay && s.replay.code === this.code) Object.assign(s.replay, { record, error }); });
    if (record && this.analyseAtOnce) this.analyse();
  }

  // The analysis of the game (every turn judged against the best move), asked for once (and
  // again after a failure). While it is made the page polls how far it is (the progress bar).
  async analyse() {
    const r = getState().replay;
    if (!r || (r.analysis && r.analysis.turns) || r.analysing) return;
    update((s) => { if (s.replay) { s.replay.analysing = true; s.replay.progress = null; } });
    /** @param {import("./store.js").State} s */
    const ours = (s) => (s.replay && s.replay.code === this.code ? s.replay : null);
    const stop = pollProgress(this.code, (progress) => {
      const now = getState().replay;
      if (!now || !now.analysing || (now.progress && now.progress.done === progress.done && now.progress.total === progress.total)) return;
      update((s) => { const replay = ours(s); if (replay && replay.analysing) replay.progress = progress; });
    });
    this.stopProgress = stop;
    /** @type {ReplayState["analysis"]} */
    let analysis = null;
    try {
      analysis = readAnalysis(await getJSON(`/api/rooms/${this.code}/analysis`));
    } catch (err) {
      const refusal = /** @type {Partial<import("./types.js").HttpError> | null} */ (err);
      analysis = { error: refusal && refusal.error ? refusal.error : t("replay.unavailable") };
    } finally {
      stop();
      this.stopProgress = null;
    }
    update((s) => { const replay = ours(s); if (replay) Object.assign(replay, { analysis, analysing: false, progress: null }); });
  }

  // Step `by` positions on (the store keeps the position).
  /** @param {number} by */
  go(by) {
    const steps = this.steps;
    if (!steps) return;
    update((s) => { if (s.replay) s.replay.index = Math.max(0, Math.min(steps.length - 1, s.replay.index + by)); });
  }

  /** @param {number} to */
  jump(to) {
    const steps = this.steps;
    if (steps) update((s) => { if (s.replay) s.replay.index = Math.max(0, Math.min(steps.length - 1, to)); });
  }

  // The position after judged turn `turn` (an Xpress turn's last action).
  /** @param {import("./types.js").JudgedTurn} turn */
  goToTurn(turn) {
    const i = this.stepOfTurn && this.stepOfTurn.get(`${turn.round}/${turn.turn}`);
    if (i != null) this.jump(i);
  }

  // The position turn `turn` of round `round` was played in (the step before it).
  /** @param {number} round @param {number} turn */
  goToPosition(round, turn) {
    const i = this.stepOfTurn && this.stepOfTurn.get(`${round}/${turn}`);
    if (i != null) this.jump(Math.max(0, i - 1));
  }

  // The next (`by` 1) or previous (-1) inaccuracy, mistake or blunder of the game.
  /** @param {number} by */
  mistake(by) {
    const r = getState().replay;
    if (!this.steps || !r || !r.analysis || !r.analysis.turns) return;
    const at = r.analysis.turns.filter((x) => MISTAKES.includes(x.verdict))
      .map((x) => this.stepOfTurn.get(`${x.round}/${x.turn}`)).filter((i) => i != null);
    const to = by > 0 ? at.find((i) => i > r.index) : at.reverse().find((i) => i < r.index);
    if (to != null) this.jump(to);
  }

  /** @param {import("./store.js").What} [what] */
  render(what) {
    const r = getState().replay;
    if (!r || (r.record == null && r.error == null)) return;
    if (!this.built || what === "language") {
      this.built = true;
      this.build(r);
    }
    // a button pressed (the better play, a mark) keeps the focus while the view is drawn again
    if (this.steps) keepFocus(this.root, () => this.draw(r));
  }

  // The page (again when the language changes: the steps' words are in it).
  /** @param {ReplayState} r */
  build(r) {
    this.root.replaceChildren();
    const record = r.record;
    const game = record && gameOfRecord(record.format);
    this.parts = null;
    this.steps = null;
    if (!record || !game) {
      this.root.append(h("div", { class: "card center" }, h("h2", {}, t("replay.unavailable")),
        h("p", { class: "muted" }, r.error || ""),
        h("a", { class: "btn", href: "/", "data-link": true }, t("room.back"))));
      return;
    }
    this.steps = readRecord(record);
    // the position each turn leads to (an Xpress turn: its last action)
    this.stepOfTurn = new Map();
    this.steps.forEach((s, i) => { if (s.turn >= 0) this.stepOfTurn.set(`${s.round}/${s.turn}`, i); });
    const last = this.steps.length - 1;
    const names = playerNames(record);
    const slider = h("input", { type: "range", min: 0, max: last, value: r.index, id: "replay-slider", "aria-label": t("replay.position") });
    slider.addEventListener("input", () => this.jump(Number(slider.value)));
    const parts = {
      game, record, slider,
      counter: h("span", { class: "replay-counter" }),
      view: h("div", { class: "replay-view" + (game.css ? ` ${game.css}-replay` : "") }),
      chart: standingsChart(this.steps, names, (face) => game.value(face, record.rules), game.standings),
      reviewBox: h("section", { class: "review", id: "replay-review", hidden: true }),
      analyseButton: h("button", { class: "btn", id: "replay-analyse", onclick: () => this.analyse() }, t("replay.analyse")),
      moves: moveList(this.steps, (i) => this.jump(i)),
    };
    this.parts = parts;
    this.reviewOf = null; // the analysis the review box shows
    this.graph = null;
    /**
     * @param {string} id
     * @param {string} title
     * @param {string} name
     * @param {() => void} onclick
     */
    const button = (id, title, name, onclick) => h("button", { class: "btn", id, onclick, title: t(title), "aria-label": t(title) }, icon(name));
    this.root.append(h("div", { class: "replay" },
      h("div", { class: "replay-head" }, h("h2", {}, game.replayTitle(this.code)),
        h("p", { class: "muted" }, names.map((n, i) => `${n}: ${game.formatScore(record.totals[i])}`).join(" · "))),
      h("div", { class: "replay-controls" },
        button("replay-first", "replay.first", "first", () => this.jump(0)),
        button("replay-prev", "replay.prev", "prev", () => this.go(-1)),
        button("replay-next", "replay.next", "next", () => this.go(1)),
        button("replay-last", "replay.last", "last", () => this.jump(last)),
        parts.slider, parts.counter, parts.analyseButton),
      parts.reviewBox, h("div", { class: "replay-body" }, parts.view, parts.moves.el), parts.chart.el));
    translate(this.root);
  }

  // The review of the game, once its analysis is in: the summary, the graph, the way from
  // mistake to mistake.
  /**
   * @param {Parts} parts
   * @param {import("./review.js").Analysis} analysis
   * @param {string[]} names
   */
  drawReview(parts, analysis, names) {
    this.reviewOf = analysis;
    const graph = evalGraph(analysis, names, (turn) => this.goToTurn(turn));
    this.graph = graph;
    /**
     * @param {string} id
     * @param {string} key
     * @param {number} by
     */
    const nav = (id, key, by) => h("button", { class: "btn small", id, title: t(key), onclick: () => this.mistake(by) }, t(key));
    parts.reviewBox.replaceChildren(summaryEl(analysis, names), graph.el,
      h("div", { class: "review-nav" },
        nav("review-prev", "replay.prev_mistake", -1), nav("review-next", "replay.next_mistake", 1),
        h("span", { class: "muted" }, t("replay.review_keys"))));
    const puzzles = puzzlesEl(analysis, names, (round, turn) => this.goToPosition(round, turn));
    if (puzzles) parts.reviewBox.append(puzzles);
    parts.reviewBox.hidden = false;
    return graph;
  }

  // The table before the turn that led to step `i` (its first action's position before).
  /**
   * @param {Step[]} steps
   * @param {number} i
   */
  tableBefore(steps, i) {
    const s = steps[i];
    let k = i;
    while (k > 0 && steps[k - 1].round === s.round && steps[k - 1].turn === s.turn) k--;
    return k > 0 && steps[k - 1].round === s.round ? steps[k - 1].table : [];
  }

  /** @param {ReplayState} r */
  draw(r) {
    const { parts, steps } = this;
    if (!parts || !steps) return; // no record to show
    const { game, record } = parts;
    const players = record.players;
    const names = playerNames(record);
    const s = steps[r.index];
    parts.slider.value = String(r.index);
    parts.chart.mark(r.index);
    parts.moves.mark(r.index);
    parts.counter.textContent = game.replayCounter(s, r.index + 1, steps.length);
    const analysis = r.analysis && r.analysis.turns ? r.analysis : null;
    parts.analyseButton.disabled = Boolean(r.analysing || analysis);
    const graph = analysis && this.reviewOf !== analysis ? this.drawReview(parts, analysis, names) : this.graph;
    if (analysis && graph) graph.mark(positionOf(analysis, s.round, s.turn));
    if (analysis) parts.moves.annotate(analysis);
    const rolled = new Set(s.rolled);
    /** @param {number} i */
    const hand = (i) => h("div", { class: "final-rack" + (i === s.player ? " current" : "") },
      h("span", { class: "final-name" }, `${names[i]} (${s.hands[i].length})`),
      groupEl(s.hands[i], { kind: game.piece, decorate: (el, p) => { if (p.die != null && rolled.has(p.die)) el.classList.add("rolling"); } }));
    const above = game.replayAbove(players);
    const below = players.map((_, i) => i).filter((i) => !above.includes(i));
    const judged = analysis && s.turn >= 0 ? judgedTurn(analysis, s.round, s.turn) : null;
    const better = betterMove(judged, game.piece);
    /** @type {import("./types.js").Rules} */
    const rules = record.rules;
    const numbers = (rules && rules.numbers) || 13;
    let table, key = null;
    if (better && better.table && r.better) {
      const shown = betterTableEl(better, this.tableBefore(steps, r.index), { piece: game.piece, numbers });
      table = h("div", { class: "melds replay-table better" }, shown.melds);
      key = shown.key;
    } else {
      table = h("div", { class: "melds replay-table" },
        s.table.length ? s.table.map((m) => h("div", { class: "meld-wrap" }, h("div", { class: "meld" }, (game.piece === "tile" ? withRoles(m, numbers) : m).map((f) => pieceEl(f, { kind: game.piece })))))
          : h("div", { class: "empty-table muted" }, t(game.emptyTable)));
    }
    parts.view.replaceChildren(h("div", { class: "replay-text" }, s.text));
    if (r.analysing) parts.view.append(progressEl(r.progress));
    if (r.analysis && r.analysis.error) parts.view.append(h("div", { class: "replay-verdict muted" }, r.analysis.error));
    if (judged) {
      const line = h("div", { class: `replay-verdict verdict-${judged.verdict}`, dataset: { verdict: judged.verdict } },
        h("span", { class: "verdict-text" }, verdictText(judged)));
      for (const f of judged.findings || []) line.append(" · ", h("span", { class: "finding", dataset: { finding: f } }, t(`finding.${f}`)));
      if (better) {
        line.append(" · ", h("span", { class: "better-move", dataset: { action: better.action } }, betterText(better)));
        if (better.table) {
          line.append(" ", h("button", { class: "btn small", id: "replay-better",
            onclick: () => update((st) => { if (st.replay) st.replay.better = !st.replay.better; }) },
          t(r.better ? "replay.show_played" : "replay.show_better")));
        }
      }
      const throwText = betterThrowText(judged);
      if (throwText) line.append(" · ", h("span", { class: "better-throw" }, throwText));
      parts.view.append(line);
    }
    if (above.length) parts.view.append(h("div", { class: "replay-racks" }, above.map(hand)));
    parts.view.append(h("section", { class: "table-area" }, table, key), h("div", { class: "replay-racks" }, below.map(hand)));
    if (s.end) {
      parts.view.append(h("div", { class: "card replay-end" },
        h("strong", {}, game.replayWinner(s.end, names)),
        h("span", {}, " " + s.end.scores.map((x, i) => `${names[i]} ${game.replayScore(x)}`).join(" · "))));
    }
  }
}
