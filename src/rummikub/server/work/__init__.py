"""The worker processes: a fair pool of them (:mod:`.pool`) and the CPU work they run as
plain functions (:mod:`.jobs`: bot moves, hints, analyses)."""
