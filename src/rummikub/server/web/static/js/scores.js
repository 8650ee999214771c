// @ts-check
// The score card at the end of a round, for both games: every round's scores and the totals,
// what each player had left, and the next round (or the replay once the match is over).
import { t } from "./i18n.js";
import { groupEl } from "./pieces.js";
import { getState } from "./store.js";
import { h } from "./util.js";
import { rematchRow } from "./rematch.js";

// A rated game's rating changes, once it is over (the server says so after the last move).
/** @param {string[]} names */
function ratedLines(names) {
  const changes = getState().rated;
  if (!changes || !changes.length) return null;
  return h("div", { class: "rated-change", id: "rated-change" }, changes.map((ch) =>
    h("p", {}, t("game.rated_change", { name: names[ch.seat], before: ch.before, after: ch.after }))));
}

// `c` is the game view's context, `game` the adapter, `act(msg)` sends a message.
/**
 * @param {import("./types.js").Ctx} c
 * @param {import("./types.js").GameAdapter} game
 * @param {(msg: import("./types.js").ClientMsg) => unknown} act
 */
export function scoreCard(c, game, act) {
  const g = c.g;
  const names = c.names;
  const fmt = game.formatScore;
  const last = g.results[g.results.length - 1];
  const played = g.results.length ? g.results[g.results.length - 1].round + 1 : 0;
  const rows = [];
  for (let r = 0; r < Math.max(game.plannedRounds(g), played); r++) {
    const res = g.results.find((x) => x.round === r);
    rows.push(h("tr", { class: res ? "" : "future" }, h("td", {}, String(r + 1)),
      names.map((_, i) => h("td", { class: res ? (i === res.winner ? "win " : "") + (res.scores[i] < 0 ? "neg" : "") : "" },
        res ? fmt(res.scores[i]) : "–"))));
  }
  const totals = h("tr", { class: "totals" }, h("td", {}, t("round.total")), g.totals.map((s) => h("td", {}, fmt(s))));
  const left = last ? h("div", { class: "final-racks" }, game.leftOf(last).map((hand, i) => h("div", { class: "final-rack" },
    h("span", { class: "final-name" }, game.leftLabel(names[i], last.left[i])),
    hand.length ? groupEl(hand, { kind: game.piece }) : h("span", { class: "tiles-inline" }, "—")))) : null;
  const card = h("div", { class: "card score-card", role: "dialog", "aria-modal": "true" },
    h("h2", { class: "round-title" }, game.roundTitle(last, names)),
    g.match_over ? h("p", { class: "match-result" }, game.matchText(g, names)) : null,
    g.match_over ? ratedLines(names) : null,
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, t("round.round")), names.map((n) => h("th", {}, n)))),
      h("tbody", {}, rows, totals)),
    left);
  if (!g.match_over && c.seat != null) {
    const ready = g.ready.includes(c.seat);
    card.append(h("div", { class: "form-row" },
      h("button", { class: "btn primary", id: "btn-next-round", disabled: ready, onclick: () => act({ type: "next_round" }) },
        ready ? t("round.waiting_others") : t("round.next")),
      h("span", { class: "pause-left muted" })));
  } else if (g.match_over) {
    card.append(rematchRow(c, act) ?? "", h("div", { class: "form-row" },
      h("a", { class: "btn primary", href: `/replay/${c.room.code}`, "data-link": true }, t("lobby.replay")),
      h("a", { class: "btn", id: "btn-analysis", href: `/replay/${c.room.code}?analyse=1`, "data-link": true }, t("lobby.analysis")),
      h("a", { class: "btn", href: "/", "data-link": true }, t("room.back"))));
  }
  return h("div", { class: "overlay" }, card);
}
