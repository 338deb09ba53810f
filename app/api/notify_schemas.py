"""What crosses the wire for notifications: channels in, masked channels out, the push subscription."""

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from app.api.schemas import Strict
from app.rooms.channels import MAX_URL_LENGTH, MAX_URLS

MAX_MILLISECONDS = 2**53 - 1  # a JavaScript time: milliseconds since 1970

ChannelUrl = Annotated[str, StringConstraints(min_length=1, max_length=MAX_URL_LENGTH)]
PushKey = Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_=-]+$")]


class PushKeys(Strict):
    p256dh: PushKey
    auth: PushKey


class PushSubscriptionIn(Strict):
    """A browser's PushSubscription (`subscription.toJSON()`), for Web Push to that device."""

    endpoint: Annotated[str, StringConstraints(min_length=9, max_length=MAX_URL_LENGTH, pattern=r"^https://")]
    keys: PushKeys
    expirationTime: Annotated[int, Field(ge=0, le=MAX_MILLISECONDS)] | None = None  # (the browser's spelling)


class NotifyIn(Strict):
    urls: Annotated[list[ChannelUrl], Field(max_length=MAX_URLS)] = Field(
        default_factory=list,
        description=f"(replaces those set; left out: kept) at most {MAX_URLS} Apprise URLs (mailto://, discord://, "
        "slack://, matrix://, tgram://, "
        "ntfy://, json:// ...) or plain e-mail addresses (sent through the server's own SMTP, when it has one)",
    )
    push: PushSubscriptionIn | None = Field(
        None,
        description="a browser's Web Push subscription (only where the server has VAPID keys); null removes it, "
        "left out: kept",
    )
    when: Literal["away", "always"] = Field(
        "away", description="away: only while the seat has no open connection to the room; always: every time"
    )


class NotifyOut(BaseModel):
    urls: list[str] = Field(description="the channels, masked: their scheme and host, the rest as ***")
    push: bool = Field(description="whether a browser's Web Push subscription is set")
    when: Literal["away", "always"]


class PushKeyOut(BaseModel):
    public_key: str | None = Field(description="the server's VAPID public key for Web Push (null: no Web Push)")
