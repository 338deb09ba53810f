"""GameConfig: everything needed, with the seed, to set a game up."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

SideChoice = Literal["day", "night", "random"]
PLAYER_RANGE = {"classic": (3, 7), "duel": (2, 2)}
EXPANSIONS = {"classic": {"armada"}, "duel": set()}


class GameConfig(BaseModel):
    """The rules options of one game.

    `players` defaults to 2 for Duel and 3 for classic. `wonder_side` is one side for
    everyone or a list with one side per seat; `wonders` is None (random) or one wonder
    name per seat (classic).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: Literal["classic", "duel"] = "classic"
    players: int | None = None
    seed: int = 0
    wonder_side: SideChoice | list[SideChoice] = "random"
    wonders: list[str] | None = None
    expansions: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> "GameConfig":
        low, high = PLAYER_RANGE[self.game]
        if self.players is None:
            object.__setattr__(self, "players", low)
        assert self.players is not None
        if not low <= self.players <= high:
            raise ValueError(f"{self.game} is played by {low} to {high} players, not {self.players}")
        unknown = set(self.expansions) - EXPANSIONS[self.game]
        if unknown:
            raise ValueError(f"unknown expansion(s) for {self.game}: {sorted(unknown)}")
        if len(set(self.expansions)) != len(self.expansions):
            raise ValueError("an expansion is listed twice")
        if isinstance(self.wonder_side, list) and len(self.wonder_side) != self.players:
            raise ValueError(f"wonder_side lists {len(self.wonder_side)} sides for {self.players} players")
        if self.wonders is not None:
            if self.game != "classic":
                raise ValueError("wonders can only be assigned in the classic game")
            if len(self.wonders) != self.players:
                raise ValueError(f"wonders lists {len(self.wonders)} wonders for {self.players} players")
            if len(set(self.wonders)) != len(self.wonders):
                raise ValueError("a wonder is assigned twice")
        return self

    @property
    def seats(self) -> int:
        assert self.players is not None
        return self.players

    def side_for(self, seat: int) -> SideChoice:
        return self.wonder_side[seat] if isinstance(self.wonder_side, list) else self.wonder_side
