"""The database: its tables (:mod:`.models`, :mod:`.account_tables`), their migrations
(:mod:`.schema`, run from ``rummikub.server.migrations``), the store of rooms and their event
logs (:mod:`.store`) with its group-commit writer (:mod:`.writer`), the reports
(:mod:`.reports`) and the opening of the database when a server starts (:mod:`.startup`)."""
