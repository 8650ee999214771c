// The Xpress table: two players' dice, the shared sets, throwing and placing dice.
// Builds on the tile game's view (entering the room, chat, the move log, drag and drop with
// Pointer Events) and replaces what differs: dice instead of tiles, a throw before placing,
// no opening, and a score table over the match's rounds.
import { t, translate } from "./i18n.js";
import { baseOf } from "./tiles.js";
import { dieEl, faceValue } from "./dice.js";
import { GameView } from "./game.js";
import { h, toast } from "./util.js";

let uid = 0;
const nextId = () => `d${++uid}`;

export class XpressView extends GameView {
  constructor(root, net, code) {
    super(root, net, code);
    this.throwSel = new Set(); // dice chosen to throw again
    this.lastRoll = null; // the roll_id whose animation was shown
    this.rolling = new Set();
    this.busy = false;
  }

  turnKey(g) { return g ? `${g.round}:${g.step}` : ""; }

  onState(msg) {
    const g = msg.game;
    if (g && g.roll_id !== this.lastRoll) {
      this.rolling = this.lastRoll == null && g.step > 0 ? new Set() : new Set(g.rolled);
      this.lastRoll = g.roll_id;
      clearTimeout(this.rollTimer);
      this.rollTimer = setTimeout(() => { this.rolling = new Set(); }, 700);
    }
    super.onState(msg);
  }

  resetWork() {
    const g = this.state.game;
    const mine = this.seat != null ? g.hands[this.seat] : [];
    this.work = {
      key: this.turnKey(g),
      melds: g.table.map((m) => m.map((s) => ({ id: nextId(), s, rack: false, die: null }))),
      rack: mine.map((d) => ({ id: nextId(), s: d.face, rack: true, die: d.die })),
    };
    this.selected = null;
    this.check = null;
    this.hint = null;
    const dice = new Set(mine.map((d) => d.die));
    for (const d of [...this.throwSel]) if (!dice.has(d)) this.throwSel.delete(d);
    if (g.phase !== "throw" || !this.myTurn()) this.throwSel.clear();
  }

  placing() { const g = this.state.game; return this.myTurn() && g.phase === "place"; }

  canMove(id) {
    if (!this.placing() || !this.work || this.busy) return false;
    return this.work.rack.some((x) => x.id === id) || this.work.melds.flat().some((x) => x.id === id);
  }

  // In the throw phase a tap on one of your dice selects it to be thrown again.
  tap(id) {
    const g = this.state.game;
    if (this.myTurn() && g.phase === "throw") {
      const item = this.work.rack.find((x) => x.id === id);
      if (!item) return;
      if (this.throwSel.has(item.die)) this.throwSel.delete(item.die); else this.throwSel.add(item.die);
      this.render();
      return;
    }
    super.tap(id);
  }

  dropTarget(x, y) {
    const under = document.elementFromPoint(x, y);
    if (!under) return null;
    const meld = under.closest(".meld");
    if (meld && this.root.contains(meld)) {
      const all = [...meld.querySelectorAll(".die")];
      let pos = all.length;
      for (let i = 0; i < all.length; i++) {
        if (all[i].classList.contains("dragging")) continue;
        const r = all[i].getBoundingClientRect();
        if (x < r.left + r.width / 2 && y < r.bottom + 8) { pos = i; break; }
      }
      return { kind: "meld", meld: Number(meld.dataset.index), pos, el: meld };
    }
    const zone = under.closest(".new-meld, .melds");
    if (zone && this.root.contains(zone)) return { kind: "new", el: zone.closest(".new-meld") || zone };
    const rack = under.closest(".rack");
    if (rack && this.root.contains(rack)) return { kind: "rack", el: rack };
    return null;
  }

  // --- actions --------------------------------------------------------------------------
  throwDice() {
    const g = this.state.game;
    const mine = g.hands[this.seat].map((d) => d.die);
    const dice = this.throwSel.size ? mine.filter((d) => this.throwSel.has(d)) : mine;
    this.throwSel.clear();
    this.act({ type: "throw", dice });
  }

  async endTurn() {
    const placed = this.placed();
    this.busy = true;
    try {
      if (placed.length) {
        await this.net.request({ type: "place", dice: placed.map((x) => x.die), table: this.tableJson() });
        const g = this.state.game;
        if (g.round_over || g.current !== this.seat) return;
      }
      await this.net.request({ type: "end_turn" });
    } catch (err) {
      if (err.code !== "disconnected") toast(err.message, "error");
    } finally {
      this.busy = false;
      this.render();
    }
  }

  applyHint() {
    const hint = this.hint;
    if (!hint) return;
    if (hint.throw) {
      this.throwSel = new Set(hint.throw);
      this.hint = null;
      this.render();
      return;
    }
    if (!hint.table) return;
    const g = this.state.game;
    const hand = g.hands[this.seat].map((d) => ({ id: nextId(), s: d.face, rack: true, die: d.die }));
    const table = g.table.flat().map((s) => ({ id: nextId(), s, rack: false, die: null }));
    const chosen = hand.filter((x) => hint.dice.includes(x.die));
    const take = (tok) => {
      let k = table.findIndex((x) => baseOf(x.s) === baseOf(tok));
      if (k >= 0) return table.splice(k, 1)[0];
      k = chosen.findIndex((x) => x.s === baseOf(tok));
      return chosen.splice(k, 1)[0];
    };
    this.work.melds = hint.table.map((m) => m.map((tok) => { const x = take(tok); x.s = tok; return x; }));
    this.work.rack = hand.filter((x) => !hint.dice.includes(x.die));
    this.hint = null;
    this.render();
    this.sendCheck();
  }

  // --- rendering ------------------------------------------------------------------------
  die(item, { movable = false, small = false } = {}) {
    const el = dieEl(item.s, { die: item.die, small });
    el.dataset.id = item.id;
    if (this.rolling.has(item.die) && item.rack !== false) el.classList.add("rolling");
    if (movable) el.classList.add("movable");
    if (this.selected === item.id) el.classList.add("selected");
    return el;
  }

  tray(seat, g, { own = false } = {}) {
    const dice = own && this.work ? this.work.rack : g.hands[seat].map((d) => ({ id: nextId(), s: d.face, rack: true, die: d.die }));
    const mine = own && this.myTurn();
    const tray = h("div", { class: "dice-tray" + (own ? " rack" : " other-tray") + (mine ? " active" : ""), dataset: { seat } });
    if (own) tray.addEventListener("click", (e) => { if (!e.target.closest(".die")) this.tapZone({ kind: "rack" }); });
    const hinted = new Set(this.hint && this.hint.throw ? this.hint.throw : this.hint && this.hint.dice ? this.hint.dice : []);
    for (const item of dice) {
      const el = this.die(item, { movable: own && (this.canMove(item.id) || (mine && g.phase === "throw")), small: !own && false });
      if (own && this.throwSel.has(item.die)) el.classList.add("to-throw");
      if (own && hinted.has(item.die)) el.classList.add("hinted");
      if (own) {
        this.attachDrag(el, item.id);
        if (mine && g.phase === "throw") el.addEventListener("click", () => this.tap(item.id));
      }
      tray.append(el);
    }
    if (!dice.length) tray.append(h("span", { class: "muted tray-empty" }, t("xpress.no_dice")));
    const value = dice.reduce((a, x) => a + faceValue(x.s), 0);
    return h("div", { class: "tray-wrap" + (own ? " own" : "") },
      h("div", { class: "tray-label" }, h("span", { class: "tray-name" }, own ? t("xpress.your_dice") : t("xpress.their_dice", { name: this.name(seat) })),
        h("span", { class: "muted" }, t("xpress.dice_info", { n: dice.length, v: value }))),
      tray);
  }

  renderPlayers(g) {
    const bar = h("div", { class: "players" });
    this.state.room.seats.forEach((s, i) => {
      const bot = s.kind === "bot" || s.standin;
      const idle = g.idle[i];
      bar.append(h("div", { class: "player" + (i === g.current && !g.round_over ? " current" : "") + (i === this.seat ? " me" : ""), dataset: { seat: i } },
        h("div", { class: "avatar" + (bot ? " bot" : "") }, bot ? botIcon() : (this.name(i)[0] || "?").toUpperCase()),
        h("div", { class: "pinfo" },
          h("div", { class: "pname" }, this.name(i), i === this.seat ? h("span", { class: "you" }, ` (${t("game.you")})`) : null),
          h("div", { class: "pmeta" },
            h("span", { class: "rack-count", title: t("xpress.dice_left") }, h("span", { class: "mini-die" }), String(g.hands[i].length)),
            h("span", { class: "score" }, String(g.totals[i])),
            idle ? h("span", { class: "idle", title: t("xpress.idle_title", { n: g.block_throws }) }, `${idle}/${g.block_throws}`) : null,
            s.kind === "human" ? h("span", { class: "dot" + (s.connected ? " on" : ""), title: t(s.connected ? "game.online" : "game.offline") }) : null,
            s.standin ? h("span", { class: "standin" }, t("game.standin")) : null))));
    });
    bar.append(h("div", { class: "pool round-no" }, t("xpress.round", { n: g.round + 1, of: g.rounds })));
    return bar;
  }

  statusText(g) {
    if (g.round_over) return "";
    if (!this.myTurn()) return t(g.phase === "throw" ? "xpress.waiting_throw" : "xpress.waiting_place", { name: this.name(g.current) });
    if (g.phase === "throw") return t("xpress.your_throw");
    const playInfo = this.check && this.check.play;
    const pending = this.placed().length;
    if (pending && playInfo && !playInfo.ok) return h("span", { class: "bad" }, playInfo.message);
    if (pending && playInfo && playInfo.ok) return h("span", { class: "good" }, t("xpress.ready", { n: pending }));
    if (g.placed) return t("xpress.placed_more", { n: g.placed });
    if (g.can_place) return t(g.first_turn ? "xpress.must_place_first" : "xpress.must_place");
    return t("xpress.nothing");
  }

  renderTable(g) {
    const area = h("section", { class: "table-area xpress-area" });
    const other = this.seat != null ? 1 - this.seat : 1;
    area.append(this.tray(other, g));
    area.append(h("div", { class: "status-line" + (this.myTurn() ? " mine" : "") }, this.statusText(g)));
    const mine = this.placing();
    const melds = h("div", { class: "melds", onclick: (e) => { if (e.target === melds) this.tapZone({ kind: "new" }); } });
    const work = this.work ? this.work.melds : [];
    work.forEach((m, i) => {
      const res = mine && this.check && this.check.melds[i];
      const fresh = m.some((x) => x.rack);
      const el = h("div", { class: "meld" + (res && !res.ok ? " invalid" : "") + (res && res.ok && fresh ? " fresh" : ""), dataset: { index: i } });
      for (const item of m) {
        const de = this.die(item, { movable: this.canMove(item.id) });
        if (item.rack && mine) de.classList.add("placed");
        this.attachDrag(de, item.id);
        el.append(de);
      }
      el.addEventListener("click", (e) => { if (!e.target.closest(".die")) this.tapZone({ kind: "meld", meld: i, pos: m.length }); });
      const wrap = h("div", { class: "meld-wrap" }, el);
      if (res && !res.ok) wrap.append(h("div", { class: "meld-reason" }, res.reason));
      melds.append(wrap);
    });
    if (mine) melds.append(h("div", { class: "new-meld" + (this.selected ? " armed" : ""), onclick: () => this.tapZone({ kind: "new" }) }, t("game.new_meld")));
    if (!work.length && !mine) melds.append(h("div", { class: "empty-table muted" }, t("xpress.empty_table")));
    area.append(melds);
    if (this.seat == null) area.append(this.tray(0, g));
    return area;
  }

  renderDock(g) {
    const mine = this.myTurn();
    const throwing = mine && g.phase === "throw";
    const pending = this.placed().length;
    const playOk = this.check && this.check.play && this.check.play.ok;
    const canEnd = mine && g.phase === "place" && !this.busy && (pending ? playOk : g.may_end_turn);
    const n = this.throwSel.size;
    const buttons = h("div", { class: "controls" },
      h("button", { class: "btn" + (throwing ? " primary" : ""), id: "btn-throw", disabled: !throwing, onclick: () => this.throwDice() },
        throwing && n ? t("xpress.throw_n", { n }) : t("xpress.throw_all")),
      h("button", { class: "btn", id: "btn-reset", disabled: !mine || g.phase !== "place" || (!pending && !(this.work && this.changedTable())), onclick: () => { this.resetWork(); this.render(); } }, t("game.reset")),
      this.state.room.settings.hints ? h("button", { class: "btn", id: "btn-hint", disabled: !mine, onclick: () => this.askHint() }, t("game.hint")) : null,
      h("button", { class: "btn" + (throwing ? "" : " primary"), id: "btn-end", disabled: !canEnd, onclick: () => this.endTurn() },
        pending ? t("xpress.place_end", { n: pending }) : t("game.end_turn")));
    const dock = h("div", { class: "dock" }, buttons);
    if (this.hint) {
      let body;
      if (this.hint.loading) body = t("game.hint_thinking");
      else if (this.hint.throw) body = t("xpress.hint_throw", { n: this.hint.throw.length });
      else if (this.hint.dice && this.hint.dice.length) body = t("xpress.hint_place", { n: this.hint.dice.length });
      else body = t("xpress.hint_none");
      const can = !this.hint.loading && (this.hint.throw || this.hint.table);
      dock.append(h("div", { class: "hint-box" }, h("span", {}, body),
        can ? h("button", { class: "btn small", id: "btn-apply-hint", onclick: () => this.applyHint() }, t(this.hint.throw ? "xpress.hint_select" : "game.hint_apply")) : null,
        h("button", { class: "btn small ghost-btn", onclick: () => { this.hint = null; this.render(); } }, "✕")));
    }
    dock.append(this.tray(this.seat, g, { own: true }));
    return dock;
  }

  describe(e) {
    const name = this.name(e.seat);
    switch (e.action) {
      case "throw": return t("xpress.log_throw", { name, n: e.dice.length, faces: e.faces.join(" ") });
      case "place": return t("xpress.log_place", { name, faces: e.faces.join(" "), n: e.faces.length });
      case "end": return e.placed ? t("xpress.log_end", { name }) : t("xpress.log_nothing", { name });
      default: return `${name}: ${e.action}`;
    }
  }

  renderScores(g) {
    const seats = this.state.room.seats.map((_, i) => this.name(i));
    const last = g.results[g.results.length - 1];
    const head = h("tr", {}, h("th", {}, t("round.round")), seats.map((s) => h("th", {}, s)));
    const rows = [];
    for (let r = 0; r < g.rounds; r++) {
      const res = g.results.find((x) => x.round === r);
      rows.push(h("tr", { class: res ? "" : "future" }, h("td", {}, String(r + 1)),
        seats.map((_, i) => h("td", { class: res && i === res.winner ? "win" : "" }, res ? String(res.scores[i]) : "–"))));
    }
    const totals = h("tr", { class: "totals" }, h("td", {}, t("round.total")), g.totals.map((s) => h("td", {}, String(s))));
    let title;
    if (!last || last.reason === "abandoned") title = t("round.abandoned");
    else if (last.winner == null) title = t("xpress.round_draw");
    else title = t(last.reason === "out" ? "xpress.round_out" : "xpress.round_blocked", { name: seats[last.winner], n: last.scores[last.winner] });
    const left = last ? h("div", { class: "final-racks" }, last.hands.map((hand, i) => h("div", { class: "final-rack" },
      h("span", { class: "final-name" }, t("xpress.left", { name: seats[i], n: last.left[i] })),
      h("span", { class: "tiles-inline" }, hand.length ? hand.map((f) => dieEl(f, { small: true })) : "—")))) : null;
    const card = h("div", { class: "card score-card xpress-scores", role: "dialog", "aria-modal": "true" },
      h("h2", { class: "round-title" }, title),
      g.match_over ? h("p", { class: "match-result" }, g.winners.length > 1 ? t("xpress.match_draw") : t("round.match_over", { names: g.winners.map((w) => seats[w]).join(", ") })) : null,
      h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, rows, totals)),
      left);
    if (!g.match_over && this.seat != null) {
      const ready = g.ready.includes(this.seat);
      card.append(h("div", { class: "form-row" },
        h("button", { class: "btn primary", id: "btn-next-round", disabled: ready, onclick: () => this.act({ type: "next_round" }) }, ready ? t("round.waiting_others") : t("round.next")),
        h("span", { class: "pause-left muted" })));
    } else if (g.match_over) {
      card.append(h("div", { class: "form-row" },
        h("a", { class: "btn primary", href: `/replay/${this.code}`, "data-link": true }, t("lobby.replay")),
        h("a", { class: "btn", href: "/", "data-link": true }, t("room.back"))));
    }
    return h("div", { class: "overlay" }, card);
  }

  render() {
    super.render();
    const game = this.root.querySelector(".game");
    if (game) game.classList.add("xpress");
    translate(this.root);
  }
}

function botIcon() {
  const span = document.createElement("span");
  span.className = "bot-icon";
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = '<svg viewBox="0 0 24 24" width="20" height="20"><rect x="4" y="7" width="16" height="12" rx="3" fill="currentColor"/><circle cx="9" cy="13" r="1.8" fill="#1d3a2b"/><circle cx="15" cy="13" r="1.8" fill="#1d3a2b"/><rect x="11" y="2.5" width="2" height="4.5" fill="currentColor"/><circle cx="12" cy="2.5" r="1.6" fill="currentColor"/></svg>';
  return span;
}
