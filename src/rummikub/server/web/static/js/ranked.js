// @ts-check
// Playing under an account, in the lobby: the quick match (a rated game against players of
// one's level, bots filling the table after a while if allowed) and the games one holds a
// seat in, to go back to from any browser. A guest sees a link to log in instead.
import { t, errorText } from "./i18n.js";
import { currentAccount, sessionGames } from "./account.js";
import { h, navigate, saveSeat, toast } from "./util.js";

// The queue as this page knows it (kept over the lobby's redraws and reconnections).
/** @type {{waiting: boolean, since: number, rating: number | null, botsAfter: number | null, msg: import("./types.js").ClientMsg | null}} */
const queue = { waiting: false, since: 0, rating: null, botsAfter: null, msg: null };
let redraw = () => {};
/** @type {ReturnType<typeof setInterval> | null} */
let ticker = null;

/** @param {boolean} on */
function setWaiting(on) {
  queue.waiting = on;
  if (ticker != null) clearInterval(ticker);
  ticker = on ? setInterval(() => redraw(), 1000) : null;
  redraw();
}

// Messages of the queue (app.js passes every server message here).
/** @param {import("./types.js").ServerMsg} msg */
export function onQueueMessage(msg) {
  if (msg.type === "matched") {
    setWaiting(false);
    saveSeat(msg.room, msg.seat, msg.token);
    navigate(`/r/${msg.room}`);
  } else if (msg.type === "unqueued" && msg.id == null) {
    setWaiting(false);
    if (msg.reason === "replaced") toast(t("quick.replaced"));
  }
}

/**
 * @param {import("./net.js").Net} net
 * @param {import("./types.js").ClientMsg} msg
 */
async function join(net, msg) {
  try {
    await net.whenOpen();
    /** @type {import("./types.js").QueuedMsg} */
    const reply = await net.request(msg);
    queue.rating = reply.rating;
    queue.botsAfter = reply.bots_after;
    queue.msg = msg;
    if (!queue.waiting) queue.since = Date.now();
    setWaiting(true);
  } catch (e) {
    const err = /** @type {import("./types.js").Refusal} */ (e);
    if (err.code !== "disconnected") toast(err.code ? errorText(err) : t("error.generic"), "error");
  }
}

// The connection came back: the server forgot the ticket with the old connection.
/** @param {import("./net.js").Net} net */
export function requeue(net) {
  if (queue.waiting && queue.msg) join(net, queue.msg);
}

/** @param {import("./net.js").Net} net */
export function quickMatchCard(net) {
  const card = h("section", { class: "card quick-match", id: "quick-match" });
  const sizes = [2, 3, 4].map((n) => h("input", { type: "checkbox", value: String(n), checked: n === 2, id: `qm-size-${n}` }));
  const bots = h("input", { type: "checkbox", id: "qm-bots", checked: true });
  redraw = () => {
    if (!card.isConnected && card.childElementCount) return;
    const a = currentAccount();
    card.replaceChildren(h("h2", { i18n: "quick.title" }), h("p", { class: "muted" }, t("quick.intro")));
    if (!a) {
      card.append(h("p", {}, h("a", { href: "/account", "data-link": true, id: "qm-login" }, t("quick.login"))));
      return;
    }
    if (queue.waiting) {
      const secs = Math.floor((Date.now() - queue.since) / 1000);
      card.append(
        h("p", { id: "qm-status", role: "status" }, t("quick.waiting", { s: secs })),
        h("p", { class: "muted" }, t("quick.your_rating", { rating: queue.rating ?? "–" }),
          queue.botsAfter != null ? ` · ${t("quick.bots_after", { s: queue.botsAfter })}` : ""),
        h("button", { class: "btn", id: "qm-cancel", onclick: async () => {
          try { await net.request({ type: "unqueue" }); } catch { /* not queued any more */ }
          setWaiting(false);
        } }, t("quick.cancel")));
      return;
    }
    card.append(
      h("fieldset", { class: "form-row checks qm-sizes" }, h("legend", {}, t("quick.players")),
        sizes.map((box) => h("label", { class: "check" }, box, h("span", {}, box.value)))),
      h("div", { class: "form-row checks" }, h("label", { class: "check" }, bots, h("span", {}, t("quick.bots")))),
      h("button", { class: "btn primary", id: "qm-find", onclick: () => {
        const players = sizes.filter((b) => b.checked).map((b) => Number(b.value));
        if (!players.length) { toast(t("quick.pick_size"), "error"); return; }
        join(net, { type: "queue", game: "tiles", players, bots: bots.checked });
      } }, t("quick.find")));
  };
  redraw();
  return card;
}

// The unfinished games the account holds a seat in (null when there are none).
export function myGamesCard() {
  const games = sessionGames();
  if (!currentAccount() || !games.length) return null;
  return h("section", { class: "card my-games", id: "my-games" }, h("h2", {}, t("mine.title")),
    h("ul", { class: "game-list" }, games.map((g) => h("li", { dataset: { code: g.room } },
      h("span", { class: "code" }, g.room),
      h("span", { class: "who" }, g.players.join(", "),
        h("span", { class: "room-facts muted" }, `${t(`mine.${g.status}`)}${g.rated ? ` · ${t("profile.rated")}` : ""}`)),
      h("a", { class: "btn small primary", href: `/r/${g.room}`, "data-link": true }, t("mine.resume"))))));
}
