// @ts-check
// A room's page: which game it plays, taking a seat (with the saved token, or by joining) or
// watching, the waiting room, and then the game view (game.js) with the game's adapter.
import { t, translate } from "./i18n.js";
import { GameView } from "./game.js";
import { gameOf } from "./games.js";
import { rulesView } from "./rules.js";
import { enterRoom, getState, leaveRoom, subscribe, update } from "./store.js";
import { currentAccount } from "./account.js";
import { act, botIcon, forgetSeat, getJSON, h, keepFocus, playerName, savedSeat, saveSeat, setPlayerName, toast } from "./util.js";

/** @typedef {NonNullable<import("./store.js").State["room"]>["mode"]} Mode */

export class RoomPage {
  /**
   * @param {HTMLElement} root
   * @param {import("./net.js").Net} net
   * @param {string} code
   */
  constructor(root, net, code) {
    this.root = root;
    this.net = net;
    this.code = code;
    /** @type {GameView | null} */
    this.view = null; // the GameView once the game is on
    /** @type {string | null} */
    this.screen = null;
    /** @type {number | null} */
    this.confirming = null; // the seat whose removal the host is asked to confirm
    this.gone = false;
    this.unsubscribe = subscribe((s, what) => this.render(what));
    this.start();
  }

  destroy() {
    this.gone = true;
    this.unsubscribe();
    if (this.view) this.view.destroy();
    // a spectator stops watching; a player keeps his seat (he may come back with his token)
    const s = getState();
    if (s.room && s.room.code === this.code && s.room.mode === "watch") this.net.send({ type: "leave" });
    leaveRoom();
  }

  async start() {
    const saved = savedSeat(this.code);
    const watch = new URLSearchParams(location.search).has("watch");
    /** @type {import("./types.js").RoomInfo | null} */
    let info = null;
    try { info = await getJSON(`/api/rooms/${this.code}`); } catch { /* unknown, or over */ }
    if (this.gone) return;
    /** @type {Mode} */
    let mode = "watch";
    // a seat of this account, taken in another browser: it is ours here too
    const me = currentAccount();
    const mine = !!(me && info && info.seats.some((s) => s.account && s.name === me.name));
    if ((saved || mine) && !watch) mode = "player";
    else if (!info) mode = "missing";
    else if (!watch && info.status === "waiting" && info.seats.some((s) => s.kind === "human" && !s.taken)) mode = "prompt";
    enterRoom(this.code, gameOf(info && info.game), mode);
    this.enter();
  }

  /** @param {Mode} mode */
  setMode(mode) { update((s) => { if (s.room) s.room.mode = mode; }); }

  // Take the saved seat again, or watch (again, after a reconnect).
  enter() {
    const s = getState();
    if (!s.room || !this.net.open) return; // onReconnect calls again
    if (s.room.mode === "player") {
      const saved = savedSeat(this.code);
      /** @type {import("./types.js").ClientMsg} */
      const msg = { type: "resume", room: this.code };
      if (saved && saved.token) msg.token = saved.token; // else by the account
      this.net.request(msg).catch((/** @type {import("./types.js").Refusal} */ err) => {
        if (err.code === "disconnected" || this.gone) return;
        forgetSeat(this.code);
        toast(err.message, "error");
        this.setMode("watch");
        this.enter();
      });
    } else if (s.room.mode === "watch") {
      this.net.request({ type: "watch", room: this.code }).catch((/** @type {import("./types.js").Refusal} */ err) => {
        if (err.code !== "disconnected" && !this.gone) this.setMode("missing");
      });
    }
  }

  onReconnect() { this.enter(); }

  /** @param {string} name */
  async join(name) {
    try {
      /** @type {import("./types.js").JoinedMsg} */
      const reply = await this.net.request({ type: "join", room: this.code, name });
      saveSeat(this.code, reply.seat, reply.token);
      this.setMode("player");
    } catch (e) {
      const err = /** @type {import("./types.js").Refusal} */ (e);
      toast(err.message, "error");
      this.setMode("watch");
      this.enter();
    }
  }

  // Which screen the state calls for.
  which() {
    const s = getState();
    if (!s.room) return "none";
    if (s.room.mode === "missing" || s.room.mode === "prompt") return s.room.mode;
    if (!s.view) return "loading";
    if (s.view.room.status === "waiting") return "waiting";
    return s.view.game ? "game" : "none";
  }

  /** @param {import("./store.js").What} [what] */
  render(what) {
    if (this.gone) return;
    const screen = this.which();
    const changed = screen !== this.screen;
    if (changed && this.view) { this.view.destroy(); this.view = null; }
    this.screen = screen;
    if (screen === "game") {
      const room = getState().room;
      if (!this.view) this.view = new GameView(this.root, this.net, gameOf(room && room.game));
      this.view.render(what);
      return;
    }
    // the other screens are drawn again when they change, or when the waiting room does
    if (!changed && what !== "language" && !(screen === "waiting" && (what === "state" || what === "local"))) return;
    keepFocus(this.root, () => {
      this.root.replaceChildren();
      if (screen === "missing") this.missing();
      else if (screen === "prompt") this.prompt();
      else if (screen === "loading") this.root.append(h("div", { class: "card center muted" }, t("room.loading")));
      else if (screen === "waiting") this.waiting();
      translate(this.root);
    });
  }

  missing() {
    this.root.append(h("div", { class: "card center" }, h("h2", { i18n: "room.missing" }),
      h("p", {}, h("a", { class: "btn", href: `/replay/${this.code}`, "data-link": true }, t("lobby.replay")), " ",
        h("a", { class: "btn", href: "/", "data-link": true }, t("room.back")))));
  }

  prompt() {
    const info = getState().info;
    const limit = info && info.limits ? info.limits.name : null;
    const input = h("input", { id: "join-name", maxlength: limit, value: playerName(), "data-i18n-placeholder": "lobby.name_placeholder" });
    this.root.append(h("div", { class: "card center narrow" },
      h("h2", {}, t("room.join_title", { code: this.code })),
      h("label", { for: "join-name", i18n: "lobby.your_name" }), input,
      h("div", { class: "form-row" },
        h("button", { class: "btn primary", id: "join-seat", onclick: () => {
          const name = input.value.trim().slice(0, limit ?? undefined);
          if (!name) { input.focus(); toast(t("lobby.need_name"), "error"); return; }
          setPlayerName(name);
          this.join(name);
        } }, t("lobby.join")),
        h("button", { class: "btn", onclick: () => { this.setMode("watch"); this.enter(); } }, t("lobby.watch")))));
  }

  // Remove, then (the person cannot come back) Yes or Cancel.
  /**
   * @param {import("./types.js").Seat} seat
   * @param {number} i
   */
  removeButtons(seat, i) {
    const name = seat.name || String(i + 1);
    /** @param {number | null} which */
    const ask = (which) => { this.confirming = which; this.render("local"); };
    if (this.confirming !== i) {
      return h("button", { class: "btn small remove-seat", id: `remove-${i}`, type: "button",
        title: t("mod.remove_title", { name }), onclick: () => ask(i) }, t("mod.remove"));
    }
    return h("span", { class: "remove-confirm" },
      h("button", { class: "btn small danger", id: `remove-yes-${i}`, type: "button", title: t("mod.remove_title", { name }),
        onclick: () => { this.confirming = null; act(this.net, { type: "remove", seat: i }); } }, t("mod.remove_yes")),
      h("button", { class: "btn small", id: `remove-no-${i}`, type: "button", onclick: () => ask(null) }, t("mod.cancel")));
  }

  waiting() {
    const s = getState();
    if (!s.view || !s.room) return; // which() says "waiting" only then
    const room = s.view.room;
    const game = s.room.game;
    const link = `${location.origin}/r/${room.code}`;
    const host = room.settings.host ?? 0;
    // the host may remove any other person seated (who cannot join this room again)
    /**
     * @param {import("./types.js").Seat} seat
     * @param {number} i
     */
    const removable = (seat, i) => s.seat != null && s.seat === host && i !== s.seat && seat.kind === "human" && seat.taken;
    const seats = room.seats.map((seat, i) => h("li", { class: "seat-item" + (seat.taken ? " taken" : "") },
      h("span", { class: "seat-num" }, String(i + 1)),
      h("span", { class: "seat-name" }, seat.kind === "bot" ? [botIcon(), t(`bot.${seat.bot}`)] : (seat.name || t("seat.free")),
        seat.account ? h("span", { class: "account-badge", title: t("seat.account"), "aria-label": t("seat.account") }, "✓") : null),
      seat.kind === "human" && seat.taken ? h("span", { class: "dot" + (seat.connected ? " on" : "") }) : null,
      removable(seat, i) ? this.removeButtons(seat, i) : null));
    /** @type {HTMLDivElement} */
    const card = h("div", { class: "card center narrow waiting" },
      h("h2", { i18n: "room.waiting_title" }),
      h("p", { class: "muted", i18n: "room.invite_text" }),
      h("div", { class: "invite" },
        h("input", { readonly: true, value: link, id: "invite-link", onclick: (e) => /** @type {HTMLInputElement} */ (e.target).select() }),
        h("button", { class: "btn", id: "copy-link", onclick: () => copyLink(link, /** @type {HTMLInputElement} */ (card.querySelector("#invite-link"))) }, t("room.copy"))),
      h("p", {}, t("room.code"), " ", h("strong", { class: "code big" }, room.code)),
      h("ul", { class: "seat-list" }, seats),
      h("details", { class: "rules-box", id: "waiting-rules" }, h("summary", {}, t("side.rules")), rulesView(room, game)));
    if (s.seat != null && s.seat === host) {
      card.append(h("button", { class: "btn primary", id: "start-now", onclick: () => act(this.net, { type: "start" }) }, t("room.start_now")));
    } else if (s.seat == null) {
      card.append(h("p", { class: "muted", i18n: "room.spectating" }));
    }
    card.append(h("p", {}, h("a", { href: "/", "data-link": true, onclick: () => act(this.net, { type: "leave" }) }, t("room.leave"))));
    this.root.append(card);
  }
}

// Copy the invite link. Browsers refuse the Clipboard API on a plain http:// address (a game on
// the local network): the share sheet is offered where there is one, and else the link is
// selected in its field for the player to copy.
/**
 * @param {string} link
 * @param {HTMLInputElement} field
 */
export async function copyLink(link, field) {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(link);
    toast(t("room.copied"));
    return;
  } catch { /* refused: fall back */ }
  if (typeof navigator.share === "function") {
    try { await navigator.share({ title: t("title"), url: link }); return; } catch (err) {
      const failed = /** @type {{name?: string} | null} */ (err);
      if (failed && failed.name === "AbortError") return; // the player closed the sheet
    }
  }
  field.focus();
  field.select();
  field.setSelectionRange(0, link.length);
  toast(t("room.copy_select"));
}
