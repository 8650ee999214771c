"""What clients ask, each kind in its module: a message turned into its room action
(:mod:`.dispatch`), making a room (:mod:`.creation`), joining and leaving (:mod:`.seating`), the
quick-match queue (:mod:`.quick`), moderation and mutes, rated games, records and analyses."""
