// The replay of a finished Xpress game (a rummikub-xpress/1 record): step through every
// throw, placement and end of turn of every round.
import { t, translate } from "./i18n.js";
import { dieEl } from "./dice.js";
import { h } from "./util.js";

// Every position of the game: the setup roll of each round, then one per action.
export function buildXpressSteps(record) {
  const steps = [];
  const names = record.players.map((p) => p.name);
  record.rounds.forEach((rd, ri) => {
    let hands = rd.hands.map((hand) => hand.map((d) => ({ ...d })));
    let table = [];
    steps.push({ round: ri, hands, table, text: t("xpress.replay_setup", { n: ri + 1, name: names[rd.first] }),
      player: rd.first, rolled: hands.flat().map((d) => d.die) });
    rd.turns.forEach((turn, ti) => {
      const p = turn.player;
      const name = names[p];
      const push = (text, extra = {}) => steps.push({ round: ri, turn: ti, hands, table, text, player: p, rolled: [], ...extra });
      if (turn.throw) {
        const faces = new Map(turn.throw.dice.map((d, i) => [d, turn.throw.faces[i]]));
        hands = hands.map((hand, i) => (i === p ? hand.map((d) => (faces.has(d.die) ? { die: d.die, face: faces.get(d.die) } : d)) : hand));
        push(t("xpress.log_throw", { name, n: turn.throw.dice.length, faces: turn.throw.faces.join(" ") }), { rolled: turn.throw.dice });
      }
      for (const place of turn.places) {
        const set = new Set(place.dice);
        const faces = hands[p].filter((d) => set.has(d.die)).map((d) => d.face);
        hands = hands.map((hand, i) => (i === p ? hand.filter((d) => !set.has(d.die)) : hand));
        table = place.table;
        push(t("xpress.log_place", { name, faces: faces.join(" "), n: faces.length }));
      }
      if (turn.end) push(turn.places.length ? t("xpress.log_end", { name }) : t("xpress.log_nothing", { name }));
    });
    if (rd.end) steps[steps.length - 1].end = rd.end;
  });
  return steps;
}

export function renderXpressReplay(root, code, record) {
  const names = record.players.map((p) => p.name);
  const steps = buildXpressSteps(record);
  let index = 0;
  const view = h("div", { class: "replay-view xpress-replay" });
  const slider = h("input", { type: "range", min: 0, max: steps.length - 1, value: 0, id: "replay-slider", "aria-label": t("replay.position") });
  const counter = h("span", { class: "replay-counter" });
  const go = (i) => { index = Math.max(0, Math.min(steps.length - 1, i)); slider.value = String(index); draw(); };
  slider.addEventListener("input", () => go(Number(slider.value)));
  const controls = h("div", { class: "replay-controls" },
    h("button", { class: "btn", id: "replay-first", onclick: () => go(0), title: t("replay.first") }, "⏮"),
    h("button", { class: "btn", id: "replay-prev", onclick: () => go(index - 1), title: t("replay.prev") }, "◀"),
    h("button", { class: "btn", id: "replay-next", onclick: () => go(index + 1), title: t("replay.next") }, "▶"),
    h("button", { class: "btn", id: "replay-last", onclick: () => go(steps.length - 1), title: t("replay.last") }, "⏭"),
    slider, counter);
  document.onkeydown = (e) => {
    if (!document.body.contains(view)) { document.onkeydown = null; return; }
    if (e.key === "ArrowRight") go(index + 1);
    if (e.key === "ArrowLeft") go(index - 1);
  };
  const tray = (s, i) => {
    const rolled = new Set(s.rolled);
    return h("div", { class: "final-rack" + (i === s.player ? " current" : "") },
      h("span", { class: "final-name" }, `${names[i]} (${s.hands[i].length})`),
      h("span", { class: "tiles-inline" }, s.hands[i].map((d) => {
        const el = dieEl(d.face, { die: d.die, small: true });
        if (rolled.has(d.die)) el.classList.add("rolling");
        return el;
      })));
  };
  function draw() {
    const s = steps[index];
    counter.textContent = t("xpress.replay_counter", { round: s.round + 1, i: index + 1, n: steps.length });
    view.innerHTML = "";
    view.append(h("div", { class: "replay-text" }, s.text));
    view.append(tray(s, 1));
    const table = h("div", { class: "melds replay-table" },
      s.table.length ? s.table.map((m) => h("div", { class: "meld-wrap" }, h("div", { class: "meld" }, m.map((f) => dieEl(f)))))
        : h("div", { class: "empty-table muted" }, t("xpress.empty_table")));
    view.append(h("section", { class: "table-area" }, table));
    view.append(tray(s, 0));
    if (s.end) {
      const who = s.end.winner != null ? t("round.winner", { name: names[s.end.winner] }) : t("xpress.round_draw");
      view.append(h("div", { class: "card replay-end" }, h("strong", {}, who),
        h("span", {}, " " + s.end.scores.map((x, i) => `${names[i]} +${x}`).join(" · "))));
    }
  }
  root.append(h("div", { class: "replay" },
    h("div", { class: "replay-head" }, h("h2", {}, t("xpress.replay_title", { code })),
      h("p", { class: "muted" }, names.map((n, i) => `${n}: ${record.totals[i]}`).join(" · "))),
    controls, view));
  translate(root);
  draw();
}
