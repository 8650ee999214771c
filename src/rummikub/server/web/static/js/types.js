// @ts-check
// The shapes of what the server sends (WebSocket messages and HTTP answers, docs/server.md) and
// of the client's own data, as JSDoc types for the TypeScript compiler (`make typecheck-js`).
// Type definitions only: no code, nothing the page runs. A module uses them in its JSDoc as
// import("./types.js").Name. The server's side: rummikub/server/protocol/messages.py (what
// clients send), rooms/room.py and rooms/games/*.py (the views), handlers/*.py (the replies).

// --- pieces and tables ---------------------------------------------------------------------

/** A tile or a die's face in notation: "R7", "J", a joker with its role "J=R6" / "J=7".
 * @typedef {string} Face */
/** A set on the table: its faces in order.
 * @typedef {Face[]} Meld */
/** The table: its sets.
 * @typedef {Meld[]} Table */
/** An Xpress die (0-17) and the face it shows.
 * @typedef {{die: number, face: Face}} Die */
/** The params of a refusal (an error message's or a refused set's).
 * @typedef {Record<string, string | number>} Params */

// --- rules ---------------------------------------------------------------------------------

/**
 * A match's length: rounds, a target score, or both.
 * @typedef {object} MatchLength
 * @property {number | null} rounds
 * @property {number | null} target
 */

/**
 * The tile game's rules object (rummikub/core/rules.py `Rules.to_dict`, docs/formats.md;
 * /api/info's presets, a room's `rules`, a record's).
 * @typedef {object} TileRules
 * @property {string} preset
 * @property {number} colours
 * @property {number} numbers the highest number (13)
 * @property {number} copies
 * @property {number} jokers
 * @property {number} rack_size
 * @property {number} min_players
 * @property {number} max_players
 * @property {number} opening_value
 * @property {boolean} open_then_extend
 * @property {"free" | "strict"} joker_rule
 * @property {boolean} group_needs_both_colours
 * @property {boolean} joker_swap_from_rack
 * @property {boolean} freed_joker_new_set
 * @property {number} joker_penalty
 * @property {number | null} turn_seconds
 * @property {number} timeout_penalty
 * @property {"reject" | "penalty"} invalid_play
 * @property {number} invalid_penalty
 * @property {"zero-sum" | "penalty-points"} scoring
 * @property {boolean} redraw_first_player
 * @property {MatchLength} match
 */

/**
 * Xpress's rules object (docs/xpress.md).
 * @typedef {object} XpressRules
 * @property {number} rounds
 * @property {number} dice_per_player
 * @property {number} block_throws
 * @property {number} joker_value
 * @property {boolean} must_place_sets
 * @property {boolean} freed_joker_new_set
 */

/** The rules of a room of either game: which fields it has depends on the room's game.
 * @typedef {Partial<TileRules> & Partial<XpressRules>} Rules */

// --- rooms and seats -----------------------------------------------------------------------

/**
 * A seat as every client sees it (rooms/seats.py `Seat.public`).
 * @typedef {object} Seat
 * @property {number} seat 0-based
 * @property {"human" | "bot"} kind
 * @property {string | null} bot a bot's level
 * @property {string | null} name
 * @property {boolean} account held by an account
 * @property {boolean} taken
 * @property {boolean} connected
 * @property {boolean} standin a bot plays for the person meanwhile
 */

/**
 * A room's settings as its clients see them (rooms/seats.py `Settings.shown`).
 * @typedef {object} RoomSettings
 * @property {number} host the host's seat
 * @property {boolean} hints
 * @property {number} grace_seconds
 * @property {boolean} public
 * @property {number} bot_delay
 * @property {number} round_pause
 * @property {string | null} standin
 * @property {boolean} rated
 * @property {boolean} [spectator_chat] spectators may chat
 */

/** @typedef {"tiles" | "xpress"} GameName */

/**
 * The room of a `state` message.
 * @typedef {object} RoomView
 * @property {string} code
 * @property {GameName} [game] "xpress" in an Xpress room
 * @property {"waiting" | "playing" | "finished" | "abandoned"} status
 * @property {Rules} rules
 * @property {RoomSettings} settings
 * @property {Seat[]} seats
 * @property {{accepted: number[], room: string | null}} [rematch] once the match is over: the
 *   seats whose players accepted a rematch, and its room once made (rematch.js)
 */

// --- the game view of a `state` message ------------------------------------------------------

/**
 * What both games' views hold (rooms/room.py `public_view`).
 * @typedef {object} GameCommon
 * @property {number} round 0-based
 * @property {number} turn
 * @property {number} current the seat to move
 * @property {Table} table jokers with their roles
 * @property {number[]} totals
 * @property {boolean} round_over
 * @property {boolean} match_over
 * @property {number[]} winners
 * @property {number | null} time_left seconds; null without a clock
 * @property {number | null} turn_seconds
 * @property {number | null} pause_left seconds until the next round starts
 * @property {number[]} ready seats ready for the next round
 */

/**
 * A turn of the tile game in the move log (rooms/games/tiles.py `_public_turn`).
 * @typedef {{round: number, seat: number} & (
 *   {action: "play", tiles: Face[], sets?: Table, hint?: boolean}
 *   | {action: "draw" | "pass", hint?: boolean}
 *   | {action: "timeout" | "invalid", penalty: number, hint?: boolean}
 *   | PresenceAction)} TileLogEntry
 */

/**
 * An action of Xpress in the move log (rooms/games/xpress.py `act`).
 * @typedef {{round: number, seat: number} & (
 *   {action: "throw", dice: number[], faces: Face[]}
 *   | {action: "place", dice: number[], faces: Face[]}
 *   | {action: "end", placed: number}
 *   | PresenceAction)} XpressLogEntry
 */

/** A line of the move log about a person, not a turn (rooms/room.py `note`; presence.js).
 * @typedef {{action: "left" | "standin" | "back"}} PresenceAction */

/** @typedef {TileLogEntry | XpressLogEntry} LogEntry */

/**
 * The end of a round of the tile game, in `results`.
 * @typedef {object} TileResult
 * @property {number} round
 * @property {"rummikub" | "exhausted" | "abandoned"} reason
 * @property {number | null} winner
 * @property {number[]} scores
 * @property {number[]} left points left in each rack
 * @property {Face[][]} racks
 */

/**
 * The end of a round of Xpress, in `results`.
 * @typedef {object} XpressResult
 * @property {number} round
 * @property {"out" | "blocked" | "abandoned"} reason
 * @property {number | null} winner
 * @property {number[]} scores
 * @property {number[]} left
 * @property {Face[][]} hands
 */

/**
 * The tile game's view (rooms/games/tiles.py `game_view`, `seat_view`): a seated player's own
 * has his `rack` and `hinted`.
 * @typedef {GameCommon & {
 *   kind?: undefined,
 *   rack_sizes: number[],
 *   pool_size: number,
 *   opened: boolean[],
 *   passes: number,
 *   results: TileResult[],
 *   log: TileLogEntry[],
 *   rack?: Face[],
 *   hinted?: boolean,
 * }} TileGame
 */

/**
 * Xpress's view (rooms/games/xpress.py `game_view`): the same for every client.
 * @typedef {GameCommon & {
 *   kind: "xpress",
 *   rounds: number,
 *   step: number,
 *   phase: "throw" | "place",
 *   first_turn: boolean,
 *   hands: Die[][],
 *   placed: number,
 *   can_place: boolean,
 *   may_end_turn: boolean,
 *   idle: number[],
 *   block_throws: number,
 *   results: XpressResult[],
 *   log: XpressLogEntry[],
 *   roll_id: number,
 *   rolled: number[],
 * }} XpressGame
 */

/** @typedef {TileGame | XpressGame} GameState */
/** @typedef {TileResult | XpressResult} RoundResult */

// --- server to client: WebSocket messages ----------------------------------------------------

/** A request's id, echoed in its reply: the client's are "c1", "c2"... and "check<n>".
 * @typedef {string | number | null} MsgId */

/**
 * `state`: the room as this client sees it, after every change.
 * @typedef {object} StateMsg
 * @property {"state"} type
 * @property {number} seq stored events of the room
 * @property {number | null} you our seat (null: watching)
 * @property {boolean} [saving] the server cannot store moves for a moment
 * @property {RoomView} room
 * @property {GameState | null} game null before the start
 */

/**
 * A line of the chat (`chat`, and the history of `joined` and `watching`).
 * @typedef {object} ChatLine
 * @property {number | null} seat null: a spectator's line (a room that lets them chat)
 * @property {string | null} name null: a spectator without an account
 * @property {boolean} [spectator]
 * @property {string} text
 * @property {number} at seconds since the epoch
 */

/** @typedef {{type: "joined", id?: MsgId, room: string, seat: number, token: string, chat: ChatLine[]}} JoinedMsg */
/** @typedef {{type: "watching", id?: MsgId, room: string, chat: ChatLine[]}} WatchingMsg */
/** @typedef {{type: "chat", room?: undefined} & ChatLine} ChatMsg */

/**
 * A set of a table being built, as the server reads it (rooms/games/melds.py `judge_melds`):
 * its value, kind and canonical form, or why it is no set (`reason`: the English, which the
 * client replaces with its catalogue's words).
 * @typedef {{ok: true, value: number, kind: string, meld: Meld}
 *   | {ok: false, code: string, params: Params, reason: string}} CheckedMeld
 */

/** The table being built as the mover's play: `message` is worded by the client (i18n.js).
 * @typedef {{ok: true} | {ok: false, code: string, params: Params, reason: string, message: string}} CheckedPlay */

/** `checked`: the reply to `check`.
 * @typedef {{type: "checked", id: MsgId, room?: undefined, melds: CheckedMeld[], play?: CheckedPlay}} CheckedMsg */

/**
 * `hint`: the tile game's suggested play (`table` null: draw; `placeable` the most tiles a
 * play could place now, above 0 when keeping them is the better move), or Xpress's dice to
 * throw again, or its placement.
 * @typedef {{type: "hint", id: MsgId, room?: undefined} & (
 *   {tiles: Face[], table: Table | null, placeable?: number, throw?: undefined, dice?: undefined}
 *   | {throw: number[], tiles?: undefined, table?: undefined, dice?: undefined, placeable?: undefined}
 *   | {dice: number[], table: Table | null, throw?: undefined, tiles?: undefined, placeable?: undefined})} HintMsg
 */

/** A rated game's rating change of a seat held by an account.
 * @typedef {{seat: number, before: number, after: number}} RatingChange */
/** @typedef {{type: "rated", room: string, changes: RatingChange[]}} RatedMsg */

/** `error`: a refusal (`message` is the English until i18n.js words it in the page's language).
 * @typedef {object} ErrorMsg
 * @property {"error"} type
 * @property {MsgId} [id]
 * @property {string} code
 * @property {Params} params
 * @property {string} message
 * @property {string} [reason] the rules engine's code, where it refused
 * @property {number} [meld]
 * @property {number} [retry_after]
 * @property {undefined} [room]
 * @property {undefined} [error]
 */

/** @typedef {{type: "ok", id: MsgId, room?: undefined, report?: number, muted?: number[]}} OkMsg */
/** @typedef {{type: "left", id: MsgId, room?: undefined}} LeftMsg */
/** @typedef {{type: "pong", id: MsgId, room?: undefined, time: number}} PongMsg */
/** @typedef {{type: "removed", room: string}} RemovedMsg */
/** @typedef {{type: "queued", id: MsgId, room?: undefined, game: GameName, players: number[], bots: boolean, rating: number, bots_after: number | null}} QueuedMsg */
/** @typedef {{type: "unqueued", id?: MsgId, room?: undefined, reason: "left" | "replaced"}} UnqueuedMsg */
/** @typedef {{type: "matched", room: string, seat: number, token: string}} MatchedMsg */
/** @typedef {{type: "session-ended", room?: undefined, reason: string}} SessionEndedMsg */
/** @typedef {{type: "rematch", room: string, seat: number, token: string}} RematchMsg */

/**
 * Every message the server sends over the WebSocket.
 * @typedef {StateMsg | JoinedMsg | WatchingMsg | ChatMsg | CheckedMsg | HintMsg | RatedMsg
 *   | ErrorMsg | OkMsg | LeftMsg | PongMsg | RemovedMsg | QueuedMsg | UnqueuedMsg | MatchedMsg
 *   | SessionEndedMsg | RematchMsg} ServerMsg
 */

/** A request that got no answer: the connection closed first.
 * @typedef {{code: "disconnected", message: string}} Disconnected */
/** Why a request failed: the server's refusal, or the connection lost.
 * @typedef {ErrorMsg | Disconnected} Refusal */

// --- client to server ------------------------------------------------------------------------

/** @typedef {{kind: "human"} | {kind: "bot", level: string}} SeatSpec */

/**
 * A message the client sends (protocol/messages.py; `id` added by Net.request).
 * @typedef {{id?: MsgId} & (
 *   {type: "create", name: string, game?: GameName, rules?: string | Record<string, unknown>,
 *     seats: SeatSpec[], settings?: Record<string, boolean | number | string | null>}
 *   | {type: "join", room: string, name: string, seat?: number}
 *   | {type: "resume", room: string, token?: string}
 *   | {type: "watch", room: string}
 *   | {type: "start" | "draw" | "pass" | "hint" | "next_round" | "leave" | "ping" | "unqueue" | "end_turn"}
 *   | {type: "play", table: Table, tiles?: Face[]}
 *   | {type: "check", table: Table}
 *   | {type: "throw", dice: number[]}
 *   | {type: "place", table: Table, dice?: number[]}
 *   | {type: "chat", text: string}
 *   | {type: "queue", game?: "tiles", players: number[], bots?: boolean}
 *   | {type: "remove", seat: number}
 *   | {type: "report", seat: number, reason: string}
 *   | {type: "mute", seat: number, on: boolean}
 *   | {type: "rematch", accept?: boolean})} ClientMsg
 */

// --- HTTP answers ----------------------------------------------------------------------------

/** The body of an HTTP error (`error`: the English, or the page's words after i18n.js).
 * @typedef {{type?: undefined, error: string, code: string, params: Params, message?: string}} HttpError */

/** A numeric room setting's default and range.
 * @typedef {{default: number, min: number | null, max: number | null}} SettingRange */

/**
 * `GET /api/info`: per game with server rooms its bot levels (weakest first) and whether its
 * rooms may be rated; the tile game's presets; Xpress's rules as printed.
 * @typedef {object} Info
 * @property {Record<string, {bots: string[], rated: boolean}>} games
 * @property {Record<string, TileRules>} presets
 * @property {{rounds: number, dice_per_player: number}} xpress
 * @property {Record<string, SettingRange>} settings
 * @property {{name: number, chat: number, code: number, rooms: number, reason: number}} limits
 */

/**
 * An open room of `GET /api/rooms`.
 * @typedef {object} LobbyRoom
 * @property {string} code
 * @property {GameName} game
 * @property {string | null} preset
 * @property {Rules} rules
 * @property {boolean} hints
 * @property {Seat[]} seats
 * @property {"waiting" | "playing"} status
 * @property {number} spectators
 * @property {number} created_at
 */

/** A finished game of `GET /api/rooms`.
 * @typedef {{code: string, game: GameName, players: string[], bots?: (string | null)[]}} FinishedRoom */

/**
 * `GET /api/rooms`: a page of the public rooms.
 * @typedef {object} RoomList
 * @property {LobbyRoom[]} waiting
 * @property {LobbyRoom[]} live
 * @property {{waiting: number, live: number}} [total]
 * @property {FinishedRoom[]} finished
 */

/** `GET /api/rooms/CODE`.
 * @typedef {{code: string, game?: GameName, status: string, host?: number, seats: Seat[]}} RoomInfo */

/** `GET /api/rooms/CODE/analysis/progress`.
 * @typedef {{state: "done" | "none"} | {state: "running", done: number, total: number}} AnalysisProgress */

/**
 * A player of a game record.
 * @typedef {{name: string, kind: "human" | "bot", bot?: string | null}} RecordPlayer
 */

/**
 * A turn of a tile game's record (docs/formats.md).
 * @typedef {{player: number, ms?: number, hint?: boolean} & (
 *   {action: "play", play: Face[], table: Table}
 *   | {action: "draw", tile: Face}
 *   | {action: "timeout" | "invalid", penalty: Face[], reason?: string, params?: Params}
 *   | {action: "pass"})} TileRecordTurn
 */

/** The end of a round in a record (`hands` and `totals`: Xpress's).
 * @typedef {{reason: string, winner: number | null, scores: number[], racks?: Face[][], hands?: Face[][], totals?: number[]}} RecordEnd */

/**
 * `rummikub-game/1`, the tile game's record.
 * @typedef {object} TileRecord
 * @property {"rummikub-game/1"} format
 * @property {TileRules} rules
 * @property {RecordPlayer[]} players
 * @property {number} [seed]
 * @property {{pool: Face[], first: number, racks: Face[][], turns: TileRecordTurn[], end?: RecordEnd}[]} rounds
 * @property {number[]} totals
 */

/**
 * A turn of an Xpress record (docs/xpress.md): the throw (none on a round's first turn), the
 * placements, the end.
 * @typedef {object} XpressRecordTurn
 * @property {number} player
 * @property {{dice: number[], faces: Face[]}} [throw]
 * @property {{dice: number[], table: Table}[]} places
 * @property {boolean} [end]
 * @property {number} [ms]
 */

/**
 * `rummikub-xpress/1`, Xpress's record.
 * @typedef {object} XpressRecord
 * @property {"rummikub-xpress/1"} format
 * @property {XpressRules} rules
 * @property {RecordPlayer[]} players
 * @property {number} [seed]
 * @property {{first: number, hands: Die[][], turns: XpressRecordTurn[], end?: RecordEnd}[]} rounds
 * @property {number[]} totals
 */

/** `GET /api/rooms/CODE/record`.
 * @typedef {TileRecord | XpressRecord} GameRecord */

/**
 * A turn judged by the analysis (`rummikub-analysis/2`, docs/formats.md).
 * @typedef {object} JudgedTurn
 * @property {number} round
 * @property {number} turn
 * @property {number} player
 * @property {string} action
 * @property {"forced" | "best" | "good" | "inaccuracy" | "mistake" | "blunder"} verdict
 * @property {{before: number, after: number}} [win_chance]
 * @property {number} [loss]
 * @property {number[]} [chances]
 * @property {string} [best_action]
 * @property {Face[]} [best_placed]
 * @property {number} [best_points]
 * @property {Table | null} [best]
 * @property {number[] | null} [best_changed]
 * @property {Face[]} [placed]
 * @property {number} points
 * @property {number} most_points
 * @property {number} lost
 * @property {boolean} [could_go_out]
 * @property {string[]} [findings]
 * @property {number} [ms]
 * @property {{kept: Face[], best_kept: Face[], win_chance?: {before: number, after: number}, loss?: number, expected: number, best_expected: number, lost: number}} [throw]
 */

/**
 * A player's summary in the analysis.
 * @typedef {object} PlayerSummary
 * @property {string} name
 * @property {string | null} [bot]
 * @property {number | null} accuracy
 * @property {number | null} loss
 * @property {Record<string, number>} verdicts
 * @property {number} lost
 */

/** A missed go-out of a finished game, as its review lists it (a puzzle, rummikub-puzzle/1:
 * the page uses its id, its source and its rack).
 * @typedef {{id: string, goal: string, rack: Face[], source: {round: number, turn: number, player: number}}} GamePuzzleJson */

/** `GET /api/rooms/CODE/analysis`: the analysis, and the server's puzzles of the game.
 * @typedef {{format: string, version: string, game: GameName, depth: string, players: PlayerSummary[], turns: JudgedTurn[], puzzles?: GamePuzzleJson[]}} AnalysisJson */

/**
 * A play of the assistant's answer (`GET /api/assist`, docs/formats.md).
 * @typedef {object} AssistAlternative
 * @property {string[]} views
 * @property {Face[]} play
 * @property {number} tiles
 * @property {number} value
 * @property {number} changes
 * @property {boolean} optimal
 * @property {{tile: Face, mark: "rack" | "moved" | "kept"}[][]} table
 */

/** `GET /api/assist`.
 * @typedef {{table: Table, rack: Face[], opened: boolean, preset: string, alternatives: AssistAlternative[]}} AssistAnswer */

/** A game an account holds a seat in, or played (`playing`, `recent`).
 * @typedef {{room: string, game: GameName, status: string, seat: number, players: string[], rated: boolean, won: boolean | null, at: number, bots?: (string | null)[]}} AccountGame */

/** A Glicko-2 puzzle rating (a guest's in his browser, an account's on the server).
 * @typedef {{rating: number, rd: number, volatility: number}} Glicko */

/** An account's puzzle rating and how many puzzles it solved of those it attempted
 * (`GET /api/account`'s `puzzles`).
 * @typedef {Glicko & {solved: number, attempted: number}} AccountPuzzles */

/** What an account's attempt at a puzzle did (the `attempt` of the answers of
 * `POST /api/puzzles/ID/answer`, `/hint`, `/solution`): `counted` its first attempt at the
 * puzzle (stored), `rated` its rating moved, `player` its rating after, `delta` the change.
 * @typedef {{counted: boolean, rated: boolean, player: Glicko, delta: number}} PuzzleAttempt */

/** `GET /api/account` and the answers of its POSTs.
 * @typedef {{account?: {id: number, name: string} | null, csrf?: string | null, playing?: AccountGame[], claimed?: number, puzzles?: AccountPuzzles}} SessionJson */

/** A point of a player's rating history.
 * @typedef {{rating: number, at?: number}} RatingPoint */

/** An attempt on a profile: the puzzle, solved or not, how it ended (`answer`, `hint`,
 * `solution`), when, and the shown puzzle rating after it.
 * @typedef {{id: string, solved: boolean, how: string, at: number, rating: number}} PuzzleLine */

/** A profile's puzzles: the shown rating, the counts, the rating after each rated attempt,
 * and a page of attempts (newest first) from `offset`.
 * @typedef {{rating: number, rd: number, solved: number, attempted: number, history: RatingPoint[], offset: number, recent: PuzzleLine[]}} ProfilePuzzles */

/** `GET /api/players/NAME`.
 * @typedef {{name: string, games: Record<string, {rating: number, games: number, wins: number, history: RatingPoint[]}>, recent?: AccountGame[], puzzles?: ProfilePuzzles}} PlayerProfile */

/** A row of `GET /api/leaderboard`.
 * @typedef {{place: number, name: string, rating: number, games: number, wins: number}} LeaderRow */

/** `GET /api/leaderboard`.
 * @typedef {{game: string, period: string, offset: number, players: LeaderRow[]}} Leaderboard */

// --- the client's own: the game adapters (game_tiles.js, game_xpress.js) --------------------

/** @typedef {import("./store.js").State} State */
/** @typedef {import("./turn.js").Item} Item */
/** @typedef {import("./turn.js").Turn} Turn */
/** @typedef {import("./util.js").Child} Child */

/** The store's state while a game is on: its view, and the move being built on it.
 * @typedef {State & {view: StateMsg, turn: Turn}} Playing */

/**
 * What every part of the game view needs to know (game.js `context`): the state, the game
 * `g` of the adapter's kind, the room, its rules, our seat, whether it is our turn, the seats'
 * names, and whether we build a move on the table now.
 * @template {GameState} [G=GameState]
 * @typedef {object} Ctx
 * @property {Playing} s
 * @property {G} g
 * @property {RoomView} room
 * @property {Rules} rules
 * @property {number | null} seat
 * @property {boolean} mine
 * @property {(i: number) => string} name
 * @property {string[]} names
 * @property {boolean} placing
 */

/**
 * What an adapter may do to the page (game.js `ctl`).
 * @typedef {object} Ctl
 * @property {() => State} state
 * @property {(msg: ClientMsg) => Promise<ServerMsg | null>} act send; a refusal is shown
 * @property {(msg: ClientMsg) => Promise<ServerMsg>} request send; rejects with the refusal
 * @property {(fn: (s: State) => void) => void} change
 * @property {(fn: (s: Playing) => boolean | void) => void} changeMove change the move (false: nothing changed); the server reads it
 * @property {() => void} restart
 * @property {() => boolean} online
 * @property {(mode: string) => void} setSort
 */

/**
 * A button of the dock.
 * @typedef {object} Button
 * @property {string} id
 * @property {Child} label
 * @property {string} [title]
 * @property {boolean} [primary]
 * @property {boolean} [disabled]
 * @property {() => void} onclick
 */

/** The buttons every game has (the adapter places them). 
 * @typedef {{undo: Button, redo: Button, reset: Button, hint: Button | null}} CommonButtons */

/**
 * A position of the replay (records.js).
 * @typedef {object} Step
 * @property {number} round
 * @property {number} turn -1: the deal (or the setup roll)
 * @property {import("./pieces.js").Piece[][]} hands
 * @property {Table} table
 * @property {string} text
 * @property {number | null} player
 * @property {number[]} rolled
 * @property {RecordEnd | null} end
 */

/**
 * A game's adapter for the one game view (game.js) and the replay viewer (replay.js): what
 * its hands, table, buttons and words are. `G`: the game view it reads. Methods (not function
 * properties), so that an adapter of one game is an adapter of any (game.js holds either).
 * @template {GameState} [G=GameState]
 * @typedef {{
 *   game: GameName,
 *   piece: import("./pieces.js").PieceKind,
 *   record: GameRecord["format"],
 *   css: string,
 *   trayClass: string,
 *   labelBelow: boolean,
 *   meldValues: boolean,
 *   emptyTable: string,
 *   handTitle: string,
 *   handCount: string,
 *   lastWords: {hand: string, moved: string, joker: string},
 *   standings: string,
 *   markClass?: string,
 *   arrangeable?: boolean,
 *   turnKey(g: G): string,
 *   hand(g: G, seat: number): import("./pieces.js").Piece[],
 *   shownHands(g: G): import("./pieces.js").Piece[][] | null,
 *   handSize(g: G, i: number): number,
 *   value(face: Face, rules: Rules): number,
 *   placing(g: G): boolean,
 *   movable(c: Ctx<G>, item: Item): boolean,
 *   marking(c: Ctx<G>): boolean,
 *   arrange(items: Item[], ui: State["ui"]): Item[],
 *   roll?(g: G): {id: number, dice: number[], late: boolean},
 *   badges(c: Ctx<G>, i: number): Child[],
 *   formatScore(s: number): string,
 *   sideInfo(c: Ctx<G>): HTMLElement,
 *   trayLabel(c: Ctx<G>, seat: number, own: boolean, n: number, v: number): {name: string | null, info: string, empty: string | null},
 *   status(c: Ctx<G>): string | Node,
 *   controls(c: Ctx<G>, ctl: Ctl, common: CommonButtons): (Button | null)[],
 *   hintText(hint: HintMsg): string,
 *   hintAction(hint: HintMsg): string | null,
 *   applyHint(c: Ctx<G>, ctl: Ctl): void,
 *   hinted(c: Ctx<G>, items: Item[]): Set<string>,
 *   describe(e: G["log"][number], name: string): Child,
 *   plannedRounds(g: G): number,
 *   leftOf(result: G["results"][number]): Face[][],
 *   leftLabel(name: string, n: number): string,
 *   roundTitle(last: G["results"][number] | undefined, names: string[]): string,
 *   matchText(g: G, names: string[]): string,
 *   replayTitle(code: string): string,
 *   replayCounter(s: Step, i: number, n: number): string,
 *   replayWinner(end: RecordEnd, names: string[]): string,
 *   replayScore(x: number): string,
 *   replayAbove(players: RecordPlayer[]): number[],
 * }} GameAdapter
 */

export {};
