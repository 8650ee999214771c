// @ts-check
// A game record read into the positions the replay viewer steps through. Both formats give the
// same steps: {round, turn, hands: per player [{face, die}], table, text, player, rolled, end}.
// The tile game's record (rummikub-game/1, docs/formats.md) deals racks and plays turns; the
// Xpress record (rummikub-xpress/1, docs/xpress.md) rolls dice, throws and places.
import { t } from "./i18n.js";
import { baseOf, sortFaces } from "./pieces.js";
import { botName } from "./util.js";

/** @typedef {import("./types.js").Face} Face */
/** @typedef {import("./types.js").Step} Step */

/**
 * @param {Face[]} rack
 * @param {Face[]} tiles
 */
function removeTiles(rack, tiles) {
  const out = [...rack];
  for (const s of tiles) {
    const k = out.indexOf(baseOf(s));
    if (k >= 0) out.splice(k, 1);
  }
  return out;
}

// Racks as the replay shows them: sorted by colour, then number.
/** @param {Face[][]} racks */
const shownRacks = (racks) => racks.map((r) => sortFaces(r, "789").map((face) => ({ face, die: null })));

// The players' names as the game page shows them: a bot by its level and seat ("Greedy bot 2").
/** @param {import("./types.js").GameRecord} record */
export function playerNames(record) {
  return record.players.map((p, i) => (p.kind === "bot" && p.bot ? botName(p.bot, i) : p.name));
}

/**
 * @param {import("./types.js").TileRecord} record
 * @returns {Step[]}
 */
function tileSteps(record) {
  /** @type {Step[]} */
  const steps = [];
  const names = playerNames(record);
  record.rounds.forEach((rd, ri) => {
    let racks = rd.racks.map((r) => [...r]);
    /** @type {import("./types.js").Table} */
    let table = [];
    steps.push({ round: ri, turn: -1, hands: shownRacks(racks), table, text: t("replay.deal", { n: ri + 1 }), player: null, rolled: [], end: null });
    rd.turns.forEach((turn, ti) => {
      racks = racks.map((r) => [...r]);
      const p = turn.player;
      const name = names[p];
      let text;
      if (turn.action === "play") {
        racks[p] = removeTiles(racks[p], turn.play);
        table = turn.table;
        text = t("log.play", { name, tiles: turn.play.join(" "), n: turn.play.length });
      } else if (turn.action === "draw") {
        racks[p].push(turn.tile);
        text = t("replay.draw", { name, tile: turn.tile });
      } else if (turn.action === "timeout" || turn.action === "invalid") {
        racks[p].push(...turn.penalty);
        text = t(`log.${turn.action}`, { name, n: turn.penalty.length });
      } else {
        text = t("log.pass", { name });
      }
      const last = ti === rd.turns.length - 1;
      steps.push({ round: ri, turn: ti, hands: shownRacks(racks), table, text, player: p, rolled: [],
        end: last && rd.end ? rd.end : null });
    });
  });
  return steps;
}

/**
 * @param {import("./types.js").XpressRecord} record
 * @returns {Step[]}
 */
function xpressSteps(record) {
  /** @type {Step[]} */
  const steps = [];
  const names = playerNames(record);
  record.rounds.forEach((rd, ri) => {
    let hands = rd.hands.map((hand) => hand.map((d) => ({ face: d.face, die: d.die })));
    /** @type {import("./types.js").Table} */
    let table = [];
    steps.push({ round: ri, turn: -1, hands, table, text: t("xpress.replay_setup", { n: ri + 1, name: names[rd.first] }),
      player: rd.first, rolled: hands.flat().map((d) => d.die), end: null });
    rd.turns.forEach((turn, ti) => {
      const p = turn.player;
      const name = names[p];
      /**
       * @param {string} text
       * @param {number[]} [rolled]
       */
      const push = (text, rolled = []) => steps.push({ round: ri, turn: ti, hands, table, text, player: p, rolled, end: null });
      const thrown = turn.throw;
      if (thrown) {
        const faces = new Map(thrown.dice.map((d, i) => [d, thrown.faces[i]]));
        hands = hands.map((hand, i) => (i === p ? hand.map((d) => {
          const face = faces.get(d.die);
          return face !== undefined ? { die: d.die, face } : d;
        }) : hand));
        push(t("xpress.log_throw", { name, n: thrown.dice.length, faces: thrown.faces.join(" ") }), thrown.dice);
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

// Every position of the game: the deal (or setup roll) of each round, then one per action.
/**
 * @param {import("./types.js").GameRecord} record
 * @returns {Step[]}
 */
export function readRecord(record) {
  if (record.format === "rummikub-game/1") return tileSteps(record);
  if (record.format === "rummikub-xpress/1") return xpressSteps(record);
  throw new Error(`unknown record format ${/** @type {{format: string}} */ (record).format}`);
}
