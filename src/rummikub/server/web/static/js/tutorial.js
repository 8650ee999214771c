// @ts-check
// A short interactive tutorial for a first game, played in the page alone (no server): make a
// set, the opening, rearranging a run, a joker. Each lesson sets a rack and a table; the player
// drags (or taps) tiles as in the game, and the lesson is done when the table is right.
import { t, translate } from "./i18n.js";
import { parseFace, pieceEl, withRoles } from "./pieces.js";
import { draggable } from "./drag.js";
import { movePiece, startTurn } from "./turn.js";
import { h } from "./util.js";

// A set as the rules read it: its value, or null if it is not a set (3+ tiles; a run of one
// colour and numbers in a row, or a group of one number in different colours; jokers fill in).
/**
 * @param {import("./types.js").Face[]} faces
 * @param {number} [top]
 * @returns {number | null}
 */
export function setValue(faces, top = 13) {
  const n = faces.length;
  const ps = faces.map(parseFace);
  const real = ps.filter((p) => !p.joker);
  if (n < 3 || !real.length) return null;
  const colours = new Set(real.map((p) => p.colour));
  if (n <= 4 && real.every((p) => p.number === real[0].number) && colours.size === real.length) return real[0].number * n;
  if (colours.size !== 1) return null;
  const nums = real.map((p) => p.number).sort((a, b) => a - b);
  if (new Set(nums).size !== nums.length || nums[nums.length - 1] - nums[0] + 1 > n || n > top) return null;
  const start = Math.min(nums[0], top - n + 1);
  return n * start + (n * (n - 1)) / 2;
}

// Each lesson: the table and the rack it starts from, and when it is done (`table`: the sets
// of faces, `left`: the rack left, `start`: the lesson's table).
/** @typedef {{table: import("./types.js").Table, left: import("./types.js").Face[], start?: import("./types.js").Table}} LessonState */
/** @type {{key: string, table: import("./types.js").Table, rack: import("./types.js").Face[], done: (st: LessonState) => boolean}[]} */
const LESSONS = [
  { key: "set", table: [], rack: ["R3", "R4", "R5", "B9", "K12"],
    done: ({ table }) => table.length === 1 && setValue(table[0]) != null },
  { key: "opening", table: [], rack: ["K10", "B10", "O10", "R2", "R3", "B6"],
    done: ({ table }) => table.length > 0 && table.every((m) => setValue(m) != null)
      && table.reduce((a, m) => a + (setValue(m) ?? 0), 0) >= 30 },
  { key: "rearrange", table: [["B3", "B4", "B5", "B6"]], rack: ["K6", "O6"],
    done: ({ table, left }) => !left.length && table.every((m) => setValue(m) != null) },
  { key: "joker", table: [["K8", "J", "K10"]], rack: ["K9", "R2", "R3"],
    done: ({ table, left }) => !left.length && table.every((m) => setValue(m) != null) },
];

// The number a piece shows or stands for ("R7" 7, "J=R6" 6, "J=7" 7).
/** @param {import("./types.js").Face} face */
function number(face) {
  const p = parseFace(face);
  return p.joker ? Number((p.role || "0").replace(/^[A-Z]/, "")) : p.number;
}

/**
 * After a move on a practice table (the tutorial's, a puzzle's): each set takes the roles of
 * its jokers again, as the server would read them, and a valid set is laid in the order of
 * its numbers.
 * @param {import("./turn.js").Turn} turn
 */
export function settleSets(turn) {
  turn.melds.forEach((m) => {
    const faces = withRoles(m.map((x) => (x.s.startsWith("J") ? "J" : x.s)));
    m.forEach((x, i) => { x.s = faces[i]; });
    if (setValue(faces) != null) m.sort((a, b) => number(a.s) - number(b.s));
  });
}

/**
 * A piece of a practice table to drag, or to tap (picked up, put down).
 * @param {import("./turn.js").Item} x
 * @param {object} how
 * @param {Element} how.root where drop targets are found
 * @param {boolean} how.selected whether it is the piece picked up
 * @param {() => boolean} how.canMove
 * @param {() => void} how.tap
 * @param {(target: import("./drag.js").Drop | null) => void} how.drop
 */
export function practicePiece(x, { root, selected, canMove, tap, drop }) {
  const el = pieceEl(x.s, { kind: "tile" });
  el.dataset.id = x.id;
  el.classList.add("movable");
  if (x.rack) el.classList.add("placed");
  if (selected) el.classList.add("selected");
  draggable(el, { root, canMove, onTap: tap, onDrop: drop, onStart: () => {}, onEnd: () => {} });
  return el;
}

/**
 * Where a tap on the piece ``id`` puts the piece ``selection`` picked up before: the end of
 * the set ``id`` lies in, or nowhere (null: the tap picks ``id`` up or puts it down).
 * @param {import("./turn.js").Turn} turn
 * @param {string | null} selection
 * @param {string} id
 * @returns {import("./turn.js").Target | null}
 */
export function tapTarget(turn, selection, id) {
  if (!selection || selection === id) return null;
  const at = turn.melds.findIndex((m) => m.some((x) => x.id === id));
  return at >= 0 ? { kind: "meld", meld: at, pos: turn.melds[at].length } : null;
}

/**
 * The move a lesson starts from.
 * @param {number} index
 */
function lessonTurn(index) {
  const lesson = LESSONS[index];
  return startTurn(`lesson${index}`, lesson.table.map((m) => withRoles(m)), lesson.rack.map((face) => ({ face })));
}

export class TutorialPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.index = 0;
    this.gone = false;
    this.turn = lessonTurn(this.index);
    /** @type {string | null} */
    this.selection = null;
    this.render();
  }

  destroy() { this.gone = true; }

  start() {
    this.turn = lessonTurn(this.index);
    this.selection = null;
    this.render();
  }

  state() {
    return { table: this.turn.melds.map((m) => m.map((x) => x.s)), left: this.turn.rack.map((x) => x.s) };
  }

  /**
   * @param {string} id
   * @param {import("./turn.js").Target} target
   */
  move(id, target) {
    if (movePiece(this.turn, id, target) === "table-stays") return;
    settleSets(this.turn);
    this.selection = null;
    this.render();
  }

  /** @param {string} id */
  tap(id) {
    const target = tapTarget(this.turn, this.selection, id);
    if (target && this.selection) { this.move(this.selection, target); return; }
    this.selection = this.selection === id ? null : id;
    this.render();
  }

  /** @param {import("./turn.js").Target} target */
  zone(target) { if (this.selection) this.move(this.selection, target); }

  /** @param {import("./turn.js").Item} x */
  piece(x) {
    return practicePiece(x, {
      root: this.root,
      selected: this.selection === x.id,
      canMove: () => !this.gone,
      tap: () => this.tap(x.id),
      drop: (target) => { if (target) this.move(x.id, target); else this.render(); },
    });
  }

  render() {
    if (this.gone) return;
    const lesson = LESSONS[this.index];
    const st = this.state();
    const done = lesson.done(st);
    const melds = h("div", { class: "melds" });
    this.turn.melds.forEach((m, i) => {
      const value = setValue(m.map((x) => x.s));
      const el = h("div", { class: "meld" + (value == null ? " invalid" : " fresh"), dir: "ltr", dataset: { index: i },
        onclick: (e) => { if (!e.target.closest(".piece")) this.zone({ kind: "meld", meld: i, pos: m.length }); } },
      m.map((x) => this.piece(x)));
      melds.append(h("div", { class: "meld-wrap" }, el,
        h("div", { class: value == null ? "meld-reason" : "meld-value" }, value == null ? t("tutorial.not_a_set") : String(value))));
    });
    melds.append(h("div", { class: "new-meld" + (this.selection ? " armed" : ""), onclick: () => this.zone({ kind: "new" }) }, t("game.new_meld")));
    const rack = h("div", { class: "rack active", dir: "ltr", onclick: (e) => { if (!e.target.closest(".piece")) this.zone({ kind: "rack" }); } },
      this.turn.rack.map((x) => this.piece(x)));
    const last = this.index === LESSONS.length - 1;
    this.root.replaceChildren(h("div", { class: "tutorial game", dataset: { lesson: lesson.key, done: done ? "1" : "" } },
      h("div", { class: "tutorial-head" },
        h("h2", {}, t("tutorial.title", { n: this.index + 1, total: LESSONS.length }), " · ", t(`tutorial.${lesson.key}_title`)),
        h("p", { class: "tutorial-text" }, t(`tutorial.${lesson.key}`)),
        h("p", { class: "tutorial-result " + (done ? "good" : "muted"), role: "status" }, done ? t(last ? "tutorial.all_done" : "tutorial.well_done") : t("tutorial.try"))),
      h("section", { class: "table-area" }, melds),
      h("div", { class: "dock" },
        h("div", { class: "controls" },
          h("button", { class: "btn", id: "tutorial-reset", onclick: () => this.start() }, t("game.reset")),
          last && done ? h("a", { class: "btn primary", id: "tutorial-play", href: "/", "data-link": true }, t("tutorial.play"))
            : h("button", { class: "btn primary", id: "tutorial-next", disabled: !done, onclick: () => { this.index++; this.start(); } }, t("tutorial.next"))),
        rack)));
    translate(this.root);
  }
}
