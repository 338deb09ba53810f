"""Server settings, read from the environment (and a `.env` file when present).

Every field is an environment variable of the same name in capitals, e.g. `DATABASE_URL`,
`HOST`, `PORT`, `REDIS_URL`, `MAX_ROOMS`.
"""

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.engine import game_kinds


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = Field(
        "sqlite:///./wonders.db",
        description="sqlite:///path or postgresql://user@host/db; the async driver is chosen by the app",
    )
    host: str = "127.0.0.1"
    port: int = 8000
    redis_url: str | None = Field(None, description="redis://host:port/0: carries room events between app instances")
    redis_prefix: str = Field(
        "wonders:",
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_.:-]+$",
        description="the start of every Redis key and pub/sub channel of this deployment: two deployments sharing "
        "one Redis need different ones (pub/sub channels are shared by all of a Redis's databases, so a database "
        "number alone does not keep them apart)",
    )
    log_level: str = "info"
    log_format: Literal["plain", "json"] = Field(
        "plain", description="plain text lines, or json: one JSON object a line (uvicorn's access log too)"
    )

    # rooms
    max_rooms: int = Field(2000, description="rooms open or playing at once, across the whole server")
    rooms_per_address: int = Field(
        30,
        ge=0,
        description="rooms one client address may create in an hour, one count for every instance with REDIS_URL "
        "(0: no limit)",
    )
    max_spectators: int = Field(50, description="spectator connections per room")
    max_connections_per_seat: int = Field(4, description="websocket connections one seat may hold at once")
    ws_connections_per_address: int = Field(
        100,
        ge=0,
        description="websocket connections one client address may hold open at once on this instance, "
        "from the handshake on (0: no limit)",
    )
    max_name_length: int = Field(24, ge=1, le=64, description="characters in a seat's name (the database holds 64)")
    room_code_length: int = Field(7, ge=6)
    allow_seed: bool = Field(False, description="let room creators fix the game seed (tests, bot research)")
    enabled_expansions: list[str] = Field(
        default_factory=lambda: [e["name"] for kind in game_kinds() for e in kind["expansions"]],
        description='expansions rooms may choose (JSON): every registered one by default (["armada"]), [] none',
    )
    bot_delay_ms: int = Field(0, description="pause before a server-side bot acts, so humans can follow")
    bot_hard_budget_ms: int = Field(
        1000, ge=1, le=60_000, description="the hard bot level's thinking time per decision (milliseconds)"
    )
    hint_budget_ms: int = Field(
        1000, ge=1, le=30_000, description="the search bot's thinking time for one hint (milliseconds)"
    )
    hints_at_once: int = Field(
        2, ge=1, le=64, description="hints this instance computes at once (each in a thread); more wait their turn"
    )
    review_budget_ms: int = Field(
        300, ge=1, le=10_000, description="the search bot's thinking time per decision of a game review (milliseconds)"
    )
    review_workers: int = Field(
        1, ge=0, le=64, description="worker processes computing game reviews on this instance (0: none here)"
    )
    review_queue: int = Field(
        16, ge=1, le=10_000, description="reviews waiting for a worker on this instance; more are refused (503)"
    )
    review_lease_seconds: float = Field(
        600.0,
        gt=0,
        description="a pending review is this instance's for this long, renewed while it waits or runs; after "
        "that (its instance stopped) another instance computes it",
    )
    away_grace_seconds: float = Field(
        60.0, ge=0, description="a person's seat with no connection for this long is shown as away"
    )
    room_idle_hours: float = Field(
        24.0,
        ge=0,
        description="close a room with no connection, no action and no change for this long (its running game "
        "ends as abandoned); 0 never closes",
    )
    room_sweep_seconds: float = Field(600.0, ge=0, description="seconds between sweeps for unused rooms (0: none)")
    static_dir: Path = Field(
        Path(__file__).resolve().parent.parent / "static",
        description="the browser client's files, served at / and /static (not served if missing)",
    )

    chat_messages: int = Field(
        5, ge=0, description="messages one seat may say in its room's chat within CHAT_WINDOW_SECONDS (0: no limit)"
    )
    chat_window_seconds: float = Field(10.0, gt=0, description="the window of CHAT_MESSAGES")
    # what clients send (REST and websockets)
    max_body_bytes: int = Field(64 * 1024, ge=1024, description="larger REST request bodies are refused (413)")
    max_json_depth: int = Field(
        32, ge=4, le=200, description="JSON nested deeper (objects and lists) is refused, REST and websocket"
    )
    cors_origins: list[str] = Field(
        default_factory=list,
        description='origins whose pages may call the REST API from a browser (JSON, e.g. ["https://a.example"]); '
        "none by default",
    )

    # HTTP connections
    http_keep_alive_seconds: int = Field(
        75,
        ge=1,
        description="seconds an idle HTTP connection stays open for the client's next request: longer than "
        "the pools of clients and proxies keep one (httpx 5, nginx 60), so that the client, not the server, "
        "closes it; a server closing first races the client's next request, which gets a reset connection",
    )
    http_request_timeout_seconds: float = Field(
        10.0,
        gt=0,
        description="seconds a connection has to send a whole request, head and body (after connecting, or "
        "after the keep-alive wait): a connection that sends nothing, or trickles its request, is closed",
    )
    long_poll_max_seconds: float = Field(
        30.0,
        ge=0,
        description="the longest a GET of a game's state waits for its next step (its `wait`, at most 30, is cut "
        "to this)",
    )
    http_connections_per_address: int = Field(
        100,
        ge=0,
        description="HTTP connections (before any websocket upgrade) one client address may hold open at once on "
        "this instance, idle keep-alive ones included; its requests on a further one are answered 429 "
        "`too_many_connections` and that connection closed. Addresses in FORWARDED_ALLOW_IPS (a proxy's) are "
        "not counted (0: no limit)",
    )
    forwarded_allow_ips: str = Field(
        "127.0.0.1,::1",
        description="addresses (and networks) of proxies trusted for X-Forwarded-For, as uvicorn reads them, "
        "comma-separated, or *",
    )
    # websockets
    ws_max_message_bytes: int = 64 * 1024
    ws_hard_max_bytes: int = Field(1024 * 1024, description="larger frames close the connection (1009)")
    ws_rate_per_second: float = Field(30.0, description="messages a connection may send per second (sustained)")
    ws_rate_burst: int = Field(60, description="messages a connection may send in a burst")
    ws_auth_timeout: float = Field(10.0, description="seconds to send 'hello' after connecting")
    ws_coalesce_ms: float = Field(
        5.0, description="wait this long after a change before sending, so a burst of changes sends one state"
    )
    ws_quiet_state_ms: float = Field(
        250.0,
        description="a state that changes nothing its seat may do, only telling of secret picks (already told by "
        "`chosen`), waits up to this long for the rest of the turn",
    )
    ws_compression: bool = Field(False, description="permessage-deflate: less traffic, more CPU per message")

    # database
    db_pool_size: int = 10
    db_echo: bool = False

    # memory
    game_idle_seconds: float = Field(
        600.0,
        ge=0,
        description="a running game nobody watches, in which nothing moved and nothing is due for this long, is "
        "unloaded (its state kept in the database) and loaded again when needed; 0 keeps every loaded game",
    )
    snapshot_every: int = Field(
        100,
        ge=0,
        description="a running game's state is kept in the database every this many steps (and when it is "
        "unloaded), so loading it replays only the steps after; 0: only when unloaded",
    )
    wake_poll_seconds: float = Field(
        1.0,
        ge=0,
        description="how often this instance looks for games whose deadline (or a bot's move) has come, "
        "in the database; 0: never (another instance does)",
    )
    gc_young_seconds: float = Field(
        0.5,
        ge=0,
        description="the garbage collector's young generation is collected this often (the others every "
        "hour), for short pauses (app/gc_schedule.py); 0: CPython's own schedule",
    )
    finished_games_cached: int = 64
    events_kept: int = Field(512, description="recent game steps whose events a slow connection may still receive")

    # notifications (app/rooms/outbox.py)
    public_url: str = Field(
        "",
        description="the server's address as people reach it (https://wonders.example.org), for the links in "
        "notifications; empty: http://HOST:PORT",
    )
    notify_poll_seconds: float = Field(
        1.0, ge=0, description="how often this instance sends the notifications that are due; 0: never (another does)"
    )
    notify_per_hour: int = Field(
        20, ge=1, description="messages one seat's channels get in an hour; beyond that they are merged into one"
    )
    notify_room_per_hour: int = Field(
        20, ge=1, description="messages a room's group channel gets in an hour; beyond that they are merged"
    )
    notify_max_attempts: int = Field(8, ge=1, description="tries of a notification before it is given up")
    notify_allow_private: bool = Field(
        False,
        description="let channels reach loopback and private addresses (tests, a home network); by default they "
        "are refused, so the server cannot be used to reach a private network",
    )
    smtp_host: str = Field("", description="the server's own mail server, for seats that give a plain e-mail address")
    smtp_port: int = 587
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_from: str = Field("", description="the sender of the server's own mails (e.g. wonders@example.org)")
    smtp_security: Literal["starttls", "ssl", "none"] = Field("starttls", description="how to talk to SMTP_HOST")
    vapid_public_key: str = Field("", description="Web Push: the VAPID public key (base64url), given to browsers")
    vapid_private_key: str = Field("", description="Web Push: the VAPID private key (base64url or PEM)")
    vapid_subject: str = Field("", description="Web Push: a contact for push services, mailto:you@example.org")

    instance_id: str = Field(
        default_factory=lambda: secrets.token_hex(4),
        pattern=r"^[A-Za-z0-9_.-]{1,64}$",
        description="this instance's name among those sharing a Redis (letters, digits, _ . -); random by default",
    )


@lru_cache
def get_settings() -> Settings:
    return Settings()
