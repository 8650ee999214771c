// @ts-check
// The game review on the replay page, read from the server's analysis (rummikub-analysis/2,
// docs/formats.md): a summary per player (accuracy, inaccuracies, mistakes, blunders, the mean
// loss), the evaluation graph (each player's win chance over the game, the mistakes marked on
// the mover's line; a click goes to that turn), the verdict line of a turn and the better move,
// laid out as the whole new table with the pieces it places and the sets it changes marked.
// A turn without win chances (an Xpress placement) is judged in points; a game with none at
// all draws its marks on one lane per player.
import { language, t } from "./i18n.js";
import { tableMarks } from "./follow.js";
import { baseOf, pieceEl, withRoles } from "./pieces.js";
import { h } from "./util.js";

// The verdicts worth going back to, mildest first, and their signs as chess writes them.
/** @type {readonly string[]} */
export const MISTAKES = ["inaccuracy", "mistake", "blunder"];
/** The most win chance (points of 100) a choice may give away and still be the best (the
 * verdicts' thresholds, docs/analysis.md). */
export const BEST_LOSS = 2.0;
/** @type {Record<string, string>} */
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

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

/** @typedef {import("./types.js").JudgedTurn} JudgedTurn */
/** @typedef {"inaccuracy" | "mistake" | "blunder"} Mistake */

/**
 * The analysis as the page uses it: its players' summaries, its turns in the order played,
 * and where each (round, turn) is among them.
 * @typedef {{players: import("./types.js").PlayerSummary[], turns: JudgedTurn[], index: Map<string, number>, puzzles: import("./types.js").GamePuzzleJson[], error?: undefined}} Analysis
 */

/**
 * The better move of a turn (`betterMove`).
 * @typedef {{action: string, placed: import("./types.js").Face[], points: number | undefined, table: import("./types.js").Table | null, changed: number[] | null}} Better
 */

/**
 * @param {number} x
 * @param {number} [digits]
 */
const percent = (x, digits = 0) => new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: digits }).format(x);
/** @param {number} x */
const decimal = (x) => new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
/**
 * @param {JudgedTurn} turn
 * @returns {turn is JudgedTurn & {chances: number[]}}
 */
const hasChances = (turn) => Array.isArray(turn.chances) && turn.chances.length > 0;
/**
 * @param {number} round
 * @param {number} turn
 */
const keyOf = (round, turn) => `${round}/${turn}`;

// The analysis as the page uses it: its turns in the order played, found by round and turn.
/**
 * @param {import("./types.js").AnalysisJson} data
 * @returns {Analysis}
 */
export function readAnalysis(data) {
  const turns = [...data.turns].sort((a, b) => a.round - b.round || a.turn - b.turn);
  return { players: data.players || [], turns, index: new Map(turns.map((x, i) => [keyOf(x.round, x.turn), i])), puzzles: data.puzzles || [] };
}

/**
 * @param {Analysis} analysis
 * @param {number} round
 * @param {number} turn
 */
export function judgedTurn(analysis, round, turn) {
  const i = analysis.index.get(keyOf(round, turn));
  return i == null ? null : analysis.turns[i];
}

// Where position (round, turn) lies on the graph: on turn `at`, or (a deal) just before turn
// `at`, the first of its round.
/**
 * @param {Analysis} analysis
 * @param {number} round
 * @param {number} turn
 * @returns {{at: number, before: boolean}}
 */
export function positionOf(analysis, round, turn) {
  const i = turn >= 0 ? analysis.index.get(keyOf(round, turn)) : undefined;
  if (i != null) return { at: i, before: false };
  const at = analysis.turns.findIndex((x) => x.round > round || (x.round === round && x.turn > turn));
  return { at: at < 0 ? analysis.turns.length : at, before: true };
}

// A summary per player: accuracy, inaccuracies, mistakes, blunders, the mean loss (points of
// win chance per move with a choice).
/**
 * @param {Analysis} analysis
 * @param {string[]} names
 */
export function summaryEl(analysis, names) {
  // a verdict's column is headed by its word and sign (a phone shows the sign only)
  const heads = [t("replay.player"), t("replay.accuracy"), t("replay.inaccuracies"), t("replay.mistakes"),
    t("replay.blunders"), t("replay.mean_loss")].map((x, i) => (i >= 2 && i <= 4 ? h("span", { class: "review-word" }, x) : x));
  const signs = [null, null, ...MISTAKES.map((v) => h("span", { class: `review-sign sign-${v}`, "aria-hidden": "true" }, SIGNS[v])), null];
  const rows = names.map((name, p) => {
    /** @type {Partial<import("./types.js").PlayerSummary>} */
    const s = analysis.players[p] || {};
    /** @type {Record<string, number>} */
    const counts = s.verdicts || {};
    return h("tr", { dataset: { player: String(p) } },
      h("th", { scope: "row" }, h("span", { class: `legend legend-${p}` }, name)),
      h("td", { class: "accuracy" }, s.accuracy == null ? "–" : percent(s.accuracy / 100, 1)),
      MISTAKES.map((v) => h("td", { class: `count count-${v}`, dataset: { verdict: v } }, String(counts[v] || 0))),
      h("td", { class: "loss" }, s.loss == null ? "–" : decimal(s.loss)));
  });
  return h("div", { class: "review-summary-box" }, h("table", { class: "review-summary" },
    h("caption", {}, t("replay.review")),
    h("thead", {}, h("tr", {}, heads.map((x, i) => h("th", { scope: "col", title: i === heads.length - 1 ? t("replay.mean_loss_title") : null },
      x, signs[i] ? " " : null, signs[i])))),
    h("tbody", {}, rows)));
}

// The positions where a player could have placed his whole rack and did not, each offered as
// a puzzle (the puzzle page, not rated) and as a way to that turn of the replay; null when
// there are none.
/**
 * @param {Analysis} analysis
 * @param {string[]} names
 * @param {(round: number, turn: number) => void} goTo
 */
export function puzzlesEl(analysis, names, goTo) {
  if (!analysis.puzzles.length) return null;
  return h("section", { class: "review-puzzles", id: "review-puzzles" },
    h("h3", {}, t("review.puzzles")),
    h("p", { class: "muted" }, t("review.puzzles_intro")),
    h("ul", {}, analysis.puzzles.map((p) => h("li", { dataset: { puzzle: p.id, player: String(p.source.player) } },
      h("span", { class: `legend legend-${p.source.player}` }, t("review.missed_go_out",
        { name: names[p.source.player] || "?", round: p.source.round + 1, turn: p.source.turn + 1 })), " ",
      h("button", { class: "btn small", type: "button", onclick: () => goTo(p.source.round, p.source.turn) }, t("review.go_to_turn")), " ",
      h("a", { class: "btn small primary", href: `/puzzles/${p.id}`, "data-link": true }, t("review.solve_puzzle"))))));
}

// The height (0..1) of player `p`'s line at turn `i`: his chance there, else the nearest
// chance of his before or after, else null.
/**
 * @param {JudgedTurn[]} turns
 * @param {number} i
 * @param {number} p
 * @returns {number | null}
 */
function heightAt(turns, i, p) {
  for (let k = i; k >= 0; k--) { const turn = turns[k]; if (hasChances(turn)) return turn.chances[p]; }
  for (let k = i + 1; k < turns.length; k++) { const turn = turns[k]; if (hasChances(turn)) return turn.chances[p]; }
  return null;
}

// The evaluation graph: each player's win chance after every turn (the lines are SVG, drawn
// to the box's width), the mistakes as marks (buttons) on the mover's line. A click on the
// graph or a mark calls `pick(turn)`. `mark(position)` moves the line of the position shown.
/**
 * @param {Analysis} analysis
 * @param {string[]} names
 * @param {(turn: JudgedTurn) => void} pick
 */
export function evalGraph(analysis, names, pick) {
  const { turns } = analysis;
  const n = Math.max(1, turns.length);
  const W = 1000, H = 100;
  const lanes = !turns.some(hasChances); // no chances at all: one lane per player
  /** @param {number} i */
  const x = (i) => ((i + 0.5) / n) * W;
  /** @param {number} v */
  const y = (v) => (1 - v) * H;
  const plot = svg("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", class: "review-svg", "aria-hidden": "true" });
  if (!lanes) for (const v of [0.25, 0.5, 0.75]) plot.append(svg("line", { x1: 0, x2: W, y1: y(v), y2: y(v), class: v === 0.5 ? "review-grid half" : "review-grid" }));
  turns.forEach((turn, i) => {
    if (i > 0 && turn.round !== turns[i - 1].round) plot.append(svg("line", { x1: (i / n) * W, x2: (i / n) * W, y1: 0, y2: H, class: "review-round" }));
  });
  /** @param {number} p */
  const lane = (p) => (p + 1) / (names.length + 1);
  names.forEach((_, p) => {
    if (lanes) {
      plot.append(svg("line", { x1: 0, x2: W, y1: y(lane(p)), y2: y(lane(p)), class: `curve curve-${p} lane` }));
      return;
    }
    const line = turns.map((turn, i) => (hasChances(turn) ? `${x(i).toFixed(1)},${y(turn.chances[p]).toFixed(1)}` : null)).filter(Boolean);
    plot.append(svg("polyline", { points: line.join(" "), class: `curve curve-${p}`, "data-player": p }));
  });
  const now = svg("line", { x1: 0, x2: 0, y1: 0, y2: H, class: "review-now" });
  plot.append(now);
  /** @type {{el: HTMLElement, i: number}[]} */
  const marks = [];
  turns.forEach((turn, i) => {
    if (!MISTAKES.includes(turn.verdict)) return;
    const p = turn.player;
    const v = lanes ? lane(p) : heightAt(turns, i, p) ?? lane(p);
    const label = t("replay.mark", { round: turn.round + 1, turn: turn.turn + 1, name: names[p], verdict: t(`verdict.${turn.verdict}`) });
    const el = h("button", { type: "button", class: `review-mark mark-${turn.verdict}`, "aria-label": label, title: label,
      dataset: { round: String(turn.round), turn: String(turn.turn), verdict: turn.verdict, player: String(p) },
      onclick: (e) => { e.stopPropagation(); pick(turn); } });
    el.style.left = `${((i + 0.5) / n) * 100}%`;
    el.style.top = `${(1 - v) * 100}%`;
    marks.push({ el, i });
  });
  const axis = lanes ? [] : /** @type {[number, string][]} */ ([[1, "100%"], [0.5, "50%"], [0, "0%"]]).map(([v, text]) => {
    const el = h("span", { class: "review-axis", "aria-hidden": "true" }, text);
    el.style.top = `${(1 - v) * 100}%`;
    return el;
  });
  // the lines, the marks and the axis's words are laid on one area, inside the box's margins
  const area = h("div", { class: "review-area" }, plot, axis, marks.map((m) => m.el));
  area.style.setProperty("--slot", `${100 / n}%`); // a turn's width: a mark's button is no wider
  const box = h("div", { class: "review-plot" + (lanes ? " lanes" : ""), role: "group", "aria-label": t(lanes ? "replay.graph_lanes" : "replay.graph") }, area);
  box.addEventListener("click", (e) => {
    const r = area.getBoundingClientRect();
    const i = Math.floor(((e.clientX - r.left) / r.width) * n);
    if (turns.length) pick(turns[Math.max(0, Math.min(turns.length - 1, i))]);
  });
  const legend = h("div", { class: "review-legend" },
    names.map((name, p) => h("span", { class: `legend legend-${p}` }, name)),
    MISTAKES.map((v) => h("span", { class: `review-key key-${v}` }, `${SIGNS[v]} ${t(`verdict.${v}`)}`)));
  return {
    el: h("div", { class: "review-graph" },
      h("div", { class: "muted" }, t(lanes ? "replay.graph_lanes" : "replay.graph")), box, legend),
    // the position shown: on turn `at` (or just before it)
    /** @param {{at: number, before: boolean}} position */
    mark: ({ at, before }) => {
      const px = (before ? at / n : (at + 0.5) / n) * W;
      now.setAttribute("x1", px.toFixed(1));
      now.setAttribute("x2", px.toFixed(1));
      for (const m of marks) m.el.classList.toggle("current", !before && m.i === at);
    },
  };
}

// The verdict of a turn in words: the verdict, the mover's win chance before and after, what
// the move cost; a turn without win chances says the points it lost.
/** @param {JudgedTurn} turn */
export function verdictText(turn) {
  const verdict = t(`verdict.${turn.verdict}`);
  const chance = turn.win_chance;
  if (!chance) return t("replay.verdict", { verdict, lost: turn.lost });
  const vars = { verdict, before: percent(chance.before), after: percent(chance.after) };
  const loss = turn.loss ?? 0; // a turn with win chances has its loss
  return loss >= 0.05 ? t("replay.verdict_chance", { ...vars, loss: decimal(loss) }) : t("replay.verdict_even", vars);
}

/**
 * @param {import("./types.js").Face[]} faces
 * @returns {Map<string, number>}
 */
function counts(faces) {
  const c = new Map();
  for (const f of faces) c.set(baseOf(f), (c.get(baseOf(f)) || 0) + 1);
  return c;
}

/**
 * @param {import("./types.js").Face[]} a
 * @param {import("./types.js").Face[]} b
 */
const sameFaces = (a, b) => {
  if (a.length !== b.length) return false;
  const c = counts(a);
  return b.every((f) => { const k = baseOf(f); const m = c.get(k) ?? 0; if (!(m > 0)) return false; c.set(k, m - 1); return true; });
};

/**
 * What the mover should have kept before his throw (an Xpress turn), or null when his choice
 * was as good: it gave away more win chance than the best choice may (or, in an analysis
 * without win chances, fewer expected points).
 * @param {import("./types.js").JudgedTurn} turn
 * @returns {string | null}
 */
export function betterThrowText(turn) {
  const choice = turn.throw;
  if (!choice || sameFaces(choice.kept, choice.best_kept)) return null;
  const tiles = choice.best_kept.join(" ") || t("replay.keep_nothing");
  if (choice.loss !== undefined) {
    return choice.loss > BEST_LOSS ? t("replay.better_throw_chance", { tiles, loss: decimal(choice.loss) }) : null;
  }
  return choice.lost > 0 ? t("replay.better_throw", { tiles, points: choice.lost }) : null;
}

// The better move of a turn that was not the best (null when there is none to show):
// {action, placed, points, table (the whole table after it, or null), changed (indices)}.
/**
 * @param {JudgedTurn | null} turn
 * @param {import("./pieces.js").PieceKind} piece
 * @returns {Better | null}
 */
export function betterMove(turn, piece) {
  if (!turn || ["best", "forced"].includes(turn.verdict)) return null;
  // an analysis of the first format names no action: it had a table when something could be placed
  const action = turn.best_action || (turn.best ? (piece === "die" ? "place" : "play") : null);
  if (!action) return null;
  const placed = turn.best_placed || [];
  if (action === turn.action && sameFaces(placed, turn.placed || [])) return null; // the throw was the fault
  return { action, placed, points: turn.best_points, table: turn.best || null, changed: turn.best_changed || null };
}

// The better move in words: "Better: play R10 R11 R12 R13 (worth 46)", "Better: draw".
/** @param {Better} better */
export function betterText(better) {
  const vars = { tiles: better.placed.join(" "), points: better.points };
  if (better.action === "play") return t("replay.better_play", vars);
  if (better.action === "place") return t("replay.better_line", vars);
  if (better.action === "draw") return t("replay.better_draw");
  if (better.action === "pass") return t("replay.better_pass");
  return t("replay.better_end");
}

// The whole table after the better move: its new or changed sets framed, in them the pieces it
// places (from the rack) and the pieces it moves from another set marked; `before` is the
// table before the turn. `numbers`: the rules' highest number (a joker's role in a run).
/**
 * @param {Better} better (one with a table)
 * @param {import("./types.js").Table} before
 * @param {{piece: import("./pieces.js").PieceKind, numbers: number}} how
 */
export function betterTableEl(better, before, { piece, numbers }) {
  const table = better.table || [];
  const marks = tableMarks(before, table);
  const changed = new Set(better.changed ?? marks.flatMap((m, i) => (m.some(Boolean) ? [i] : [])));
  const placed = counts(better.placed);
  /** @param {string} k */
  const take = (k) => { const m = placed.get(k) ?? 0; if (!(m > 0)) return false; placed.set(k, m - 1); return true; };
  const melds = table.map((m, i) => {
    const shown = piece === "tile" ? withRoles(m, numbers) : m;
    const pieces = shown.map((f, j) => {
      const el = pieceEl(f, { kind: piece });
      if (changed.has(i) && take(baseOf(f))) el.classList.add("best-placed");
      else if (changed.has(i) && marks[i][j]) el.classList.add("best-moved");
      return el;
    });
    return h("div", { class: "meld-wrap" }, h("div", { class: "meld" + (changed.has(i) ? " best-changed" : ""), dataset: { changed: String(changed.has(i)) } }, pieces));
  });
  const key = h("div", { class: "review-better-key" },
    h("span", { class: "legend-mark best-placed" }, t("replay.key_placed")),
    h("span", { class: "legend-mark best-moved" }, t("replay.key_moved")),
    h("span", { class: "legend-mark best-changed" }, t("replay.key_changed")));
  return { melds, key };
}
