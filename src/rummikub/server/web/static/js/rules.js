// @ts-check
// The rules of a room, in the page's language: how the game is played, then what this room's
// rules (its preset and the changes made to it) say. Shown in the game's side panel ("Rules")
// and in the waiting room.
import { t, presetLabel } from "./i18n.js";
import { h } from "./util.js";

/** @typedef {import("./types.js").Rules} Rules */
/** @typedef {{play: string[], room: string[]}} RulesText */

/**
 * @param {Rules} r
 * @returns {RulesText}
 */
function tileRules(r) {
  const play = [
    t("rules.goal"),
    t("rules.sets"),
    t("rules.jokers", { n: r.joker_penalty }),
    t("rules.opening", { n: r.opening_value }),
    t("rules.rearrange"),
    t("rules.draw"),
  ];
  const room = [];
  room.push(r.turn_seconds == null ? t("rules.no_clock")
    : t("rules.clock", { s: r.turn_seconds, n: r.timeout_penalty }));
  room.push(t(r.joker_rule === "strict" ? "rules.joker_strict" : "rules.joker_free"));
  room.push(r.invalid_play === "penalty" ? t("rules.invalid_penalty", { n: r.invalid_penalty }) : t("rules.invalid_reject"));
  room.push(t(r.scoring === "penalty-points" ? "rules.scoring_penalty" : "rules.scoring_zero"));
  /** @type {Partial<import("./types.js").MatchLength>} */
  const m = r.match || {};
  if (m.rounds != null && m.target != null) room.push(t("rules.match_both", { rounds: m.rounds, n: m.target }));
  else if (m.target != null) room.push(t("rules.match_target", { n: m.target }));
  else room.push(t("rules.match_rounds", { n: m.rounds ?? 1 }));
  return { play, room };
}

/**
 * @param {Rules} r
 * @returns {RulesText}
 */
function xpressRules(r) {
  return {
    play: [t("rules.x_goal"), t("rules.x_throw"), t("rules.x_place"), t("rules.x_blocked", { n: r.block_throws ?? 3 })],
    room: [t("rules.x_rounds", { n: r.rounds ?? 6 }), t("rules.x_joker", { n: r.joker_value ?? 10 })],
  };
}

// The rules of room `room` (a state's room: {rules, ...}) of game `game` ("tiles" | "xpress").
/**
 * @param {{rules?: Rules}} room
 * @param {string | null | undefined} game
 */
export function rulesView(room, game) {
  const r = room.rules || {};
  const { play, room: here } = game === "xpress" ? xpressRules(r) : tileRules(r);
  const preset = r.preset ? presetLabel(r.preset, game === "xpress" ? undefined : /** @type {Partial<import("./types.js").TileRules>} */ (r)) : null;
  return h("div", { class: "rules-view" },
    h("h3", {}, t("rules.how")),
    h("ul", {}, play.map((line) => h("li", {}, line))),
    h("h3", {}, preset ? t("rules.this_room_preset", { preset }) : t("rules.this_room")),
    h("ul", {}, here.map((line) => h("li", {}, line))));
}
