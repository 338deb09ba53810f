"""The phases of a Duel game: what the seat to act must decide now."""

DRAFT = "draft"
PLAY = "play"
CHOOSE_PROGRESS = "choose_progress"
DESTROY = "destroy"
DISCARD_BUILD = "build_from_discard"
BOX_TOKEN = "choose_box_token"
CHOOSE_STARTER = "choose_starter"
OVER = "over"

PHASE_TEXT = {
    DRAFT: "draft a Wonder ('draft_wonder')",
    PLAY: "take an accessible card to 'build', 'discard' or build a 'wonder' with",
    CHOOSE_PROGRESS: "choose a progress token from the board ('choose_progress')",
    DESTROY: "choose a card of the opponent's city to destroy ('destroy')",
    DISCARD_BUILD: "choose a card of the discard pile to build for free ('build_from_discard')",
    BOX_TOKEN: "choose one of the progress tokens drawn from the box ('choose_box_token')",
    CHOOSE_STARTER: "choose which seat starts the next Age ('choose_starter')",
    OVER: "nothing: the game is over",
}

# The action types each phase accepts.
PHASE_ACTIONS = {
    DRAFT: ("draft_wonder",),
    PLAY: ("build", "wonder", "discard"),
    CHOOSE_PROGRESS: ("choose_progress",),
    DESTROY: ("destroy",),
    DISCARD_BUILD: ("build_from_discard",),
    BOX_TOKEN: ("choose_box_token",),
    CHOOSE_STARTER: ("choose_starter",),
    OVER: (),
}
