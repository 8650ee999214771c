// @ts-check
// Xpress's adapter for the one game view (game.js) and the replay viewer: dice instead of
// tiles, both hands in the open, a throw before placing (tap dice to mark them for the throw),
// no opening, and a score table over the match's rounds. Rules values come from room.rules.
import { t } from "./i18n.js";
import { faceValue } from "./pieces.js";
import { placed, recordStep, tableJson, layOut } from "./turn.js";
import { h, toast } from "./util.js";

/**
 * @param {import("./types.js").XpressGame} g
 * @param {number} seat
 */
const handOf = (g, seat) => g.hands[seat].map((d) => ({ face: d.face, die: d.die }));

// Place the dice laid out (if any), then end the turn.
/**
 * @param {import("./types.js").Ctx<import("./types.js").XpressGame>} c
 * @param {import("./types.js").Ctl} ctl
 */
async function placeAndEnd(c, ctl) {
  const pieces = placed(c.s.turn);
  const table = tableJson(c.s.turn);
  ctl.change((s) => { s.busy = true; });
  try {
    if (pieces.length) {
      // an Xpress piece is always a die (never null)
      await ctl.request({ type: "place", dice: pieces.map((x) => /** @type {number} */ (x.die)), table });
      const view = ctl.state().view;
      const g = view && view.game;
      // the page left the room meanwhile (no game any more), or the placement ended the round
      if (!g || g.round_over || g.current !== c.seat) return;
    }
    await ctl.request({ type: "end_turn" });
  } catch (err) {
    const refusal = /** @type {import("./types.js").Refusal} */ (err);
    if (refusal.code !== "disconnected") toast(refusal.message, "error");
  } finally {
    ctl.change((s) => { s.busy = false; });
  }
}

/** @type {import("./types.js").GameAdapter<import("./types.js").XpressGame>} */
export const xpressGame = {
  game: "xpress",
  piece: "die",
  record: "rummikub-xpress/1",
  css: "xpress",
  trayClass: "dice-tray",
  labelBelow: false,
  meldValues: false,
  emptyTable: "xpress.empty_table",
  handTitle: "xpress.dice_left",
  handCount: "xpress.chip_dice",
  // the last move's line and the replay's chart speak of dice and the hand, not tiles and racks
  lastWords: { hand: "xpress.last_hand", moved: "xpress.last_moved", joker: "xpress.last_joker" },
  standings: "xpress.standings",

  // --- the position -------------------------------------------------------------------
  turnKey: (g) => `${g.round}:${g.step}`,
  hand: handOf,
  shownHands: (g) => g.hands.map((_, i) => handOf(g, i)), // dice are thrown in the open
  handSize: (g, i) => g.hands[i].length,
  // an Xpress room's rules always have joker_value
  value: (face, rules) => faceValue(face, /** @type {number} */ (rules.joker_value)),
  placing: (g) => g.phase === "place",
  movable: () => true, // sets belong to nobody: every die on the table may move
  marking: (c) => c.mine && c.g.phase === "throw",
  markClass: "to-throw",
  arrange: (items) => items, // in die order
  // the dice of the last throw roll once (not for a page opened in the middle of a round)
  roll: (g) => ({ id: g.roll_id, dice: g.rolled, late: g.step > 0 }),

  // --- what it looks like -------------------------------------------------------------
  badges(c, i) {
    const idle = c.g.idle[i];
    return [idle ? h("span", { class: "idle", title: t("xpress.idle_title", { n: c.g.block_throws }) }, `${idle}/${c.g.block_throws}`) : null];
  },
  formatScore: (s) => String(s),
  sideInfo: (c) => h("div", { class: "pool round-no" }, t("xpress.round", { n: c.g.round + 1, of: c.g.rounds })),
  trayLabel: (c, seat, own, n, v) => ({
    name: own ? t("xpress.your_dice") : t("xpress.their_dice", { name: c.name(seat) }),
    info: t("xpress.dice_info", { n, v }),
    empty: t("xpress.no_dice"),
  }),

  status(c) {
    const g = c.g;
    if (g.round_over) return "";
    if (!c.mine) return t(g.phase === "throw" ? "xpress.waiting_throw" : "xpress.waiting_place", { name: c.name(g.current) });
    if (g.phase === "throw") return t("xpress.your_throw");
    const play = c.s.check && c.s.check.play;
    const n = placed(c.s.turn).length;
    if (n && play && !play.ok) return h("span", { class: "bad" }, play.message);
    if (n && play && play.ok) return h("span", { class: "good" }, t("xpress.ready", { n }));
    if (g.placed) return t("xpress.placed_more", { n: g.placed });
    if (g.can_place) return t(g.first_turn ? "xpress.must_place_first" : "xpress.must_place");
    return t("xpress.nothing");
  },

  // --- actions ------------------------------------------------------------------------
  controls(c, ctl, { reset, hint, undo, redo }) {
    const g = c.g;
    const throwing = c.mine && g.phase === "throw";
    const n = placed(c.s.turn).length;
    const ok = c.s.check && c.s.check.play && c.s.check.play.ok;
    const canEnd = c.mine && g.phase === "place" && !c.s.busy && (n ? ok : g.may_end_turn);
    const marked = c.s.marked.size;
    return [
      { id: "btn-throw", label: throwing && marked ? t("xpress.throw_n", { n: marked }) : t("xpress.throw_all"),
        primary: throwing, disabled: !throwing,
        onclick: () => {
          const mine = c.seat == null ? [] : g.hands[c.seat].map((d) => d.die);
          const dice = c.s.marked.size ? mine.filter((d) => c.s.marked.has(d)) : mine;
          ctl.change((s) => { s.marked = new Set(); });
          ctl.act({ type: "throw", dice });
        } },
      undo, redo, reset, hint,
      { id: "btn-end", label: n ? t("xpress.place_end", { n }) : t("game.end_turn"), primary: !throwing,
        disabled: !canEnd, onclick: () => placeAndEnd(c, ctl) },
    ];
  },

  hintText(hint) {
    if (hint.throw) return t("xpress.hint_throw", { n: hint.throw.length });
    if (hint.dice && hint.dice.length) return t("xpress.hint_place", { n: hint.dice.length });
    return t("xpress.hint_none");
  },
  hintAction: (hint) => (hint.throw ? "xpress.hint_select" : hint.table ? "game.hint_apply" : null),
  applyHint(c, ctl) {
    const hint = c.s.hint;
    if (!hint || "loading" in hint) return; // the button shows once the hint came
    const thrown = hint.throw;
    if (thrown) { ctl.change((s) => { s.marked = new Set(thrown); s.hint = null; }); return; }
    const { table, dice = [] } = hint;
    if (!table) return; // nothing to place (no button then)
    ctl.changeMove((s) => { recordStep(s.turn); layOut(s.turn, table, (x) => x.die != null && dice.includes(x.die)); s.hint = null; });
  },
  // the dice a hint throws again or places
  hinted(c, items) {
    const hint = c.s.hint;
    const dice = new Set((hint && !("loading" in hint) && (hint.throw || hint.dice)) || []);
    return new Set(items.filter((x) => x.die != null && dice.has(x.die)).map((x) => x.id));
  },

  describe(e, name) {
    switch (e.action) {
      case "throw": return t("xpress.log_throw", { name, n: e.dice.length, faces: e.faces.join(" ") });
      case "place": return t("xpress.log_place", { name, faces: e.faces.join(" "), n: e.faces.length });
      case "end": return e.placed ? t("xpress.log_end", { name }) : t("xpress.log_nothing", { name });
      default: return null;
    }
  },

  // --- the score card and the replay ----------------------------------------------------
  plannedRounds: (g) => g.rounds, // a row for every round of the match
  leftOf: (result) => result.hands,
  leftLabel: (name, n) => t("xpress.left", { name, n }),
  roundTitle(last, names) {
    if (!last || last.reason === "abandoned") return t("round.abandoned");
    if (last.winner == null) return t("xpress.round_draw");
    return t(last.reason === "out" ? "xpress.round_out" : "xpress.round_blocked", { name: names[last.winner], n: last.scores[last.winner] });
  },
  matchText: (g, names) => (g.winners.length > 1 ? t("xpress.match_draw")
    : t("round.match_over", { names: g.winners.map((w) => names[w]).join(", ") })),
  replayTitle: (code) => t("xpress.replay_title", { code }),
  replayCounter: (s, i, n) => t("xpress.replay_counter", { round: s.round + 1, i, n }),
  replayWinner: (end, names) => (end.winner != null ? t("round.winner", { name: names[end.winner] }) : t("xpress.round_draw")),
  replayScore: (x) => `+${x}`,
  replayAbove: (players) => players.slice(1).map((_, i) => i + 1), // the other player's dice above the table
};
