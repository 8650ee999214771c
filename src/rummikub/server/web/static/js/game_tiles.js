// @ts-check
// The tile game's adapter for the one game view (game.js) and the replay viewer: what its
// hands, table and buttons are. Every rules value comes from the room's rules (room.rules).
import { t } from "./i18n.js";
import { faceValue, setsLine, sortFaces } from "./pieces.js";
import { changedTable, placed, recordStep, tableJson, layOut } from "./turn.js";
import { h, toast } from "./util.js";

/** @param {number} s */
const signed = (s) => `${s > 0 ? "+" : ""}${s}`;

/** @type {import("./types.js").GameAdapter<import("./types.js").TileGame>} */
export const tilesGame = {
  game: "tiles",
  piece: "tile",
  record: "rummikub-game/1",
  css: "",
  trayClass: "",
  labelBelow: true, // the rack's count and points under the rack
  meldValues: true, // a valid set just made shows its value
  emptyTable: "game.empty_table",
  handTitle: "game.tiles_left",
  handCount: "game.chip_tiles",
  // the last move's line: tiles laid from the rack, moved, a joker taken; the replay's chart
  lastWords: { hand: "game.last_rack", moved: "game.last_moved", joker: "game.last_joker" },
  standings: "replay.standings",

  // --- the position -------------------------------------------------------------------
  turnKey: (g) => `${g.round}:${g.turn}`,
  hand: (g) => (g.rack || []).map((face) => ({ face, die: null })),
  shownHands: () => null, // racks are secret
  handSize: (g, i) => g.rack_sizes[i],
  // a tile room's rules always have joker_penalty
  value: (face, rules) => faceValue(face, /** @type {number} */ (rules.joker_penalty)),
  placing: () => true, // on his turn a player builds on the table
  // a table tile moves once the player has opened; his own placed tiles always
  movable: (c, item) => item.rack || (c.seat != null && c.g.opened[c.seat]),
  marking: () => false,
  // sorted, or as the player arranged it
  arrange: (items, ui) => (ui.sort === "hand" ? items : sortFaces(items, ui.sort, (x) => x.s)),
  arrangeable: true, // the player may drag tiles within his rack

  // --- what it looks like -------------------------------------------------------------
  badges: (c, i) => [c.g.opened[i] ? h("span", { class: "opened", title: t("game.opened") }, "✓") : null],
  formatScore: signed,
  sideInfo: (c) => h("div", { class: "pool", title: t("game.pool") }, h("span", { class: "mini-tile stack" }), String(c.g.pool_size)),
  trayLabel: (c, seat, own, n, v) => ({ name: null, info: t("game.rack_info", { n, v }), empty: null }),

  status(c) {
    if (!c.mine) return c.g.round_over ? "" : t("game.waiting_for", { name: c.name(c.g.current) });
    const play = c.s.check && c.s.check.play;
    const n = placed(c.s.turn).length;
    if (!n) return t(c.seat != null && c.g.opened[c.seat] ? "game.your_turn" : "game.your_turn_open", { n: c.rules.opening_value });
    if (play && !play.ok) return h("span", { class: "bad" }, play.message);
    if (play && play.ok) return h("span", { class: "good" }, t("game.play_ok", { n }));
    return "";
  },

  // --- actions ------------------------------------------------------------------------
  controls(c, ctl, { reset, hint, undo, redo }) {
    const sort = c.s.ui.sort;
    const n = placed(c.s.turn).length;
    const ok = c.s.check && c.s.check.play && c.s.check.play.ok;
    const draw = c.g.pool_size > 0 ? "draw" : "pass";
    return [
      { id: "btn-sort", label: t(sort === "789" ? "game.sort_777" : "game.sort_789"), title: t("game.sort_title"),
        onclick: () => ctl.setSort(sort === "789" ? "777" : "789") },
      undo, redo, reset, hint,
      // with a move being built, the page asks before drawing (the move would be undone)
      { id: "btn-draw", label: t(`game.${draw}`), disabled: !c.mine,
        onclick: () => {
          if (!ctl.online()) return;
          if (n || changedTable(c.s.turn)) ctl.change((s) => { s.ui.confirmDraw = true; });
          else ctl.act({ type: draw });
        } },
      { id: "btn-play", label: t("game.end_turn"), primary: true, disabled: !c.mine || !n || !ok,
        onclick: () => {
          if (!placed(c.s.turn).length) { toast(t("game.place_first"), "error"); return; }
          ctl.act({ type: "play", table: tableJson(c.s.turn) });
        } },
    ];
  },

  hintText: (hint) => {
    if (hint.tiles && hint.tiles.length) return t("game.hint_play", { tiles: hint.tiles.join(" ") });
    // a draw although tiles fit: keeping them is the better move
    return hint.placeable ? t("game.hint_keep", { n: hint.placeable }) : t("game.hint_draw");
  },
  hintAction: (hint) => (hint.table ? "game.hint_apply" : null),
  applyHint(c, ctl) {
    const hint = c.s.hint;
    const table = hint && !("loading" in hint) ? hint.table : null;
    if (!table) return; // the button shows for a hint with a play
    ctl.changeMove((s) => { recordStep(s.turn); layOut(s.turn, table); s.hint = null; });
  },
  // the rack tiles a hint plays
  hinted(c, items) {
    /** @type {Set<string>} */
    const out = new Set();
    const hint = c.s.hint;
    const want = [...((hint && !("loading" in hint) && hint.tiles) || [])];
    for (const x of items) { const k = want.indexOf(x.s); if (k >= 0) { want.splice(k, 1); out.add(x.id); } }
    return out;
  },

  describe(e, name) {
    switch (e.action) {
      case "play": {
        // by the sets it made (the tiles laid underlined), or else by its tiles
        const hinted = e.hint ? ` ${t("log.hinted")}` : "";
        if (e.sets) return [t("log.play_sets", { name, n: e.tiles.length }) + hinted, setsLine(e.sets, e.tiles)];
        return t("log.play", { name, tiles: e.tiles.join(" "), n: e.tiles.length }) + hinted;
      }
      case "draw": return t("log.draw", { name });
      case "pass": return t("log.pass", { name });
      case "timeout": return t("log.timeout", { name, n: e.penalty });
      case "invalid": return t("log.invalid", { name, n: e.penalty });
      default: return null;
    }
  },

  // --- the score card and the replay ----------------------------------------------------
  plannedRounds: () => 0, // rows for the rounds played so far
  leftOf: (result) => result.racks,
  leftLabel: (name, n) => `${name} (${n})`,
  roundTitle(last, names) {
    if (!last || last.winner == null) return t("round.abandoned");
    return t(last.reason === "rummikub" ? "round.rummikub" : "round.exhausted", { name: names[last.winner] });
  },
  matchText: (g, names) => t("round.match_over", { names: g.winners.map((w) => names[w]).join(", ") }),
  replayTitle: (code) => t("replay.title", { code }),
  replayCounter: (s, i, n) => t("replay.counter", { round: s.round + 1, turn: s.turn + 1, i, n }),
  replayWinner: (end, names) => (end.winner != null ? t("round.winner", { name: names[end.winner] }) : t("round.abandoned")),
  replayScore: signed,
  replayAbove: () => [], // every rack under the table
};
