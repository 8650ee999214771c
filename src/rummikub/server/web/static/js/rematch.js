// @ts-check
// The rematch at the end of a match (server: handlers/rematch.py): on the score card, a
// *Rematch* button for each person; who accepted and who is still awaited; once every person
// still in the room accepted, the server makes the new room (same people, bots and rules) and
// tells each who accepted his seat there (`rematch`): the page goes to it. Whoever did not
// (a spectator, a player who had not answered) gets a link to it.
import { t } from "./i18n.js";
import { h, navigate, saveSeat } from "./util.js";

/** @typedef {import("./types.js").ClientMsg} ClientMsg */

/**
 * A message of the connection (app.js): the rematch made, with our seat in it.
 * @param {import("./types.js").ServerMsg} msg
 */
export function onRematchMessage(msg) {
  if (msg.type !== "rematch") return;
  saveSeat(msg.room, msg.seat, msg.token);
  navigate(`/r/${msg.room}`);
}

/**
 * The rematch's part of the score card at the end of the match (null: none).
 * @param {import("./types.js").Ctx} c
 * @param {(msg: ClientMsg) => unknown} act
 */
export function rematchRow(c, act) {
  const r = c.room.rematch;
  if (!c.g.match_over || !r) return null;
  if (r.room) {
    // made: a player it was made without (or a spectator) may follow
    const seat = c.seat != null ? c.room.seats[c.seat] : null;
    const href = seat && seat.kind === "human" ? `/r/${r.room}` : `/r/${r.room}?watch=1`;
    return h("div", { class: "rematch-box", id: "rematch-box", role: "status" },
      h("span", {}, t("rematch.made", { code: r.room })), " ",
      h("a", { class: "btn small", id: "rematch-go", href, "data-link": true }, t("rematch.go")));
  }
  const accepted = new Set(r.accepted);
  const awaited = c.room.seats.flatMap((s, i) => (s.kind === "human" && s.connected && !accepted.has(i) ? [c.name(i)] : []));
  const who = r.accepted.map((i) => c.name(i));
  const box = h("div", { class: "rematch-box", id: "rematch-box", role: "status" });
  if (who.length) box.append(h("p", { id: "rematch-accepted" }, t("rematch.accepted", { names: who.join(", "), n: who.length })));
  if (c.seat != null && c.room.seats[c.seat].kind === "human") {
    if (accepted.has(c.seat)) {
      if (awaited.length) box.append(h("p", { class: "muted", id: "rematch-waiting" }, t("rematch.waiting", { names: awaited.join(", ") })));
      box.append(
        h("button", { class: "btn small", id: "btn-rematch-cancel", type: "button", onclick: () => act({ type: "rematch", accept: false }) },
          t("rematch.cancel")));
    } else {
      box.append(h("button", { class: "btn primary", id: "btn-rematch", type: "button", title: t("rematch.title"),
        onclick: () => act({ type: "rematch" }) }, t("rematch.button")));
    }
  }
  return box.childNodes.length ? box : null;
}
