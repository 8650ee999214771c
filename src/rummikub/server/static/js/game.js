// The game table: seats, melds, the rack, drag and drop (Pointer Events: mouse and touch),
// the turn clock, the move log, chat, hints and the score table.
import { t, translate } from "./i18n.js";
import { baseOf, sortTiles, tileEl, tileValue } from "./tiles.js";
import { h, toast, savedSeat, saveSeat, forgetSeat, playerName, setPlayerName, getJSON } from "./util.js";

let uid = 0;
const nextId = () => `t${++uid}`;

export class GameView {
  constructor(root, net, code) {
    this.root = root;
    this.net = net;
    this.code = code;
    this.state = null;
    this.seat = null;
    this.mode = null; // "player" | "watch" | "prompt" | "missing"
    this.chat = [];
    this.work = null;
    this.sortMode = localStorage.getItem("rummikub.sort") || "789";
    this.selected = null;
    this.check = null;
    this.checkSeq = 0;
    this.hint = null;
    this.dragging = false;
    this.pendingRender = false;
    this.sideTab = "log";
    this.deadline = null;
    this.pauseDeadline = null;
    this.unread = 0;
    this.clockTimer = setInterval(() => this.tick(), 250);
    this.start();
  }

  destroy() {
    clearInterval(this.clockTimer);
    // A spectator stops watching; a player keeps his seat (he may come back with his token).
    if (this.mode === "watch") this.net.send({ type: "leave" });
  }

  // --- entering the room ------------------------------------------------------------
  async start() {
    const saved = savedSeat(this.code);
    const watch = new URLSearchParams(location.search).has("watch");
    if (saved && !watch) { this.mode = "player"; this.enter(); return; }
    let info;
    try { info = await getJSON(`/api/rooms/${this.code}`); } catch {
      this.mode = "missing"; this.render(); return;
    }
    const free = info.status === "waiting" && info.seats.some((s) => s.kind === "human" && !s.taken);
    this.mode = free && !watch ? "prompt" : "watch";
    if (this.mode === "watch") this.enter(); else this.render();
  }

  enter() {
    if (!this.net.open) return; // onReconnect will call us
    if (this.mode === "player") {
      const saved = savedSeat(this.code);
      this.net.request({ type: "resume", room: this.code, token: saved.token }).catch((err) => {
        if (err.code === "disconnected") return;
        forgetSeat(this.code);
        toast(err.message, "error");
        this.mode = "watch";
        this.enter();
      });
    } else if (this.mode === "watch") {
      this.net.request({ type: "watch", room: this.code }).catch((err) => {
        if (err.code === "disconnected") return;
        this.mode = "missing";
        this.render();
      });
    }
  }

  onReconnect() { this.enter(); }

  async join(name) {
    try {
      const reply = await this.net.request({ type: "join", room: this.code, name });
      saveSeat(this.code, reply.seat, reply.token);
      this.mode = "player";
    } catch (err) {
      toast(err.message, "error");
      this.mode = "watch";
      this.enter();
    }
  }

  // --- messages ---------------------------------------------------------------------
  onMessage(msg) {
    switch (msg.type) {
      case "joined":
        this.seat = msg.seat;
        saveSeat(msg.room, msg.seat, msg.token);
        this.chat = msg.chat || [];
        break;
      case "watching":
        this.seat = null;
        this.chat = msg.chat || [];
        break;
      case "state":
        this.onState(msg);
        break;
      case "chat":
        this.chat.push(msg);
        if (this.sideTab !== "chat") this.unread++;
        this.renderSide();
        break;
      case "checked":
        if (msg.id === `check${this.checkSeq}`) this.onChecked(msg);
        break;
      case "hint":
        this.hint = msg;
        this.render();
        break;
      case "error":
        if (msg.id == null || !String(msg.id).startsWith("c")) toast(msg.message, "error");
        break;
      default:
        break;
    }
  }

  turnKey(g) { return g ? `${g.round}:${g.turn}` : ""; }

  myTurn() {
    const g = this.state && this.state.game;
    return !!g && this.seat != null && !g.round_over && g.current === this.seat;
  }

  onState(msg) {
    const prev = this.state;
    this.state = msg;
    this.seat = msg.you;
    const g = msg.game;
    if (g) {
      this.deadline = g.time_left == null ? null : performance.now() + g.time_left * 1000;
      this.pauseDeadline = g.pause_left == null ? null : performance.now() + g.pause_left * 1000;
      const key = this.turnKey(g);
      const keep = this.work && this.work.key === key && this.myTurn() && prev && prev.game;
      if (!keep) this.resetWork();
    } else {
      this.work = null;
    }
    if (this.dragging) { this.pendingRender = true; return; }
    this.render();
  }

  resetWork() {
    const g = this.state.game;
    this.work = {
      key: this.turnKey(g),
      melds: g.table.map((m) => m.map((s) => ({ id: nextId(), s, rack: false }))),
      rack: (g.rack || []).map((s) => ({ id: nextId(), s, rack: true })),
    };
    this.selected = null;
    this.check = null;
    this.hint = null;
  }

  // --- working on the table -----------------------------------------------------------
  placed() { return this.work ? this.work.melds.flat().filter((x) => x.rack) : []; }

  opened() {
    const g = this.state.game;
    return g.opened[this.seat];
  }

  canMove(id) {
    if (!this.myTurn() || !this.work) return false;
    if (this.work.rack.some((x) => x.id === id)) return true;
    const tile = this.work.melds.flat().find((x) => x.id === id);
    return !!tile && (tile.rack || this.opened());
  }

  locate(id) {
    const r = this.work.rack.findIndex((x) => x.id === id);
    if (r >= 0) return { where: "rack", index: r };
    for (let m = 0; m < this.work.melds.length; m++) {
      const i = this.work.melds[m].findIndex((x) => x.id === id);
      if (i >= 0) return { where: "meld", meld: m, index: i };
    }
    return null;
  }

  moveTile(id, target) {
    const from = this.locate(id);
    if (!from) return;
    const tile = from.where === "rack" ? this.work.rack[from.index] : this.work.melds[from.meld][from.index];
    if (target.kind === "rack" && !tile.rack) {
      toast(t("game.table_tile_stays"), "error");
      this.render();
      return;
    }
    const touched = new Set();
    let targetMeld = target.kind === "meld" ? this.work.melds[target.meld] : null;
    if (from.where === "rack") this.work.rack.splice(from.index, 1);
    else {
      const src = this.work.melds[from.meld];
      src.splice(from.index, 1);
      touched.add(src);
      if (targetMeld === src && target.pos > from.index) target.pos--;
    }
    if (target.kind === "meld" && targetMeld) {
      targetMeld.splice(Math.max(0, Math.min(target.pos, targetMeld.length)), 0, tile);
      touched.add(targetMeld);
    } else if (target.kind === "new") {
      targetMeld = [tile];
      this.work.melds.push(targetMeld);
      touched.add(targetMeld);
    } else {
      this.work.rack.push(tile);
    }
    for (const m of touched) for (const x of m) if (baseOf(x.s) === "J") x.s = "J";
    if (baseOf(tile.s) === "J") tile.s = "J";
    this.work.melds = this.work.melds.filter((m) => m.length);
    // a meld just made lands at the end of the table: show it even when the table scrolls
    // (until the check of this move has been drawn, which may move it to another row)
    this.reveal = target.kind === "new" ? this.work.melds.indexOf(targetMeld) : null;
    this.selected = null;
    this.render();
    this.sendCheck();
  }

  sendCheck() {
    if (!this.myTurn()) return;
    if (!this.placed().length && !this.changedTable()) { this.check = null; this.render(); this.reveal = null; return; }
    this.checkSeq++;
    this.net.send({ type: "check", id: `check${this.checkSeq}`, table: this.tableJson() });
  }

  changedTable() {
    const now = JSON.stringify(this.work.melds.map((m) => m.map((x) => x.s)));
    return now !== JSON.stringify(this.state.game.table);
  }

  tableJson() { return this.work.melds.map((m) => m.map((x) => x.s)); }

  onChecked(msg) {
    if (!this.work || msg.melds.length !== this.work.melds.length) return;
    msg.melds.forEach((res, i) => {
      if (!res.ok) return;
      const meld = this.work.melds[i];
      const pool = [...meld];
      const ordered = [];
      for (const tok of res.meld) {
        const k = pool.findIndex((x) => baseOf(x.s) === baseOf(tok));
        if (k < 0) return;
        const [tile] = pool.splice(k, 1);
        tile.s = tok;
        ordered.push(tile);
      }
      if (ordered.length === meld.length) this.work.melds[i] = ordered;
    });
    this.check = msg;
    if (this.dragging) { this.pendingRender = true; return; }
    this.render();
    this.reveal = null;
  }

  // --- actions ------------------------------------------------------------------------
  async act(msg) {
    try {
      await this.net.request(msg);
    } catch (err) {
      if (err.code !== "disconnected") toast(err.message, "error");
    }
  }

  endTurn() {
    if (!this.placed().length) { toast(t("game.place_first"), "error"); return; }
    this.act({ type: "play", table: this.tableJson() });
  }

  draw() {
    const g = this.state.game;
    this.resetWork();
    this.act({ type: g.pool_size > 0 ? "draw" : "pass" });
  }

  askHint() {
    this.hint = { loading: true };
    this.render();
    this.act({ type: "hint" });
  }

  applyHint() {
    if (!this.hint || !this.hint.table) return;
    const g = this.state.game;
    const rackPool = g.rack.map((s) => ({ id: nextId(), s, rack: true }));
    const tablePool = g.table.flat().map((s) => ({ id: nextId(), s, rack: false }));
    const take = (tok) => {
      let k = tablePool.findIndex((x) => baseOf(x.s) === baseOf(tok));
      if (k >= 0) return tablePool.splice(k, 1)[0];
      k = rackPool.findIndex((x) => x.s === baseOf(tok));
      return k >= 0 ? rackPool.splice(k, 1)[0] : { id: nextId(), s: tok, rack: true };
    };
    this.work.melds = this.hint.table.map((m) => m.map((tok) => { const x = take(tok); x.s = tok; return x; }));
    this.work.rack = rackPool;
    this.hint = null;
    this.render();
    this.sendCheck();
  }

  setSort(mode) {
    this.sortMode = mode;
    localStorage.setItem("rummikub.sort", mode);
    this.render();
  }

  // --- drag and drop (Pointer Events) ---------------------------------------------------
  attachDrag(el, id) {
    el.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0 || !this.canMove(id)) return;
      ev.preventDefault();
      const sx = ev.clientX, sy = ev.clientY;
      const rect = el.getBoundingClientRect();
      const offX = sx - rect.left, offY = sy - rect.top;
      let ghost = null;
      let last = null;
      try { el.setPointerCapture(ev.pointerId); } catch { /* synthetic */ }
      const move = (e) => {
        if (!ghost) {
          if (Math.hypot(e.clientX - sx, e.clientY - sy) < 6) return;
          ghost = el.cloneNode(true);
          ghost.classList.add("ghost");
          ghost.style.width = `${rect.width}px`;
          ghost.style.height = `${rect.height}px`;
          document.body.append(ghost);
          el.classList.add("dragging");
          this.dragging = true;
        }
        ghost.style.transform = `translate(${e.clientX - offX}px, ${e.clientY - offY}px) rotate(-3deg)`;
        const target = this.dropTarget(e.clientX, e.clientY);
        if (last) last.classList.remove("drop-hover");
        last = target ? target.el : null;
        if (last) last.classList.add("drop-hover");
      };
      const end = (e, cancelled) => {
        el.removeEventListener("pointermove", move);
        el.removeEventListener("pointerup", up);
        el.removeEventListener("pointercancel", cancel);
        if (last) last.classList.remove("drop-hover");
        if (!ghost) { if (!cancelled) this.tap(id); return; }
        ghost.remove();
        el.classList.remove("dragging");
        this.dragging = false;
        const target = cancelled ? null : this.dropTarget(e.clientX, e.clientY);
        if (target) this.moveTile(id, target);
        else this.render();
      };
      const up = (e) => end(e, false);
      const cancel = (e) => end(e, true);
      el.addEventListener("pointermove", move);
      el.addEventListener("pointerup", up);
      el.addEventListener("pointercancel", cancel);
    });
  }

  dropTarget(x, y) {
    const under = document.elementFromPoint(x, y);
    if (!under) return null;
    const meld = under.closest(".meld");
    if (meld && this.root.contains(meld)) {
      const tiles = [...meld.querySelectorAll(".tile:not(.dragging)")];
      let pos = tiles.length;
      for (let i = 0; i < tiles.length; i++) {
        const r = tiles[i].getBoundingClientRect();
        if (x < r.left + r.width / 2 && y < r.bottom + 8) { pos = i; break; }
      }
      const all = [...meld.querySelectorAll(".tile")];
      const dragged = meld.querySelector(".tile.dragging");
      if (dragged) {
        const di = all.indexOf(dragged);
        if (di >= 0 && pos >= di) pos++;
      }
      return { kind: "meld", meld: Number(meld.dataset.index), pos, el: meld };
    }
    const zone = under.closest(".new-meld, .melds");
    if (zone && this.root.contains(zone)) return { kind: "new", el: zone.closest(".new-meld") || zone };
    const rack = under.closest(".rack");
    if (rack && this.root.contains(rack)) return { kind: "rack", el: rack };
    return null;
  }

  // Tap (or click) a tile to select it, then tap where it should go.
  tap(id) {
    if (!this.myTurn()) return;
    if (this.selected && this.selected !== id) {
      const loc = this.locate(id);
      if (loc && loc.where === "meld") { this.moveTile(this.selected, { kind: "meld", meld: loc.meld, pos: loc.index + 1 }); return; }
      if (loc && loc.where === "rack") { const sel = this.locate(this.selected); if (sel && sel.where === "meld") { this.moveTile(this.selected, { kind: "rack" }); return; } }
    }
    this.selected = this.selected === id ? null : id;
    this.render();
  }

  tapZone(target) {
    if (!this.selected || !this.myTurn()) return;
    this.moveTile(this.selected, target);
  }

  // --- the clock ------------------------------------------------------------------------
  tick() {
    const g = this.state && this.state.game;
    const clock = this.root.querySelector(".clock");
    if (clock && g && this.deadline != null && !g.round_over) {
      const left = Math.max(0, (this.deadline - performance.now()) / 1000);
      clock.querySelector(".clock-text").textContent = fmtTime(left);
      const frac = g.turn_seconds ? left / g.turn_seconds : 0;
      clock.style.setProperty("--frac", String(Math.max(0, Math.min(1, frac))));
      clock.classList.toggle("urgent", left <= 10);
    }
    const pause = this.root.querySelector(".pause-left");
    if (pause && this.pauseDeadline != null) {
      pause.textContent = t("round.next_in", { s: Math.ceil(Math.max(0, (this.pauseDeadline - performance.now()) / 1000)) });
    }
  }

  // --- rendering --------------------------------------------------------------------------
  name(i) {
    const s = this.state.room.seats[i];
    if (s.name) return s.name;
    return `${t(`bot.${s.bot}`)} ${i + 1}`;
  }

  render() {
    this.pendingRender = false;
    const root = this.root;
    const scroll = root.querySelector(".log-list")?.scrollTop;
    const tableScroll = root.querySelector(".table-area")?.scrollTop;
    root.innerHTML = "";
    if (this.mode === "missing") {
      root.append(h("div", { class: "card center" }, h("h2", { i18n: "room.missing" }),
        h("p", {}, h("a", { class: "btn", href: `/replay/${this.code}`, "data-link": true }, t("lobby.replay")), " ",
          h("a", { class: "btn", href: "/", "data-link": true }, t("room.back")))));
      return;
    }
    if (this.mode === "prompt") { this.renderPrompt(); return; }
    if (!this.state) { root.append(h("div", { class: "card center muted" }, t("room.loading"))); return; }
    if (this.state.room.status === "waiting") { this.renderWaiting(); return; }
    const g = this.state.game;
    if (!g) return;
    const game = h("div", { class: "game" + (this.seat == null ? " spectating" : ""), dataset: { turn: this.turnKey(g), seq: this.state.seq } });
    game.append(this.renderPlayers(g));
    const board = h("div", { class: "board" }, this.renderTable(g), this.renderSideShell());
    game.append(board);
    if (this.seat != null) game.append(this.renderDock(g));
    else game.append(h("div", { class: "dock spectator-bar" }, h("span", { i18n: "room.spectating" }),
      h("a", { class: "btn small", href: "/", "data-link": true }, t("room.back"))));
    root.append(game);
    if (g.round_over) root.append(this.renderScores(g));
    this.renderSide();
    const list = root.querySelector(".log-list");
    if (list && scroll != null) list.scrollTop = scroll; else if (list) list.scrollTop = list.scrollHeight;
    translate(root);
    this.tick();
    // a long table keeps its scroll position across re-renders (every move re-renders), and a
    // meld just made (at the end of the table) is brought into view
    const area = root.querySelector(".table-area");
    if (area && tableScroll) area.scrollTop = tableScroll;
    const made = this.reveal != null && area && area.querySelector(`.meld[data-index="${this.reveal}"]`);
    if (made) {
      const a = area.getBoundingClientRect(), r = made.getBoundingClientRect();
      if (r.bottom > a.bottom) area.scrollTop += r.bottom - a.bottom + 8;
      else if (r.top < a.top) area.scrollTop -= a.top - r.top + 8;
    }
  }

  renderPrompt() {
    const input = h("input", { id: "join-name", maxlength: 24, value: playerName(), "data-i18n-placeholder": "lobby.name_placeholder" });
    this.root.append(h("div", { class: "card center narrow" },
      h("h2", {}, t("room.join_title", { code: this.code })),
      h("label", { for: "join-name", i18n: "lobby.your_name" }), input,
      h("div", { class: "form-row" },
        h("button", { class: "btn primary", id: "join-seat", onclick: () => {
          const name = input.value.trim().slice(0, 24);
          if (!name) { input.focus(); toast(t("lobby.need_name"), "error"); return; }
          setPlayerName(name);
          this.join(name);
        } }, t("lobby.join")),
        h("button", { class: "btn", onclick: () => { this.mode = "watch"; this.enter(); } }, t("lobby.watch")))));
    translate(this.root);
  }

  renderWaiting() {
    const room = this.state.room;
    const link = `${location.origin}/r/${room.code}`;
    const seats = room.seats.map((s, i) => h("li", { class: "seat-item" + (s.taken ? " taken" : "") },
      h("span", { class: "seat-num" }, String(i + 1)),
      h("span", { class: "seat-name" }, s.kind === "bot" ? [botIcon(), t(`bot.${s.bot}`)] : (s.name || t("seat.free"))),
      s.kind === "human" && s.taken ? h("span", { class: "dot" + (s.connected ? " on" : "") }) : null));
    const card = h("div", { class: "card center narrow waiting" },
      h("h2", { i18n: "room.waiting_title" }),
      h("p", { class: "muted", i18n: "room.invite_text" }),
      h("div", { class: "invite" },
        h("input", { readonly: true, value: link, id: "invite-link", onclick: (e) => e.target.select() }),
        h("button", { class: "btn", onclick: () => {
          navigator.clipboard?.writeText(link).then(() => toast(t("room.copied")), () => {});
        } }, t("room.copy"))),
      h("p", {}, t("room.code"), " ", h("strong", { class: "code big" }, room.code)),
      h("ul", { class: "seat-list" }, seats));
    if (this.seat != null && this.seat === (room.settings.host ?? 0)) {
      card.append(h("button", { class: "btn primary", id: "start-now", onclick: () => this.act({ type: "start" }) }, t("room.start_now")));
    } else if (this.seat == null) {
      card.append(h("p", { class: "muted", i18n: "room.spectating" }));
    }
    card.append(h("p", {}, h("a", { href: "/", "data-link": true, onclick: () => this.act({ type: "leave" }) }, t("room.leave"))));
    this.root.append(card);
    translate(this.root);
  }

  renderPlayers(g) {
    const bar = h("div", { class: "players" });
    this.state.room.seats.forEach((s, i) => {
      const chip = h("div", { class: "player" + (i === g.current && !g.round_over ? " current" : "") + (i === this.seat ? " me" : ""), dataset: { seat: i } },
        h("div", { class: "avatar" + (s.kind === "bot" || s.standin ? " bot" : "") }, s.kind === "bot" || s.standin ? botIcon() : (this.name(i)[0] || "?").toUpperCase()),
        h("div", { class: "pinfo" },
          h("div", { class: "pname" }, this.name(i), i === this.seat ? h("span", { class: "you" }, ` (${t("game.you")})`) : null),
          h("div", { class: "pmeta" },
            h("span", { class: "rack-count", title: t("game.tiles_left") }, h("span", { class: "mini-tile" }), String(g.rack_sizes[i])),
            g.opened[i] ? h("span", { class: "opened", title: t("game.opened") }, "✓") : null,
            h("span", { class: "score" }, `${g.totals[i] > 0 ? "+" : ""}${g.totals[i]}`),
            s.kind === "human" ? h("span", { class: "dot" + (s.connected ? " on" : ""), title: t(s.connected ? "game.online" : "game.offline") }) : null,
            s.standin ? h("span", { class: "standin" }, t("game.standin")) : null)));
      bar.append(chip);
    });
    bar.append(h("div", { class: "pool", title: t("game.pool") }, h("span", { class: "mini-tile stack" }), String(g.pool_size)));
    return bar;
  }

  renderTable(g) {
    const area = h("section", { class: "table-area" });
    const status = h("div", { class: "status-line" });
    const mine = this.myTurn();
    if (mine) {
      status.classList.add("mine");
      const playInfo = this.check && this.check.play;
      if (!this.placed().length) status.append(t(this.opened() ? "game.your_turn" : "game.your_turn_open", { n: this.state.room.rules.opening_value }));
      else if (playInfo && !playInfo.ok) status.append(h("span", { class: "bad" }, playInfo.message));
      else if (playInfo && playInfo.ok) status.append(h("span", { class: "good" }, t("game.play_ok", { n: this.placed().length })));
    } else if (!g.round_over) {
      status.append(t("game.waiting_for", { name: this.name(g.current) }));
    }
    area.append(status);
    const melds = h("div", { class: "melds", onclick: (e) => { if (e.target === melds) this.tapZone({ kind: "new" }); } });
    const work = this.work ? this.work.melds : [];
    work.forEach((m, i) => {
      const res = mine && this.check && this.check.melds[i];
      const el = h("div", { class: "meld" + (res && !res.ok ? " invalid" : "") + (res && res.ok && m.some((x) => x.rack) ? " fresh" : ""), dataset: { index: i } });
      for (const tile of m) {
        const te = tileEl(tile.s);
        te.dataset.id = tile.id;
        if (tile.rack && mine) te.classList.add("placed");
        if (this.canMove(tile.id)) te.classList.add("movable");
        if (this.selected === tile.id) te.classList.add("selected");
        this.attachDrag(te, tile.id);
        el.append(te);
      }
      el.addEventListener("click", (e) => { if (!e.target.closest(".tile")) this.tapZone({ kind: "meld", meld: i, pos: m.length }); });
      const wrap = h("div", { class: "meld-wrap" }, el);
      if (res && !res.ok) wrap.append(h("div", { class: "meld-reason" }, res.reason));
      else if (res && res.ok && m.some((x) => x.rack)) wrap.append(h("div", { class: "meld-value" }, String(res.value)));
      melds.append(wrap);
    });
    if (mine) melds.append(h("div", { class: "new-meld" + (this.selected ? " armed" : ""), onclick: () => this.tapZone({ kind: "new" }) }, t("game.new_meld")));
    if (!work.length && !mine) melds.append(h("div", { class: "empty-table muted" }, t("game.empty_table")));
    area.append(melds);
    return area;
  }

  renderDock(g) {
    const mine = this.myTurn();
    const rackTiles = this.work ? sortTiles(this.work.rack, this.sortMode, (x) => x.s) : [];
    const hinted = new Set();
    if (this.hint && this.hint.tiles) {
      const want = [...this.hint.tiles];
      for (const x of rackTiles) { const k = want.indexOf(x.s); if (k >= 0) { want.splice(k, 1); hinted.add(x.id); } }
    }
    const rack = h("div", { class: "rack" + (mine ? " active" : ""), onclick: (e) => { if (!e.target.closest(".tile")) this.tapZone({ kind: "rack" }); } });
    for (const tile of rackTiles) {
      const te = tileEl(tile.s);
      te.dataset.id = tile.id;
      if (mine) te.classList.add("movable");
      if (this.selected === tile.id) te.classList.add("selected");
      if (hinted.has(tile.id)) te.classList.add("hinted");
      this.attachDrag(te, tile.id);
      rack.append(te);
    }
    const rackValue = rackTiles.reduce((a, x) => a + tileValue(x.s), 0);
    const clock = g.turn_seconds ? h("div", { class: "clock" + (mine ? " mine" : ""), title: t("game.clock") }, h("span", { class: "clock-text" }, "")) : null;
    const placed = this.placed().length;
    const playOk = this.check && this.check.play && this.check.play.ok;
    const buttons = h("div", { class: "controls" },
      clock,
      h("button", { class: "btn", id: "btn-sort", onclick: () => this.setSort(this.sortMode === "789" ? "777" : "789"), title: t("game.sort_title") }, this.sortMode === "789" ? t("game.sort_777") : t("game.sort_789")),
      h("button", { class: "btn", id: "btn-reset", disabled: !mine || (!placed && !(this.work && this.changedTable())), onclick: () => { this.resetWork(); this.render(); } }, t("game.reset")),
      this.state.room.settings.hints ? h("button", { class: "btn", id: "btn-hint", disabled: !mine, onclick: () => this.askHint() }, t("game.hint")) : null,
      h("button", { class: "btn", id: "btn-draw", disabled: !mine, onclick: () => this.draw() }, g.pool_size > 0 ? t("game.draw") : t("game.pass")),
      h("button", { class: "btn primary", id: "btn-play", disabled: !mine || !placed || !playOk, onclick: () => this.endTurn() }, t("game.end_turn")));
    const dock = h("div", { class: "dock" }, buttons);
    if (this.hint) {
      const body = this.hint.loading ? t("game.hint_thinking")
        : this.hint.tiles && this.hint.tiles.length ? t("game.hint_play", { tiles: this.hint.tiles.join(" ") }) : t("game.hint_draw");
      dock.append(h("div", { class: "hint-box" }, h("span", {}, body),
        this.hint.table ? h("button", { class: "btn small", id: "btn-apply-hint", onclick: () => this.applyHint() }, t("game.hint_apply")) : null,
        h("button", { class: "btn small ghost-btn", onclick: () => { this.hint = null; this.render(); } }, "✕")));
    }
    dock.append(h("div", { class: "rack-wrap" }, rack, h("div", { class: "rack-info muted" }, t("game.rack_info", { n: rackTiles.length, v: rackValue }))));
    return dock;
  }

  renderSideShell() {
    return h("aside", { class: "side" },
      h("div", { class: "tabs" },
        h("button", { class: "tab", dataset: { tab: "log" }, onclick: () => { this.sideTab = "log"; this.renderSide(); } }, t("side.log")),
        h("button", { class: "tab", dataset: { tab: "chat" }, onclick: () => { this.sideTab = "chat"; this.unread = 0; this.renderSide(); } }, t("side.chat"))),
      h("div", { class: "side-body" }));
  }

  renderSide() {
    const side = this.root.querySelector(".side");
    if (!side || !this.state || !this.state.game) return;
    side.querySelectorAll(".tab").forEach((b) => {
      b.classList.toggle("active", b.dataset.tab === this.sideTab);
      if (b.dataset.tab === "chat") b.textContent = t("side.chat") + (this.unread ? ` (${this.unread})` : "");
    });
    const body = side.querySelector(".side-body");
    body.innerHTML = "";
    if (this.sideTab === "log") {
      const list = h("ol", { class: "log-list" }, this.state.game.log.map((e) => h("li", { class: `log-${e.action}` }, this.describe(e))));
      body.append(list);
      list.scrollTop = list.scrollHeight;
    } else {
      const list = h("ol", { class: "chat-list" }, this.chat.map((c) => h("li", {}, h("b", {}, `${c.name}: `), c.text)));
      body.append(list);
      if (this.seat != null) {
        const input = h("input", { maxlength: 300, id: "chat-input", "data-i18n-placeholder": "side.chat_placeholder" });
        const form = h("form", { class: "chat-form", onsubmit: (e) => {
          e.preventDefault();
          const text = input.value.trim();
          if (text) { this.act({ type: "chat", text }); input.value = ""; }
        } }, input, h("button", { class: "btn small" }, t("side.send")));
        body.append(form);
        translate(form);
      }
      list.scrollTop = list.scrollHeight;
    }
  }

  describe(e) {
    const name = this.name(e.seat);
    switch (e.action) {
      case "play": return t("log.play", { name, tiles: e.tiles.join(" "), n: e.tiles.length }) + (e.hint ? ` ${t("log.hinted")}` : "");
      case "draw": return t("log.draw", { name });
      case "pass": return t("log.pass", { name });
      case "timeout": return t("log.timeout", { name, n: e.penalty });
      case "invalid": return t("log.invalid", { name, n: e.penalty });
      default: return `${name}: ${e.action}`;
    }
  }

  renderScores(g) {
    const seats = this.state.room.seats.map((_, i) => this.name(i));
    const last = g.results[g.results.length - 1];
    const head = h("tr", {}, h("th", {}, t("round.round")), seats.map((n) => h("th", {}, n)));
    const rows = g.results.map((r) => h("tr", {}, h("td", {}, String(r.round + 1)),
      r.scores.map((s, i) => h("td", { class: (i === r.winner ? "win " : "") + (s < 0 ? "neg" : "") }, `${s > 0 ? "+" : ""}${s}`))));
    const totals = h("tr", { class: "totals" }, h("td", {}, t("round.total")), g.totals.map((s) => h("td", {}, `${s > 0 ? "+" : ""}${s}`)));
    let title;
    if (last && last.winner != null) title = last.reason === "rummikub" ? t("round.rummikub", { name: seats[last.winner] }) : t("round.exhausted", { name: seats[last.winner] });
    else title = t("round.abandoned");
    const racks = last ? h("div", { class: "final-racks" }, last.racks.map((r, i) => h("div", { class: "final-rack" },
      h("span", { class: "final-name" }, `${seats[i]} (${last.left[i]})`), h("span", { class: "tiles-inline" }, r.map((s) => tileEl(s, { small: true })))))) : null;
    const card = h("div", { class: "card score-card", role: "dialog", "aria-modal": "true" },
      h("h2", { class: "round-title" }, title),
      g.match_over ? h("p", { class: "match-result" }, t("round.match_over", { names: g.winners.map((w) => seats[w]).join(", ") })) : null,
      h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, rows, totals)),
      racks);
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
}

function botIcon() {
  const span = document.createElement("span");
  span.className = "bot-icon";
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = '<svg viewBox="0 0 24 24" width="20" height="20"><rect x="4" y="7" width="16" height="12" rx="3" fill="currentColor"/><circle cx="9" cy="13" r="1.8" fill="#1d3a2b"/><circle cx="15" cy="13" r="1.8" fill="#1d3a2b"/><rect x="11" y="2.5" width="2" height="4.5" fill="currentColor"/><circle cx="12" cy="2.5" r="1.6" fill="currentColor"/></svg>';
  return span;
}

function fmtTime(s) {
  const m = Math.floor(s / 60);
  const r = Math.floor(s % 60);
  return m ? `${m}:${String(r).padStart(2, "0")}` : `${Math.ceil(s)}`;
}
