"""With a broker, the node of a cluster (:mod:`.node`): the leases of its rooms
(:mod:`.leases`), the broker's messages (:mod:`.broker`) and the clients of other nodes' rooms
(:mod:`.relay`)."""
