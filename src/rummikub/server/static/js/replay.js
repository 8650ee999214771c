// The replay page of a finished game: step through every turn of every round.
import { t, translate } from "./i18n.js";
import { baseOf, sortTiles, tileEl } from "./tiles.js";
import { h, getJSON } from "./util.js";
import { renderXpressReplay } from "./xpress_replay.js";

function removeTiles(rack, tiles) {
  const out = [...rack];
  for (const s of tiles) {
    const k = out.indexOf(baseOf(s));
    if (k >= 0) out.splice(k, 1);
  }
  return out;
}

// Every position of the game: the deal of each round, then one per turn.
export function buildSteps(record) {
  const steps = [];
  record.rounds.forEach((rd, ri) => {
    let racks = rd.racks.map((r) => [...r]);
    let table = [];
    steps.push({ round: ri, turn: -1, racks, table, text: t("replay.deal", { n: ri + 1 }), current: rd.first });
    let pool = [...rd.pool];
    rd.turns.forEach((turn, ti) => {
      racks = racks.map((r) => [...r]);
      const p = turn.player;
      const name = record.players[p].name;
      let text;
      if (turn.action === "play") {
        racks[p] = removeTiles(racks[p], turn.play);
        table = turn.table;
        text = t("log.play", { name, tiles: turn.play.join(" "), n: turn.play.length });
      } else if (turn.action === "draw") {
        racks[p].push(turn.tile);
        pool = pool.slice(1);
        text = t("replay.draw", { name, tile: turn.tile });
      } else if (turn.action === "timeout" || turn.action === "invalid") {
        racks[p].push(...turn.penalty);
        pool = pool.slice(turn.penalty.length);
        text = t(`log.${turn.action}`, { name, n: turn.penalty.length });
      } else {
        text = t("log.pass", { name });
      }
      const last = ti === rd.turns.length - 1;
      steps.push({ round: ri, turn: ti, racks, table, text, player: p,
        end: last && rd.end ? rd.end : null, current: p });
    });
  });
  return steps;
}

export async function renderReplay(root, code) {
  root.innerHTML = "";
  let record;
  try {
    record = await getJSON(`/api/rooms/${code}/record`);
  } catch (err) {
    root.append(h("div", { class: "card center" }, h("h2", {}, t("replay.unavailable")),
      h("p", { class: "muted" }, err && err.error ? err.error : ""),
      h("a", { class: "btn", href: "/", "data-link": true }, t("room.back"))));
    return;
  }
  if (record.format === "rummikub-xpress/1") { renderXpressReplay(root, code, record); return; }
  const steps = buildSteps(record);
  let index = 0;
  const view = h("div", { class: "replay-view" });
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
  function draw() {
    const s = steps[index];
    counter.textContent = t("replay.counter", { round: s.round + 1, turn: s.turn + 1, i: index + 1, n: steps.length });
    view.innerHTML = "";
    view.append(h("div", { class: "replay-text" }, s.text));
    const table = h("div", { class: "melds replay-table" },
      s.table.length ? s.table.map((m) => h("div", { class: "meld-wrap" }, h("div", { class: "meld" }, m.map((x) => tileEl(x)))))
        : h("div", { class: "empty-table muted" }, t("game.empty_table")));
    view.append(h("section", { class: "table-area" }, table));
    const racks = h("div", { class: "replay-racks" }, s.racks.map((r, i) => h("div", { class: "final-rack" + (i === s.player ? " current" : "") },
      h("span", { class: "final-name" }, `${record.players[i].name} (${r.length})`),
      h("span", { class: "tiles-inline" }, sortTiles(r, "789").map((x) => tileEl(x, { small: true }))))));
    view.append(racks);
    if (s.end) {
      view.append(h("div", { class: "card replay-end" },
        h("strong", {}, s.end.winner != null ? t("round.winner", { name: record.players[s.end.winner].name }) : t("round.abandoned")),
        h("span", {}, " " + s.end.scores.map((x, i) => `${record.players[i].name} ${x > 0 ? "+" : ""}${x}`).join(" · "))));
    }
  }
  root.append(h("div", { class: "replay" },
    h("div", { class: "replay-head" }, h("h2", {}, t("replay.title", { code })),
      h("p", { class: "muted" }, record.players.map((p, i) => `${p.name}: ${record.totals[i] > 0 ? "+" : ""}${record.totals[i]}`).join(" · "))),
    controls, view));
  translate(root);
  draw();
}
