"""GameConfig: everything needed, with the seed, to set a game up."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.engine.common.kinds import game_kind, registered

SideChoice = Literal["day", "night", "random"]


class GameConfig(BaseModel):
    """The rules options of one game.

    `players` defaults to 2 for Duel and 3 for classic. `wonder_side` is one side for
    everyone or a list with one side per seat; `wonders` is None (random) or one wonder
    name per seat (classic).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str = Field("classic", description="a registered game kind (app.engine.game_kinds()): classic or duel")
    players: int | None = None
    seed: int = 0
    wonder_side: SideChoice | list[SideChoice] = "random"
    wonders: list[str] | None = None
    expansions: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> "GameConfig":
        kind = game_kind(self.game)
        low, high = kind.players
        if self.players is None:
            object.__setattr__(self, "players", low)
        assert self.players is not None
        if not low <= self.players <= high:
            raise ValueError(f"{self.game} is played by {low} to {high} players, not {self.players}")
        unknown = set(self.expansions) - set(kind.expansions)
        if unknown:
            raise ValueError(f"unknown expansion(s) for {self.game}: {sorted(unknown)}")
        if len(set(self.expansions)) != len(self.expansions):
            raise ValueError("an expansion is listed twice")
        if isinstance(self.wonder_side, list) and len(self.wonder_side) != self.players:
            raise ValueError(f"wonder_side lists {len(self.wonder_side)} sides for {self.players} players")
        if self.wonders is not None:
            if not kind.assigns_wonders:
                where = " or ".join(f"the {k.name} game" for k in registered() if k.assigns_wonders)
                raise ValueError(f"wonders can only be assigned in {where}")
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
