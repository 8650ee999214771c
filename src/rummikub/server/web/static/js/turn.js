// @ts-check
// The move a player builds on his turn, before he sends it: the table's sets and his own pieces
// (rack or dice), each piece an item {id, s: face, rack: from his own pieces, die}. The same for
// both games; the store keeps it, these functions change it.
import { baseOf } from "./pieces.js";

/** @typedef {import("./types.js").Face} Face */
/** @typedef {import("./types.js").Table} Table */

/**
 * A piece of the move: `id` (unique in the page), `s` its face (a joker's with the role the
 * server read), `rack` whether it is the player's own, `die` a die's number, `mark` what the
 * last move of another player did with it (follow.js).
 * @typedef {object} Item
 * @property {string} id
 * @property {Face} s
 * @property {boolean} rack
 * @property {number | null} die
 * @property {import("./follow.js").Mark} [mark]
 */

/** The move's sets and rack at one step (undo, redo).
 * @typedef {{melds: Item[][], rack: Item[]}} Snapshot */

/**
 * The move being built: `key` the turn it is built on (the adapter's turnKey), `start` the
 * position the server sent, the sets and the rack now, the steps to undo and redo, and
 * `restored` when it was rebuilt from this tab's storage (the server reads it again).
 * @typedef {object} Turn
 * @property {string} key
 * @property {{table: Table, hand: import("./pieces.js").Piece[]}} start
 * @property {Item[][]} melds
 * @property {Item[]} rack
 * @property {Snapshot[]} [undo]
 * @property {Snapshot[]} [redo]
 * @property {boolean} [restored]
 */

/** Where a piece goes (drag.js finds it under the pointer; `el`: the element found there).
 * @typedef {({kind: "meld", meld: number, pos: number} | {kind: "new"} | {kind: "rack", pos?: number}) & {el?: Element}} Target */

/** A piece as kept across a reload.
 * @typedef {{s: Face, rack: boolean, die: number | null}} PlainItem */
/** The move as kept across a reload (`order`: the rack's faces as the player arranged them).
 * @typedef {{key: string, melds: PlainItem[][], rack: PlainItem[], order?: Face[] | null}} SavedTurn */

let uid = 0;
/**
 * @param {Face} s
 * @param {boolean} rack
 * @param {number | null} [die]
 * @returns {Item}
 */
const item = (s, rack, die = null) => ({ id: `p${++uid}`, s, rack, die });

// The move at the start of a turn: `table` as the server shows it, `hand` the player's pieces
// ({face, die}).
/**
 * @param {string} key
 * @param {Table} table
 * @param {import("./pieces.js").Piece[]} hand
 * @returns {Turn}
 */
export function startTurn(key, table, hand) {
  return {
    key,
    start: { table, hand },
    melds: table.map((m) => m.map((s) => item(s, false))),
    rack: hand.map((p) => item(p.face, true, p.die ?? null)),
  };
}

// Pieces from the player's own that are on the table now.
/** @param {Turn | null} turn */
export function placed(turn) { return turn ? turn.melds.flat().filter((x) => x.rack) : []; }

/**
 * @param {Turn} turn
 * @returns {Table}
 */
export function tableJson(turn) { return turn.melds.map((m) => m.map((x) => x.s)); }

/** @param {Turn} turn */
export function changedTable(turn) {
  return JSON.stringify(tableJson(turn)) !== JSON.stringify(turn.start.table);
}

/** Where piece `id` is: in the rack, or in a set.
 * @typedef {{where: "rack", index: number, item: Item} | {where: "meld", meld: number, index: number, item: Item}} Place */

/**
 * @param {Turn} turn
 * @param {string} id
 * @returns {Place | null}
 */
export function locate(turn, id) {
  const r = turn.rack.findIndex((x) => x.id === id);
  if (r >= 0) return { where: "rack", index: r, item: turn.rack[r] };
  for (let m = 0; m < turn.melds.length; m++) {
    const i = turn.melds[m].findIndex((x) => x.id === id);
    if (i >= 0) return { where: "meld", meld: m, index: i, item: turn.melds[m][i] };
  }
  return null;
}

// Move a piece to `target`: {kind: "meld", meld, pos} | {kind: "new"} | {kind: "rack", pos?}
// (a position in the rack as it is shown: the player arranges his rack). A piece
// that was on the table at the start never goes to the rack (returns "table-stays"). Jokers of
// the sets touched lose their role until the server reads the sets again. Returns the index of
// a set just made (to bring it into view), or null.
/**
 * @param {Turn} turn
 * @param {string} id
 * @param {Target} target
 * @returns {number | "table-stays" | null}
 */
export function movePiece(turn, id, target) {
  const from = locate(turn, id);
  if (!from) return null;
  const piece = from.item;
  if (target.kind === "rack" && !piece.rack) return "table-stays";
  /** @type {Set<Item[]>} */
  const touched = new Set();
  let targetMeld = target.kind === "meld" ? turn.melds[target.meld] : null;
  let pos = target.kind === "new" ? undefined : target.pos;
  if (from.where === "rack") {
    turn.rack.splice(from.index, 1);
    if (target.kind === "rack" && target.pos != null && target.pos > from.index) pos = target.pos - 1;
  }
  else {
    const src = turn.melds[from.meld];
    src.splice(from.index, 1);
    touched.add(src);
    if (targetMeld === src && pos != null && pos > from.index) pos--;
  }
  if (target.kind === "meld" && targetMeld) {
    targetMeld.splice(Math.max(0, Math.min(/** @type {number} */ (pos), targetMeld.length)), 0, piece);
    touched.add(targetMeld);
  } else if (target.kind === "new") {
    targetMeld = [piece];
    turn.melds.push(targetMeld);
    touched.add(targetMeld);
  } else if (target.pos != null) {
    turn.rack.splice(Math.max(0, Math.min(/** @type {number} */ (pos), turn.rack.length)), 0, piece);
  } else {
    turn.rack.push(piece);
  }
  for (const m of touched) for (const x of m) if (baseOf(x.s) === "J") x.s = "J";
  if (baseOf(piece.s) === "J") piece.s = "J";
  turn.melds = turn.melds.filter((m) => m.length);
  return target.kind === "new" && targetMeld ? turn.melds.indexOf(targetMeld) : null;
}

// The server read the sets (`checked`): each valid set takes its canonical order and the roles
// of its jokers.
/**
 * @param {Turn | null} turn
 * @param {import("./types.js").CheckedMsg} checked
 */
export function mergeChecked(turn, checked) {
  if (!turn || checked.melds.length !== turn.melds.length) return false;
  checked.melds.forEach((res, i) => {
    if (!res.ok) return;
    const pool = [...turn.melds[i]];
    const ordered = [];
    for (const tok of res.meld) {
      const k = pool.findIndex((x) => baseOf(x.s) === baseOf(tok));
      if (k < 0) return;
      const [piece] = pool.splice(k, 1);
      piece.s = tok;
      ordered.push(piece);
    }
    if (ordered.length === turn.melds[i].length) turn.melds[i] = ordered;
  });
  return true;
}

// Lay out a suggested table (a hint) from the turn's start: table pieces first, then the
// player's own pieces that `usable` allows; the rest stay on the rack.
/**
 * @param {Turn} turn
 * @param {Table} table
 * @param {(x: Item) => boolean} [usable]
 */
export function layOut(turn, table, usable = () => true) {
  const tablePool = turn.start.table.flat().map((s) => item(s, false));
  const hand = turn.start.hand.map((p) => item(p.face, true, p.die ?? null));
  /** @param {Face} tok */
  const take = (tok) => {
    let k = tablePool.findIndex((x) => baseOf(x.s) === baseOf(tok));
    if (k >= 0) return tablePool.splice(k, 1)[0];
    k = hand.findIndex((x) => x.s === baseOf(tok) && usable(x));
    return k >= 0 ? hand.splice(k, 1)[0] : item(tok, true);
  };
  turn.melds = table.map((m) => m.map((tok) => { const x = take(tok); x.s = tok; return x; }));
  turn.rack = hand;
}

// --- undo and redo: every step of the move is kept -------------------------------------------
/** @param {Item} x */
const copy = (x) => ({ ...x });
/**
 * @param {Turn} turn
 * @returns {Snapshot}
 */
function snapshot(turn) { return { melds: turn.melds.map((m) => m.map(copy)), rack: turn.rack.map(copy) }; }
/**
 * @param {Turn} turn
 * @param {Snapshot} snap
 */
function restore(turn, snap) { turn.melds = snap.melds; turn.rack = snap.rack; }

// Before a step of the move: remember the move as it is (a new step forgets what was undone).
/** @param {Turn} turn */
export function recordStep(turn) {
  turn.undo = [...(turn.undo || []), snapshot(turn)].slice(-200);
  turn.redo = [];
}

/** @param {Turn} turn */
export function undoStep(turn) {
  const snap = turn.undo && turn.undo.pop();
  if (!snap) return false;
  turn.redo = [...(turn.redo || []), snapshot(turn)];
  restore(turn, snap);
  return true;
}

/** @param {Turn} turn */
export function redoStep(turn) {
  const snap = turn.redo && turn.redo.pop();
  if (!snap) return false;
  turn.undo = [...(turn.undo || []), snapshot(turn)];
  restore(turn, snap);
  return true;
}

// --- the rack in the player's own order ----------------------------------------------------
// Put the rack in `order` (faces, as the player arranged them); pieces not in it go last.
/**
 * @param {Turn} turn
 * @param {Face[]} order
 */
export function orderRack(turn, order) {
  /** @type {(Face | null)[]} */
  const left = [...order];
  /** @param {Item} x */
  const rank = (x) => { const k = left.indexOf(x.s); if (k < 0) return Infinity; left[k] = null; return k; };
  const ranked = turn.rack.map((x) => /** @type {[number, Item]} */ ([rank(x), x]));
  ranked.sort((a, b) => a[0] - b[0]);
  turn.rack = ranked.map(([, x]) => x);
}

// --- kept across a reload: the move as plain data, and back ---------------------------------
/**
 * @param {Item} x
 * @returns {PlainItem}
 */
const plain = (x) => ({ s: x.s, rack: x.rack, die: x.die });
/**
 * @param {Turn} turn
 * @returns {SavedTurn}
 */
export function saveable(turn) { return { key: turn.key, melds: turn.melds.map((m) => m.map(plain)), rack: turn.rack.map(plain) }; }

// The move `saved` rebuilt on the turn just started, if it holds exactly the turn's pieces.
/**
 * @param {Turn} turn
 * @param {SavedTurn | null} saved
 */
export function restoreSaved(turn, saved) {
  if (!saved || saved.key !== turn.key) return false;
  /** @param {PlainItem} x */
  const id = (x) => `${baseOf(x.s)}/${x.rack ? "r" : "t"}/${x.die ?? ""}`;
  const have = [...turn.rack, ...turn.melds.flat()].map(id).sort();
  const want = [...saved.rack, ...saved.melds.flat()].map(id).sort();
  if (JSON.stringify(have) !== JSON.stringify(want)) return false;
  turn.melds = saved.melds.map((m) => m.map((x) => item(x.s, x.rack, x.die)));
  turn.rack = saved.rack.map((x) => item(x.s, x.rack, x.die));
  turn.restored = true;
  return true;
}
