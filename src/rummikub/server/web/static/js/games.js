// @ts-check
// The games the client plays, each an adapter of the one game view and replay viewer.
import { tilesGame } from "./game_tiles.js";
import { xpressGame } from "./game_xpress.js";

/** @type {import("./types.js").GameAdapter[]} */
const GAMES = [tilesGame, xpressGame];

// The adapter of a room's game ("tiles" or "xpress"; the tile game when unknown).
/** @param {string | null | undefined} kind */
export function gameOf(kind) { return GAMES.find((g) => g.game === kind) || tilesGame; }

// The adapter of a game record's format, or null.
/** @param {string} format */
export function gameOfRecord(format) { return GAMES.find((g) => g.record === format) || null; }
