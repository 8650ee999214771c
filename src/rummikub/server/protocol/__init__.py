"""The wire protocol, the bottom layer of the server: the messages clients and server
exchange (:mod:`.messages`), the codes of refusals (:mod:`.codes`), the refusal an action
raises (:mod:`.refusals`) and the checks of the text people type (:mod:`.text`)."""
