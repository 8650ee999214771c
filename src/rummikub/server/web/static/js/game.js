// @ts-check
// The game table, one view for both games: the players, the table with its sets, the hands,
// the buttons, the turn clock, the side panel (moves and chat) and the score card. What differs
// between the games comes from the game's adapter (game_tiles.js, game_xpress.js). The view
// renders from the store and changes it only through the store's functions.
import { t, translate } from "./i18n.js";
import { faceLabel, pieceEl } from "./pieces.js";
import { draggable } from "./drag.js";
import { SidePanel } from "./side.js";
import { closeReport, openReport } from "./moderation.js";
import { scoreCard } from "./scores.js";
import { flown, getState, lastMove, myTurn, showLastMove, update } from "./store.js";
import { alertTurn, clack, flyIn, pieceRects, setSound, soundOn, tick as tickSound } from "./follow.js";
import { changedTable, locate, movePiece, placed, recordStep, redoStep, tableJson, undoStep } from "./turn.js";
import { act, botIcon, h, icon, keepFocus, seatName, toast } from "./util.js";
import { Keys, keysButton, pressable } from "./keys.js";
import { Presence, presenceLine } from "./presence.js";

const URGENT = 10; // seconds left when the clock turns red

/** @typedef {import("./types.js").Ctx} Ctx */
/** @typedef {import("./types.js").Playing} Playing */
/** @typedef {import("./turn.js").Item} Item */
/** @typedef {import("./turn.js").Target} Target */

/**
 * The state as the game view works on it: with a game and the move being built on it (the
 * store starts a move whenever a state with a game comes); null when there is none.
 * @param {import("./store.js").State} s
 * @returns {Playing | null}
 */
function playing(s) {
  return s.view && s.view.game && s.turn ? /** @type {Playing} */ (s) : null;
}

export class GameView {
  /**
   * @param {HTMLElement} root
   * @param {import("./net.js").Net} net
   * @param {import("./types.js").GameAdapter} game
   */
  constructor(root, net, game) {
    this.root = root;
    this.net = net;
    this.game = game;
    this.gone = false;
    this.dragging = false;
    this.pending = false; // a render held back while a piece is dragged
    /** @type {number | null} */
    this.reveal = null; // index of a set just made, to bring into view
    /** @type {boolean | null} */
    this.wasMine = null; // whether it was this player's turn at the last render (null: none yet)
    /** @type {import("./store.js").LastMove | null} */
    this.heard = null; // the last move whose sound was made
    /** @type {number | null} */
    this.ticked = null; // the last second of the clock that ticked
    this.side = new SidePanel((text) => this.act({ type: "chat", text }), (msg) => this.act(msg));
    /** @type {Record<"players" | "area" | "dock", HTMLElement>} */
    this.slots = { players: h("div"), area: h("section"), dock: h("div") };
    this.el = h("div", { class: "game" }, this.slots.players,
      h("div", { class: "board" }, this.slots.area, this.side.el), this.slots.dock);
    /** @type {HTMLElement | null} */
    this.overlay = null;
    /** @type {import("./types.js").Ctl} */
    this.ctl = {
      state: getState,
      act: (msg) => this.act(msg),
      request: (msg) => this.net.request(msg),
      change: (fn) => update(fn),
      changeMove: (fn) => this.changeMove(fn),
      restart: () => update((s, { restart }) => restart()),
      // a move pressed while the connection is down is not sent, and the move stays
      online: () => {
        if (this.net.open) return true;
        toast(t("game.offline_kept"), "error");
        return false;
      },
      setSort: (mode) => {
        try { localStorage.setItem("rummikub.sort", mode); } catch { /* storage off */ }
        update((s) => { s.ui.sort = mode; });
      },
    };
    this.presence = new Presence(); // notices of persons leaving and coming back (presence.js)
    // the keys of the terminal game (keys.js)
    this.keys = new Keys({ root: this.root, tapZone: (target) => this.tapZone(target),
      playing: () => { const s = getState(); return s.seat != null && !!s.view && !!s.view.game; },
      selected: () => !!getState().selection,
      clear: () => update((s) => { s.selection = null; }),
      step: (redo) => this.step(redo), setSort: (mode) => this.ctl.setSort(mode),
      moveTo: (id, target) => { const c = this.context(); if (c && this.canMove(c, id)) this.moveTo(id, target); } });
    root.replaceChildren(this.el);
    this.clockTimer = setInterval(() => this.tick(), 250);
  }

  destroy() {
    this.gone = true;
    clearInterval(this.clockTimer);
    this.keys.destroy();
    closeReport();
    document.title = t("title");
  }

  /** @param {import("./types.js").ClientMsg} msg */
  act(msg) {
    if (msg.type !== "chat" && !this.ctl.online()) return Promise.resolve(null);
    return act(this.net, msg);
  }

  // What every part of the view needs to know about the state (null: no game).
  /** @returns {Ctx | null} */
  context() {
    const s = playing(getState());
    if (!s || !s.view.game) return null;
    const g = s.view.game;
    const room = s.view.room;
    /** @param {number} i */
    const name = (i) => seatName(room.seats[i], i);
    const mine = myTurn();
    return { s, g, room, rules: room.rules, seat: s.seat, mine, name,
      names: room.seats.map((_, i) => name(i)), placing: mine && this.game.placing(g) };
  }

  // --- the move being built -------------------------------------------------------------
  /**
   * @param {Ctx} c
   * @param {string} id
   */
  canMove(c, id) {
    if (!c.placing || !c.s.turn || c.s.busy) return false;
    const at = locate(c.s.turn, id);
    return !!at && (at.where === "rack" || this.game.movable(c, at.item));
  }

  // Change the move (`change(state)`; false: nothing changed) and have the server read it.
  /** @param {(s: Playing) => boolean | void} change */
  changeMove(change) {
    /** @type {string | null} */
    let id = null;
    update((st) => {
      const s = playing(st);
      if (!s || change(s) === false) return;
      if (!myTurn() || (!placed(s.turn).length && !changedTable(s.turn))) { s.check = null; return; }
      s.checkSeq++;
      id = `check${s.checkSeq}`;
    });
    const turn = getState().turn;
    if (id && turn) this.net.send({ type: "check", id, table: tableJson(turn) });
    else this.reveal = null;
  }

  /**
   * @param {string} id
   * @param {Target} target
   */
  moveTo(id, target) {
    let stays = false;
    this.changeMove((s) => {
      const from = locate(s.turn, id);
      if (target.kind === "rack" && target.pos != null) {
        if (!this.game.arrangeable) target = { kind: "rack" };
        else if (s.ui.sort !== "hand") {
          // the rack as it is shown becomes the player's own order
          s.turn.rack = this.game.arrange(s.turn.rack, s.ui);
          s.ui.sort = "hand";
        }
      }
      if (from && from.where === "rack" && target.kind === "rack") {
        if (target.pos == null || target.pos === from.index || target.pos === from.index + 1) return false;
      }
      recordStep(s.turn);
      const made = movePiece(s.turn, id, target);
      if (made === "table-stays") { if (s.turn.undo) s.turn.undo.pop(); stays = true; return false; }
      if (s.ui.sort === "hand") s.ui.order = s.turn.rack.map((x) => x.s);
      this.reveal = made;
      s.selection = null;
      return true;
    });
    if (stays) toast(t("game.table_tile_stays"), "error");
  }

  // Tap (or click) a piece to select it, then tap where it should go.
  /** @param {string} id */
  tap(id) {
    const s = playing(getState());
    if (!s || !myTurn()) return;
    if (s.selection && s.selection !== id) {
      const at = locate(s.turn, id);
      if (at && at.where === "meld") { this.moveTo(s.selection, { kind: "meld", meld: at.meld, pos: at.index + 1 }); return; }
      const sel = locate(s.turn, s.selection);
      if (at && at.where === "rack" && sel && sel.where === "meld") { this.moveTo(s.selection, { kind: "rack" }); return; }
    }
    update((st) => { st.selection = st.selection === id ? null : id; });
  }

  /** @param {Target} target */
  tapZone(target) {
    const s = getState();
    if (s.selection && myTurn()) this.moveTo(s.selection, target);
  }

  // Undo or redo one step of the move.
  /** @param {boolean} redo */
  step(redo) {
    this.changeMove((s) => (redo ? redoStep(s.turn) : undoStep(s.turn)));
  }

  askHint() {
    update((s) => { s.hint = { loading: true }; });
    this.act({ type: "hint" });
  }

  // --- rendering --------------------------------------------------------------------------
  /** @param {import("./store.js").What} [what] */
  render(what) {
    if (this.gone || !getState().view) return;
    if (this.dragging) { this.pending = true; return; }
    this.pending = false;
    const c = this.context();
    if (!c) return;
    keepFocus(this.root, () => this.draw(c));
    this.presence.check(c);
    if (what === "checked") this.reveal = null;
    if (c.placing && c.s.turn && c.s.turn.restored) {
      // a move kept across a reload: the server reads it again
      c.s.turn.restored = false;
      queueMicrotask(() => this.changeMove(() => true));
    }
    this.turnAlert(c);
  }

  // The turn came to this player: the page's title says so, and (not on the page's first
  // render) a sound and a vibration.
  /** @param {Ctx} c */
  turnAlert(c) {
    const mine = c.mine && !c.g.round_over;
    // another player's move: a soft click (not for the position the page opened on)
    if (c.s.last && c.s.last !== this.heard && this.wasMine !== null) clack();
    this.heard = c.s.last;
    document.title = mine ? `${t("game.title_your_turn")} · ${t("title")}` : t("title");
    if (mine && this.wasMine === false) {
      alertTurn();
      this.el.dataset.alerts = String(Number(this.el.dataset.alerts || 0) + 1);
    }
    this.wasMine = mine;
  }

  /** @param {Ctx} c */
  draw(c) {
    const game = this.game;
    this.el.className = "game" + (c.seat == null ? " spectating" : "") + (game.css ? ` ${game.css}` : "");
    this.el.dataset.turn = game.turnKey(c.g);
    this.el.dataset.seq = String(c.s.view.seq);
    this.swap("players", this.players(c));
    // a long table keeps its scroll position (every move re-renders it), and a set just made
    // (at the end of the table) is brought into view
    const top = this.slots.area.scrollTop;
    const last = c.s.last && c.s.last.fly && this.lastShown(c) ? pieceRects(this.slots.area) : null;
    const area = this.swap("area", this.table(c));
    this.swap("dock", c.seat != null ? this.dock(c, c.seat) : h("div", { class: "dock spectator-bar" },
      h("span", { i18n: "room.spectating" }), h("a", { class: "btn small", href: "/", "data-link": true }, t("room.back"))));
    this.side.render(c, (e) => presenceLine(e, c.name(e.seat)) ?? game.describe(e, c.name(e.seat)) ?? `${c.name(e.seat)}: ${e.action}`);
    if (this.overlay) this.overlay.remove();
    this.overlay = c.g.round_over ? scoreCard(c, game, (msg) => this.act(msg)) : null;
    if (this.overlay) this.root.append(this.overlay);
    translate(this.root);
    this.tick();
    if (top) area.scrollTop = top;
    if (last && c.s.last) {
      flyIn(area, this.slots.players.querySelector(`.player[data-seat="${c.s.last.seat}"]`), last);
      flown();
    }
    const made = this.reveal != null && area.querySelector(`.meld[data-index="${this.reveal}"]`);
    if (made) {
      const a = area.getBoundingClientRect(), r = made.getBoundingClientRect();
      if (r.bottom > a.bottom) area.scrollTop += r.bottom - a.bottom + 8;
      else if (r.top < a.top) area.scrollTop -= a.top - r.top + 8;
    }
  }

  /**
   * @param {keyof GameView["slots"]} slot
   * @param {HTMLElement} el
   */
  swap(slot, el) {
    this.slots[slot].replaceWith(el);
    this.slots[slot] = el;
    return el;
  }

  /** @param {Ctx} c */
  players(c) {
    const game = this.game;
    const bar = h("div", { class: "players" });
    c.room.seats.forEach((seat, i) => {
      const bot = seat.kind === "bot" || seat.standin;
      bar.append(h("div", { class: "player" + (i === c.g.current && !c.g.round_over ? " current" : "") + (i === c.seat ? " me" : ""), dataset: { seat: i } },
        h("div", { class: "avatar" + (bot ? " bot" : "") }, bot ? botIcon() : (c.name(i)[0] || "?").toUpperCase()),
        h("div", { class: "pinfo" },
          h("div", { class: "pname" }, c.name(i), i === c.seat ? h("span", { class: "you" }, ` (${t("game.you")})`) : null),
          h("div", { class: "pmeta" },
            h("span", { class: "rack-count", title: t(game.handTitle), "aria-label": t(game.handCount, { n: game.handSize(c.g, i) }) },
              h("span", { class: `mini-${game.piece}`, "aria-hidden": "true" }), h("span", { "aria-hidden": "true" }, String(game.handSize(c.g, i)))),
            game.badges(c, i),
            h("span", { class: "score", title: t("game.score_title") },
              h("span", { class: "sr-only" }, `${t("game.score_title")}: `), game.formatScore(c.g.totals[i]),
              h("span", { class: "unit", "aria-hidden": "true" }, t("game.points_unit"))),
            seat.kind === "human" ? h("span", { class: "dot" + (seat.connected ? " on" : ""), role: "img",
              title: t(seat.connected ? "game.online" : "game.offline"), "aria-label": t(seat.connected ? "game.online" : "game.offline") }) : null,
            seat.standin ? h("span", { class: "standin" }, t("game.standin")) : null,
            this.reportButton(c, seat, i))),
        // the turn clock on the chip of the player whose turn it is (tick() sets it)
        i === c.g.current && !c.g.round_over && c.g.turn_seconds
          ? [h("span", { class: "turn-clock", role: "timer", title: t("game.clock"), "aria-label": t("game.clock") }, ""),
            h("span", { class: "turn-bar", "aria-hidden": "true" })]
          : null));
    });
    const on = soundOn();
    bar.dataset.n = String(c.room.seats.length);
    bar.append(h("div", { class: "bar-end" }, game.sideInfo(c), h("button", { class: "sound-toggle", id: "btn-sound", type: "button",
      "aria-pressed": on ? "true" : "false", title: t(on ? "game.sound_on" : "game.sound_off"), "aria-label": t("game.sound"),
      onclick: () => { setSound(!soundOn()); update(() => {}); } }, icon(on ? "sound" : "muted"))));
    return bar;
  }

  // A player reports another person of the game (a dialog asks why).
  /**
   * @param {Ctx} c
   * @param {import("./types.js").Seat} seat
   * @param {number} i
   */
  reportButton(c, seat, i) {
    if (c.seat == null || i === c.seat || seat.kind !== "human") return null;
    const name = c.name(i);
    return h("button", { class: "report-btn", id: `report-${i}`, type: "button", title: t("mod.report_title", { name }),
      "aria-label": t("mod.report_title", { name }), onclick: () => openReport(i, name, (msg) => this.net.request(msg)) }, icon("flag"));
  }

  // Whether the last move is highlighted now.
  /** @param {Ctx} c */
  lastShown(c) {
    const last = lastMove(c.g);
    return !!last && performance.now() < last.until;
  }

  // The line over the table: the status, and the last move (what it did; shown again on press).
  /** @param {Ctx} c */
  statusRow(c) {
    const last = lastMove(c.g);
    const row = h("div", { class: "status-row" },
      h("div", { class: "status-line" + (c.mine ? " mine" : "") }, this.game.status(c)));
    if (!last) return row;
    const n = { rack: 0, moved: 0, joker: 0 };
    for (const m of last.marks) for (const k of m) if (k) n[k]++;
    const words = this.game.lastWords;
    const parts = [t(words.hand, { name: c.name(last.seat), n: n.rack })];
    if (n.moved) parts.push(t(words.moved, { n: n.moved }));
    if (n.joker) parts.push(t(words.joker));
    const shown = this.lastShown(c);
    row.append(h("button", { class: "btn small last-move" + (shown ? " on" : ""), id: "btn-last-move", type: "button",
      title: parts.join(" · "), "aria-pressed": shown ? "true" : "false", onclick: () => showLastMove() },
    icon("replay"), t("game.last_move")));
    if (shown) row.append(h("div", { class: "last-info", id: "last-info", role: "status" },
      h("span", { class: "key key-rack" }), parts[0],
      n.moved ? [h("span", { class: "key key-moved" }), parts[1]] : null,
      n.joker ? [h("span", { class: "key key-joker" }), parts[parts.length - 1]] : null));
    return row;
  }

  // A piece of the move (on the table or the player's own), to drag or tap.
  /**
   * @param {Ctx} c
   * @param {Item} x
   */
  piece(c, x) {
    const el = pieceEl(x.s, { kind: this.game.piece, die: x.die });
    el.dataset.id = x.id;
    el.id = `piece-${x.id}`; // the focus stays on it when the view is drawn again
    if (this.canMove(c, x.id)) {
      el.classList.add("movable");
      // played from the keyboard: Tab to a piece, Enter or Space picks it up (or puts the one
      // picked up before it), then Enter on a set, "+ new set" or the rack puts it there
      pressable(el, () => this.tap(x.id));
    }
    if (c.s.selection === x.id) el.classList.add("selected");
    if (x.mark && this.lastShown(c)) el.classList.add("last", `last-${x.mark}`);
    if (x.die != null && x.rack && c.s.rolling.has(x.die)) el.classList.add("rolling");
    draggable(el, {
      root: this.root,
      canMove: () => {
        const now = this.context();
        return !this.gone && !!now && this.canMove(now, x.id);
      },
      onTap: () => this.tap(x.id),
      onDrop: (target) => {
        if (this.gone) return;
        if (target) this.moveTo(x.id, target); else this.render();
      },
      onStart: () => { this.dragging = true; },
      onEnd: () => { this.dragging = false; },
    });
    return el;
  }

  // A player's pieces: his own (`own`: the move's rack, to play from) or another's, shown.
  /**
   * @param {Ctx} c
   * @param {number} seat
   * @param {boolean} own
   */
  tray(c, seat, own) {
    const game = this.game;
    /** @type {Item[]} */
    const items = own ? game.arrange(c.s.turn ? c.s.turn.rack : [], c.s.ui)
      : (game.shownHands(c.g) || [])[seat].map((p) => ({ id: `s${seat}.${p.die}`, s: p.face, rack: true, die: p.die ?? null }));
    const marking = own && game.marking(c);
    const tray = h("div", { class: [game.trayClass, own ? "rack" : "other-tray", own && c.mine ? "active" : ""].filter(Boolean).join(" "), dir: "ltr", dataset: { seat } });
    if (own) {
      tray.addEventListener("click", (e) => { if (!/** @type {Element} */ (e.target).closest(".piece")) this.tapZone({ kind: "rack" }); });
      tray.id = "own-rack";
      tray.setAttribute("aria-label", t("game.rack"));
      if (c.mine) pressable(tray, () => this.tapZone({ kind: "rack" }), true);
    }
    const hinted = own && c.s.hint ? game.hinted(c, items) : new Set();
    for (const x of items) {
      const die = x.die; // a die's number (pieces of the tile game have none)
      let el;
      if (own) el = this.piece(c, x);
      else {
        el = pieceEl(x.s, { kind: game.piece, die });
        if (die != null && c.s.rolling.has(die)) el.classList.add("rolling");
      }
      if (marking && die != null) {
        el.classList.add("movable");
        el.addEventListener("click", () => update((s) => { if (s.marked.has(die)) s.marked.delete(die); else s.marked.add(die); }));
      }
      if (own && game.markClass && die != null && c.s.marked.has(die)) el.classList.add(game.markClass);
      if (hinted.has(x.id)) el.classList.add("hinted");
      tray.append(el);
    }
    const value = items.reduce((a, x) => a + game.value(x.s, c.rules), 0);
    const label = game.trayLabel(c, seat, own, items.length, value);
    if (!items.length && label.empty) tray.append(h("span", { class: "muted tray-empty" }, label.empty));
    const info = h("div", { class: "tray-label" + (game.labelBelow ? " below" : "") },
      label.name ? h("span", { class: "tray-name" }, label.name) : null, h("span", { class: "muted" }, label.info));
    return h("div", { class: "tray-wrap" + (own ? " own" : "") }, game.labelBelow ? [tray, info] : [info, tray]);
  }

  /** @param {Ctx} c */
  table(c) {
    const game = this.game;
    const area = h("section", { class: "table-area" });
    const shown = game.shownHands(c.g);
    const me = c.seat ?? 0; // a spectator sees the first player's hand at the bottom
    if (shown) shown.forEach((_, i) => { if (i !== me) area.append(this.tray(c, i, false)); });
    area.append(this.statusRow(c));
    const melds = h("div", { class: "melds", onclick: (e) => { if (e.target === melds) this.tapZone({ kind: "new" }); } });
    const work = c.s.turn ? c.s.turn.melds : [];
    work.forEach((m, i) => {
      const res = c.placing && c.s.check && c.s.check.melds[i];
      const fresh = m.some((x) => x.rack);
      // a set reads left to right as printed, in a right-to-left page too
      const el = h("div", { class: "meld" + (res && !res.ok ? " invalid" : "") + (res && res.ok && fresh ? " fresh" : ""), dir: "ltr", dataset: { index: i } });
      for (const x of m) {
        const pe = this.piece(c, x);
        if (x.rack && c.placing) pe.classList.add("placed");
        el.append(pe);
      }
      el.addEventListener("click", (e) => { if (!/** @type {Element} */ (e.target).closest(".piece")) this.tapZone({ kind: "meld", meld: i, pos: m.length }); });
      el.setAttribute("aria-label", t("game.set_label", { n: i + 1, tiles: m.map((x) => faceLabel(x.s)).join(", ") }));
      if (c.placing) {
        el.id = `meld-${i}`;
        pressable(el, () => this.tapZone({ kind: "meld", meld: i, pos: m.length }), true);
      }
      const wrap = h("div", { class: "meld-wrap" }, el);
      if (res && !res.ok) wrap.append(h("div", { class: "meld-reason" }, res.reason));
      else if (res && res.ok && fresh && game.meldValues) wrap.append(h("div", { class: "meld-value" }, String(res.value)));
      melds.append(wrap);
    });
    if (c.placing) {
      const zone = h("div", { class: "new-meld" + (c.s.selection ? " armed" : ""), id: "new-meld", onclick: () => this.tapZone({ kind: "new" }) }, t("game.new_meld"));
      pressable(zone, () => this.tapZone({ kind: "new" }));
      melds.append(zone);
    }
    if (!work.length && !c.placing) melds.append(h("div", { class: "empty-table muted" }, t(game.emptyTable)));
    area.append(melds);
    if (shown && c.seat == null) area.append(this.tray(c, me, false));
    return area;
  }

  /**
   * @param {Ctx} c
   * @param {number} seat ours
   */
  dock(c, seat) {
    const s = c.s;
    const n = placed(s.turn).length;
    const common = {
      undo: { id: "btn-undo", label: [icon("undo"), h("span", { class: "btn-text" }, t("game.undo"))], title: t("game.undo_title"),
        disabled: !c.placing || !(s.turn && s.turn.undo && s.turn.undo.length), onclick: () => this.step(false) },
      redo: { id: "btn-redo", label: [icon("redo"), h("span", { class: "btn-text" }, t("game.redo"))], title: t("game.redo_title"),
        disabled: !c.placing || !(s.turn && s.turn.redo && s.turn.redo.length), onclick: () => this.step(true) },
      reset: { id: "btn-reset", label: t("game.reset"), disabled: !c.placing || (!n && !(s.turn && changedTable(s.turn))),
        onclick: () => this.ctl.restart() },
      hint: c.room.settings.hints ? { id: "btn-hint", label: t("game.hint"), disabled: !c.mine, onclick: () => this.askHint() } : null,
    };
    const buttons = this.game.controls(c, this.ctl, common).filter((b) => b != null).map((b) =>
      h("button", { class: "btn" + (b.primary ? " primary" : ""), id: b.id, title: b.title, disabled: b.disabled, onclick: b.onclick }, b.label));
    const dock = h("div", { class: "dock" }, h("div", { class: "controls" }, buttons, keysButton(this.keys)));
    if (s.ui.confirmDraw && c.mine) {
      const draw = "pool_size" in c.g && c.g.pool_size > 0 ? "draw" : "pass"; // the tile game's
      const close = () => update((st) => { st.ui.confirmDraw = false; });
      dock.append(h("div", { class: "confirm-box", id: "confirm-draw", role: "alertdialog", "aria-label": t(`game.${draw}`) },
        h("span", {}, t(`game.confirm_${draw}`)),
        h("button", { class: "btn small", id: "btn-keep-move", onclick: close }, t("game.keep_move")),
        h("button", { class: "btn small", id: "btn-draw-anyway", onclick: () => {
          if (!this.ctl.online()) return;
          close();
          this.act({ type: draw });
        } }, t(`game.${draw}_anyway`))));
    }
    if (s.hint) {
      const hint = "loading" in s.hint ? null : s.hint; // null: still thinking
      const action = hint && this.game.hintAction(hint);
      dock.append(h("div", { class: "hint-box" },
        h("span", {}, hint ? this.game.hintText(hint) : t("game.hint_thinking")),
        action ? h("button", { class: "btn small", id: "btn-apply-hint", onclick: () => {
          const now = this.context();
          if (now) this.game.applyHint(now, this.ctl);
        } }, t(action)) : null,
        h("button", { class: "btn small ghost-btn", onclick: () => update((st) => { st.hint = null; }) }, "✕")));
    }
    dock.append(this.tray(c, seat, true));
    return dock;
  }

  // --- the clocks -------------------------------------------------------------------------
  tick() {
    const s = getState();
    const g = s.view && s.view.game;
    // the clock of the player whose turn it is, on his chip: the time left and a bar under it
    const chip = /** @type {HTMLElement | null} */ (this.el.querySelector(".player.current"));
    const text = chip && chip.querySelector(".turn-clock");
    if (chip && text && g && s.clock.deadline != null && !g.round_over) {
      const left = Math.max(0, (s.clock.deadline - performance.now()) / 1000);
      text.textContent = fmtTime(left);
      const frac = g.turn_seconds ? left / g.turn_seconds : 0;
      chip.style.setProperty("--frac", String(Math.max(0, Math.min(1, frac))));
      chip.classList.toggle("urgent", left <= URGENT);
      // the last five seconds of one's own turn tick
      const second = Math.ceil(left);
      if (second > 5) this.ticked = null;
      else if (myTurn() && second > 0 && second !== this.ticked) { this.ticked = second; tickSound(); }
    }
    const pause = this.root.querySelector(".pause-left");
    if (pause && s.clock.pause != null) {
      pause.textContent = t("round.next_in", { s: Math.ceil(Math.max(0, (s.clock.pause - performance.now()) / 1000)) });
    }
  }
}

/** @param {number} s */
function fmtTime(s) {
  const m = Math.floor(s / 60);
  const r = Math.floor(s % 60);
  return m ? `${m}:${String(r).padStart(2, "0")}` : `${Math.ceil(s)}`;
}
