// @ts-check
// The puzzle page (/puzzles, /puzzles/<id>, /puzzles/daily): a position from a real game, on the
// game's table and rack (drag or tap, as in the tutorial), a goal, and Check / Hint / Show
// solution / Next puzzle. Answers are checked by the server (POST /api/puzzles/<id>/answer);
// the guest's puzzle rating (Glicko-2, computed by the server from the rating and the result
// the page sends) and his streak are kept in this browser (localStorage). A logged-in
// account's rating is the server's: its first attempt at each puzzle is rated there from the
// answer's verdict, a hint or the solution (the answers' "attempt"), and the next puzzle is
// picked near it; the streak stays in the browser. docs/web.md.
import { accountPuzzles, csrfHeader, currentAccount, loadSession, setAccountPuzzles } from "./account.js";
import { t, codeText, translate } from "./i18n.js";
import { Keys, PUZZLE_KEYS, keysButton, pressable } from "./keys.js";
import { faceLabel, pieceEl, withRoles } from "./pieces.js";
import { movePiece, placed, recordStep, redoStep, undoStep, startTurn, tableJson } from "./turn.js";
import { practicePiece, settleSets, setValue, tapTarget } from "./tutorial.js";
import { getJSON, h, keepFocus } from "./util.js";

/** @typedef {import("./types.js").Face} Face */
/** @typedef {import("./types.js").Table} Table */
/**
 * A puzzle as the server shows it (never its solutions); `rated` false and `game` for a
 * puzzle of a finished game's review (the game, round, turn and seat it comes from).
 * @typedef {{id: string, table: Table, rack: Face[], opened: boolean, goal: string, target: number,
 *   opening_value: number, rating: number, rd: number, themes: string[], date?: string, rated: boolean,
 *   game?: {code: string, round: number, turn: number, seat: number}}} PuzzlePosition */
/** @typedef {{solved: boolean, placed: number, code?: string, params?: import("./types.js").Params, meld?: number, attempt?: import("./types.js").PuzzleAttempt}} Verdict */
/** @typedef {import("./types.js").Glicko} Glicko */
/** @typedef {import("./types.js").PuzzleAttempt} PuzzleAttempt */
/** What the Theme menu offers (GET /api/puzzles/themes).
 * @typedef {{themes: string[], goals: string[]}} PuzzleChoices */
/** The guest's puzzles in this browser: his rating, the puzzles he attempted, his streak.
 * @typedef {{rating: Glicko, done: string[], attempts: number, streak: number, best: number}} Saved */

const KEY = "rummikub.puzzles";
const FRESH = () => /** @type {Saved} */ ({ rating: { rating: 1500, rd: 350, volatility: 0.06 }, done: [], attempts: 0, streak: 0, best: 0 });

/** @returns {Saved} */
export function loadSaved() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) || "null");
    if (s && s.rating && typeof s.rating.rating === "number") return { ...FRESH(), ...s };
  } catch { /* a damaged entry: start again */ }
  return FRESH();
}

/** @param {Saved} s */
function save(s) { localStorage.setItem(KEY, JSON.stringify({ ...s, done: s.done.slice(-500) })); }

/**
 * A POST of JSON; rejects with the server's error body, worded in the page's language.
 * @template T
 * @param {string} url
 * @param {unknown} body
 * @returns {Promise<T>}
 */
async function postJSON(url, body) {
  const headers = { "Content-Type": "application/json", ...csrfHeader() };
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(codeText(data.code, data.params));
  return data;
}

export class PuzzlesPage {
  /**
   * @param {HTMLElement} root
   * @param {string | null} ident a puzzle's id, "daily", or null (the next one near the rating)
   */
  constructor(root, ident) {
    this.root = root;
    this.gone = false;
    this.saved = loadSaved();
    /** @type {PuzzlePosition | null} */
    this.puzzle = null;
    /** @type {import("./turn.js").Turn | null} */
    this.turn = null;
    /** @type {string | null} */
    this.selection = null;
    /** @type {{kind: "good" | "bad" | "info", text: string} | null} */
    this.message = null;
    /** @type {{tile: Face, mark: string}[][] | null} */
    this.solution = null;
    this.result = /** @type {boolean | null} */ (null); // the rated result of this puzzle
    this.hints = 0;
    /** @type {number | null} */
    this.hinted = null; // the table set a hint names
    const q = new URLSearchParams(location.search);
    this.streakMode = q.has("streak");
    // the theme or goal the next puzzles are of ("": any), from the address (?theme=)
    this.theme = q.get("theme") || "";
    /** @type {PuzzleChoices | null} */
    this.choices = null;
    this.busy = false;
    this.error = "";
    this.practice = false; // the puzzle was attempted before: not rated again
    this.rated = ""; // what the rated result did to the player's rating
    this.hintTaken = false; // an account's first attempt ended at a hint: not rated
    // the keys of the game (keys.js): arrows, Space/Enter, N, Esc, U/Y, R, H; E checks
    this.keys = new Keys({
      root: this.root, rack: "#puzzle-rack", keys: PUZZLE_KEYS, setSort: null,
      buttons: { e: ["#puzzle-check"], r: ["#puzzle-reset"], h: ["#puzzle-hint"] },
      playing: () => !this.gone && !!this.turn && !this.solution,
      selected: () => this.selection != null,
      clear: () => { this.selection = null; this.draw(); },
      tapZone: (target) => this.zone(target),
      step: (redo) => (redo ? this.redo() : this.undo()),
      moveTo: (id, target) => this.move(id, target),
    });
    this.load(ident);
    getJSON("/api/puzzles/themes").then((c) => {
      this.choices = /** @type {PuzzleChoices} */ (c);
      this.draw();
    }).catch(() => {}); // no menu of themes: the puzzles are still there
  }

  // The address of this mode (rated or streak) and theme, with a puzzle's id or none.
  /** @param {string} [id] */
  address(id) {
    const q = new URLSearchParams();
    if (this.streakMode) q.set("streak", "1");
    if (this.theme) q.set("theme", this.theme);
    const rest = q.toString();
    return `/puzzles${id ? `/${id}` : ""}${rest ? `?${rest}` : ""}`;
  }

  // The menu of themes and goals: the next puzzles are of the one chosen.
  themeMenu() {
    if (!this.choices) return null;
    const { themes, goals } = this.choices;
    const menu = h("select", { id: "puzzle-theme", "aria-label": t("puzzle.web.theme") },
      h("option", { value: "" }, t("puzzle.web.any_theme")),
      goals.map((g) => h("option", { value: g }, t(`puzzle.goal_name.${g}`))),
      themes.map((x) => h("option", { value: x }, t(`puzzle.theme.${x}`))));
    menu.value = this.theme;
    menu.addEventListener("change", () => {
      this.theme = menu.value;
      history.replaceState(history.state, "", this.address());
      this.load(null);
    });
    return h("label", { class: "puzzle-theme" }, h("span", {}, t("puzzle.web.theme")), menu);
  }

  // The rating shown and used: the account's (the server's) once logged in, else the guest's.
  myRating() {
    const mine = currentAccount() && accountPuzzles();
    return (mine || this.saved.rating).rating;
  }

  destroy() { this.gone = true; this.keys.destroy(); }

  /** @param {string} [what] */
  render(what) { if (what === "language" || what === "account" || what == null) this.draw(); }

  /** @param {string | null} ident */
  async load(ident) {
    const s = this.saved;
    if (currentAccount()) await loadSession(); // the account's rating as the server has it now
    const mine = currentAccount() && accountPuzzles();
    // an account's next puzzle: the server knows its rating and the puzzles it attempted;
    // for anyone, the puzzle "Next puzzle" leaves unanswered is not the next one again
    const skipped = ident || !this.puzzle ? [] : [this.puzzle.id];
    const query = new URLSearchParams(mine ? { salt: String(mine.attempted), done: skipped.join(",") }
      : { rating: String(Math.round(s.rating.rating)), salt: String(s.attempts), done: [...s.done.slice(-200), ...skipped].join(",") });
    if (this.streakMode) query.set("streak", String(s.streak));
    if (this.theme) query.set("theme", this.theme);
    const url = ident ? `/api/puzzles/${encodeURIComponent(ident)}` : `/api/puzzles/next?${query}`;
    try {
      const p = /** @type {PuzzlePosition} */ (await getJSON(url));
      if (this.gone) return;
      this.start(p);
      if (!ident) history.replaceState(history.state, "", this.address(p.id));
    } catch (err) {
      this.error = /** @type {{message?: string}} */ (err).message || t("error.error");
      this.draw();
    }
  }

  /** @param {PuzzlePosition} p */
  start(p) {
    this.puzzle = p;
    this.turn = startTurn(`puzzle:${p.id}`, p.table.map((m) => withRoles(m)), p.rack.map((face) => ({ face })));
    this.selection = null;
    this.message = null;
    this.solution = null;
    // done before: practice (an account learns it from the server's answer)
    this.result = !currentAccount() && this.saved.done.includes(p.id) ? true : null;
    this.practice = this.result !== null || !p.rated;
    this.hintTaken = false;
    this.hints = 0;
    this.hinted = null;
    this.draw();
  }

  // --- moving tiles (as the tutorial does) ---------------------------------------------------
  /**
   * @param {string} id
   * @param {import("./turn.js").Target} target
   */
  move(id, target) {
    if (!this.turn || this.solution) return;
    recordStep(this.turn);
    if (movePiece(this.turn, id, target) === "table-stays") {
      this.message = { kind: "bad", text: t("puzzle.web.table_stays") };
      this.draw();
      return;
    }
    settleSets(this.turn);
    this.selection = null;
    this.draw();
  }

  /** @param {string} id */
  tap(id) {
    if (!this.turn) return;
    const target = tapTarget(this.turn, this.selection, id);
    if (target && this.selection) { this.move(this.selection, target); return; }
    this.selection = this.selection === id ? null : id;
    this.draw();
  }

  /** @param {import("./turn.js").Target} target */
  zone(target) { if (this.selection) this.move(this.selection, target); }

  undo() { if (this.turn && !this.solution && undoStep(this.turn)) { this.selection = null; this.draw(); } }

  redo() { if (this.turn && !this.solution && redoStep(this.turn)) { this.selection = null; this.draw(); } }

  reset() {
    if (!this.puzzle || !this.turn) return;
    const p = this.puzzle;
    this.turn = startTurn(`puzzle:${p.id}`, p.table.map((m) => withRoles(m)), p.rack.map((face) => ({ face })));
    this.selection = null;
    this.solution = null;
    this.draw();
  }

  // --- the puzzle ------------------------------------------------------------------------
  async check() {
    const p = this.puzzle;
    if (!p || !this.turn || this.busy) return;
    if (!placed(this.turn).length) { this.message = { kind: "bad", text: t("puzzle.tui.no_play") }; this.draw(); return; }
    this.busy = true;
    try {
      /** @type {Verdict} */
      const v = await postJSON(`/api/puzzles/${p.id}/answer`, { table: tableJson(this.turn) });
      if (v.solved) this.message = { kind: "good", text: t("puzzle.solved", { count: v.placed }) };
      else {
        const params = { ...(v.params || {}) };
        if (v.meld != null && !("number" in params)) params.number = v.meld + 1;
        this.message = { kind: "bad", text: t("puzzle.wrong", { why: codeText(v.code || "error", params) }) };
      }
      await this.rate(v.solved, v.attempt);
    } catch (err) {
      this.message = { kind: "bad", text: /** @type {Error} */ (err).message };
    } finally {
      this.busy = false;
    }
    this.draw();
  }

  // The first result of a puzzle is rated (later ones are practice); in a streak a miss ends it.
  // A guest's rating is rated here (the server computes it from the one this browser keeps);
  // an account's was rated by the server with the answer (its "attempt").
  /**
   * @param {boolean} solved
   * @param {PuzzleAttempt} [attempt] the account's attempt, as the server rated it
   */
  async rate(solved, attempt) {
    const p = this.puzzle;
    if (!p || this.result !== null) return;
    this.result = solved;
    if (!p.rated) return; // a game's own puzzle: practice, no streak
    const s = this.saved;
    let line;
    if (attempt) line = this.accountRated(attempt, solved);
    else {
      const before = s.rating.rating;
      const r = /** @type {{player: Glicko, delta: number}} */ (await postJSON(`/api/puzzles/${p.id}/rating`, { player: s.rating, solved }));
      s.rating = r.player;
      s.done.push(p.id);
      s.attempts += 1;
      line = ratedLine(solved, r.player.rating, before);
    }
    if (this.streakMode) {
      if (solved) s.streak += 1;
      else {
        s.best = Math.max(s.best, s.streak);
        line += " " + t("puzzle.web.streak_over", { count: s.streak, best: s.best });
        s.streak = 0;
      }
    }
    save(s);
    this.rated = line;
  }

  // What an account's attempt did, in words, with its new rating kept for the page.
  /**
   * @param {PuzzleAttempt} a
   * @param {boolean} solved
   */
  accountRated(a, solved) {
    const mine = accountPuzzles();
    if (a.counted && mine) {
      setAccountPuzzles({ ...mine, ...a.player, attempted: mine.attempted + 1, solved: mine.solved + (solved ? 1 : 0) });
    }
    if (!a.counted) this.practice = true;
    if (a.counted && a.rated) return ratedLine(solved, a.player.rating, a.player.rating - a.delta);
    return t(this.hintTaken || (a.counted && !a.rated) ? "puzzle.web.hint_unrated" : "puzzle.web.practice");
  }

  async hint() {
    const p = this.puzzle;
    if (!p) return;
    this.hints += 1;
    try {
      // a POST: an account's first attempt ends at a hint (not rated); a guest's answer is
      // the same as a GET's
      const hnt = /** @type {{key: string, params: Record<string, string>, meld: number | null, attempt?: PuzzleAttempt}} */ (
        await postJSON(`/api/puzzles/${p.id}/hint`, { level: Math.min(2, this.hints) }));
      this.message = { kind: "info", text: t(hnt.key, hnt.params) };
      this.hinted = hnt.meld;
      if (hnt.attempt && hnt.attempt.counted && this.result === null) {
        this.hintTaken = true;
        this.rated = this.accountRated(hnt.attempt, false);
      }
    } catch (err) {
      this.message = { kind: "bad", text: /** @type {Error} */ (err).message };
    }
    this.draw();
  }

  async showSolution() {
    const p = this.puzzle;
    if (!p) return;
    try {
      // a POST: an account's first attempt ends here, failed
      const sol = /** @type {{table: {tile: Face, mark: string}[][], attempt?: PuzzleAttempt}} */ (await postJSON(`/api/puzzles/${p.id}/solution`, {}));
      await this.rate(false, sol.attempt);
      this.solution = sol.table;
      this.message = { kind: "info", text: t("puzzle.web.solution_shown") };
    } catch (err) {
      this.message = { kind: "bad", text: /** @type {Error} */ (err).message };
    }
    this.draw();
  }

  next() {
    this.rated = "";
    this.error = "";
    // a streak puzzle left unanswered ends the streak
    if (this.streakMode && this.result === null && this.puzzle) { this.rate(false).then(() => this.load(null)); return; }
    this.load(null);
  }

  // --- drawing ---------------------------------------------------------------------------
  /** @param {import("./turn.js").Item} x */
  piece(x) {
    const el = practicePiece(x, {
      root: this.root,
      selected: this.selection === x.id,
      canMove: () => !this.gone && !this.solution,
      tap: () => this.tap(x.id),
      drop: (target) => { if (target) this.move(x.id, target); else this.draw(); },
    });
    // from the keyboard: Tab (or the arrows) to a piece, Enter or Space picks it up
    el.id = `piece-${x.id}`; // the focus stays on it when the page is drawn again
    pressable(el, () => this.tap(x.id));
    return el;
  }

  goalText() {
    const p = /** @type {PuzzlePosition} */ (this.puzzle);
    return t(`puzzle.goal.${p.goal}`, { count: p.target, value: p.opening_value });
  }

  draw() {
    if (this.gone) return;
    keepFocus(this.root, () => this.drawPage());
  }

  drawPage() {
    const s = this.saved;
    const bar = h("div", { class: "puzzle-bar" },
      h("span", { class: "puzzle-me", id: "puzzle-my-rating" }, t("puzzle.web.my_rating", { rating: Math.round(this.myRating()) })),
      this.streakMode ? h("span", { id: "puzzle-streak" }, t("puzzle.web.streak", { count: s.streak, best: s.best })) : null,
      h("a", { class: "btn small", id: "puzzle-daily", href: "/puzzles/daily", "data-link": true }, t("puzzle.web.daily")),
      this.streakMode ? h("a", { class: "btn small", href: "/puzzles", "data-link": true }, t("puzzle.web.rated_mode"))
        : h("a", { class: "btn small", id: "puzzle-streak-link", href: "/puzzles?streak=1", "data-link": true }, t("puzzle.web.streak_mode")),
      this.themeMenu(),
      keysButton(this.keys));
    if (!this.puzzle || !this.turn) {
      this.root.replaceChildren(h("div", { class: "puzzle-page tutorial game" }, bar,
        h("p", { class: this.error ? "error-text" : "muted", role: "status" }, this.error || t("puzzle.web.loading"))));
      return;
    }
    const p = this.puzzle;
    const melds = h("div", { class: "melds" });
    if (this.solution) {
      this.solution.forEach((m) => melds.append(h("div", { class: "meld-wrap" }, h("div", { class: "meld fresh", dir: "ltr" },
        m.map((x) => { const el = pieceEl(x.tile, { kind: "tile" }); el.classList.add(`mark-${x.mark}`); return el; })))));
    } else {
      this.turn.melds.forEach((m, i) => {
        const value = setValue(m.map((x) => x.s));
        const fromTable = m.every((x) => !x.rack) && i < p.table.length;
        const el = h("div", { class: "meld" + (value == null ? " invalid" : " fresh") + (this.hinted === i && fromTable ? " hinted" : ""), dir: "ltr", dataset: { index: i },
          id: `meld-${i}`, "aria-label": t("game.set_label", { n: i + 1, tiles: m.map((x) => faceLabel(x.s)).join(", ") }),
          onclick: (/** @type {MouseEvent} */ e) => { if (!(/** @type {Element} */ (e.target)).closest(".piece")) this.zone({ kind: "meld", meld: i, pos: m.length }); } },
        m.map((x) => this.piece(x)));
        pressable(el, () => this.zone({ kind: "meld", meld: i, pos: m.length }), true);
        melds.append(h("div", { class: "meld-wrap" }, el,
          value == null ? h("div", { class: "meld-reason" }, t("tutorial.not_a_set")) : null));
      });
      const zone = h("div", { class: "new-meld" + (this.selection ? " armed" : ""), id: "puzzle-new-set", onclick: () => this.zone({ kind: "new" }) }, t("game.new_meld"));
      pressable(zone, () => this.zone({ kind: "new" }));
      melds.append(zone);
    }
    const rack = h("div", { class: "rack active", id: "puzzle-rack", dir: "ltr",
      onclick: (/** @type {MouseEvent} */ e) => { if (!(/** @type {Element} */ (e.target)).closest(".piece")) this.zone({ kind: "rack" }); } },
    this.solution ? [] : this.turn.rack.map((x) => this.piece(x)));
    rack.setAttribute("aria-label", t("game.rack"));
    if (!this.solution) pressable(rack, () => this.zone({ kind: "rack" }), true);
    const legend = this.solution ? h("div", { class: "assist-legend muted" },
      ["rack", "moved", "kept"].map((m) => h("span", { class: `legend-mark mark-${m}` }, t(`assist.mark.${m}`)))) : null;
    const msg = this.message;
    const themes = p.themes.map((x) => t(`puzzle.theme.${x}`)).join(", ");
    this.root.replaceChildren(h("div", { class: "puzzle-page tutorial game", dataset: { puzzle: p.id, result: this.result == null ? "" : String(this.result) } },
      bar,
      h("div", { class: "tutorial-head" },
        h("h2", {}, t("puzzle.title", { id: p.id, rating: p.rating }), p.date ? ` · ${t("puzzle.web.daily")}` : ""),
        h("p", { class: "tutorial-text", id: "puzzle-goal" }, this.goalText()),
        themes ? h("p", { class: "muted small" }, t("puzzle.themes", { themes })) : null,
        p.game ? h("p", { class: "muted", id: "puzzle-game" }, t("puzzle.web.from_game", { code: p.game.code, round: p.game.round, turn: p.game.turn }), " ",
          h("a", { href: `/replay/${p.game.code}`, "data-link": true }, t("puzzle.web.back_to_game"))) : null,
        h("p", { class: "tutorial-result " + (msg ? msg.kind : "muted"), id: "puzzle-message", role: "status" },
          msg ? msg.text : t(!p.rated ? "puzzle.web.try" : this.practice ? "puzzle.web.practice" : "puzzle.web.try")),
        this.rated ? h("p", { class: "muted", id: "puzzle-rated" }, this.rated) : null,
        legend),
      h("section", { class: "table-area" }, melds),
      h("div", { class: "dock" },
        h("div", { class: "controls" },
          h("button", { class: "btn", id: "puzzle-undo", disabled: !!this.solution, onclick: () => this.undo() }, t("game.undo")),
          h("button", { class: "btn", id: "puzzle-reset", onclick: () => this.reset() }, t("game.reset")),
          h("button", { class: "btn", id: "puzzle-hint", disabled: !!this.solution, onclick: () => this.hint() }, t("puzzle.web.hint")),
          h("button", { class: "btn", id: "puzzle-solution", disabled: !!this.solution, onclick: () => this.showSolution() }, t("puzzle.web.show_solution")),
          h("button", { class: "btn primary", id: "puzzle-check", disabled: !!this.solution, onclick: () => this.check() }, t("puzzle.web.check")),
          h("button", { class: "btn", id: "puzzle-next", onclick: () => this.next() }, t("puzzle.web.next"))),
        rack)));
    translate(this.root);
  }
}

// What a rated result did: the new rating and the change.
/**
 * @param {boolean} solved
 * @param {number} after
 * @param {number} before
 */
function ratedLine(solved, after, before) {
  return t(solved ? "puzzle.web.rated_solved" : "puzzle.web.rated_failed",
    { rating: Math.round(after), delta: `${after >= before ? "+" : ""}${Math.round(after - before)}` });
}
