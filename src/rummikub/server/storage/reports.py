"""Players' reports of other players, kept in the ``reports`` table for the server's operator
(``rummikub accounts reports``). A report names the room (whose game record and replay, chat
included, show what happened), the reporter's and the reported seat (1-based) and the reason.
Every method is one transaction."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import sessionmaker

from .models import ReportRow, SeatRow

__all__ = ["Report", "ReportStore"]


@dataclass(frozen=True, slots=True)
class Report:
    """One report, with the names the two seats hold now (``None``: a seat left free)."""

    id: int
    room: str
    at: float
    seat: int
    seat_name: str | None
    reported_seat: int
    reported_name: str | None
    reason: str
    handled: bool


class ReportStore:
    """The reports of one database (the server's :class:`~rummikub.server.storage.store.Store`
    engine)."""

    def __init__(self, engine: Engine) -> None:
        self._session = sessionmaker(engine, expire_on_commit=False)

    def add(self, code: str, seat: int, reported: int, reason: str, now: float) -> int | None:
        """Store the report of seat ``seat`` about seat ``reported`` (both 1-based) of room
        ``code``; its id, or ``None`` when that seat has reported that one in this room
        already (one report each)."""
        with self._session.begin() as s:
            earlier = s.scalar(
                select(ReportRow.id).where(
                    ReportRow.room_code == code,
                    ReportRow.seat == seat,
                    ReportRow.reported_seat == reported,
                )
            )
            if earlier is not None:
                return None
            row = ReportRow(
                room_code=code, seat=seat, reported_seat=reported, reason=reason, at=now, handled=0
            )
            s.add(row)
            s.flush()
            return int(row.id)

    def reports(self, *, handled: bool = False) -> list[Report]:
        """The reports not handled yet, oldest first (``handled``: every report)."""
        with self._session() as s:
            query = select(ReportRow).order_by(ReportRow.at, ReportRow.id)
            if not handled:
                query = query.where(ReportRow.handled == 0)
            rows = s.scalars(query).all()
            names: dict[tuple[str, int], str | None] = {}
            for code in {r.room_code for r in rows}:
                for seat in s.scalars(select(SeatRow).where(SeatRow.room_code == code)):
                    names[(code, seat.seat + 1)] = seat.name
            return [
                Report(
                    r.id,
                    r.room_code,
                    r.at,
                    r.seat,
                    names.get((r.room_code, r.seat)),
                    r.reported_seat,
                    names.get((r.room_code, r.reported_seat)),
                    r.reason,
                    bool(r.handled),
                )
                for r in rows
            ]

    def mark_handled(self, report_id: int) -> bool:
        """Mark a report handled; whether there is such a report."""
        with self._session.begin() as s:
            row = s.get(ReportRow, report_id)
            if row is None:
                return False
            row.handled = 1
            return True
