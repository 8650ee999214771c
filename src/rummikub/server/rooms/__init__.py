"""Rooms and seats, synchronous and free of I/O: a room of any game (:mod:`.room`), its
seats and settings (:mod:`.seats`), and the part of it that differs from game to game
(:mod:`.games`)."""
