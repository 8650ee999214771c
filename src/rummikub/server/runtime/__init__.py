"""The running room: a room with its lock and connections (:mod:`.room_runtime`), the
clients' connections and what they may cost (:mod:`.connection`, :mod:`.admission`,
:mod:`.ratelimit`), store before effect (:mod:`.persistence`, :mod:`.restore`), clocks and bots
(:mod:`.scheduling`, :mod:`.periodic`), turns (:mod:`.turns`), the views sent to clients
(:mod:`.broadcast`), the lobby, the rooms reopened at start (:mod:`.reopen`) and the metrics."""
