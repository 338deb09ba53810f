"""Notification channels: which URLs a seat (or a room's host) may give, how they are shown back, and
how each one is reached.

A channel is any URL of the Apprise library (mailto://, discord://, slack://, matrix://, tgram://,
ntfy://, json:// ...), or a plain e-mail address, sent through the server's own SMTP settings. URLs
are secrets (they hold webhook tokens, passwords): shown back masked (the scheme and host, the rest
as ***), never logged. A URL whose host is a loopback, private, link-local or otherwise non-public
address is refused (when given, and again before each message: a name may resolve elsewhere later)
unless NOTIFY_ALLOW_PRIVATE is set, so the server cannot be made to reach into its own network.
"""

import asyncio
import functools
import hashlib
import ipaddress
import re
import socket
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote, urlsplit

from app.rooms.errors import Invalid
from app.settings import Settings

MAX_URLS = 5
MAX_URL_LENGTH = 2000
# Apprise's services that act on the server's own machine rather than over the network
LOCAL_SCHEMES = frozenset({"dbus", "kde", "qt", "glib", "gnome", "macosx", "windows", "syslog", "kodi", "xbmc"})
# webhooks that take headers in their URL (+Name=value): they get the message's idempotency key
HEADER_SCHEMES = frozenset({"json", "jsons", "xml", "xmls", "form", "forms"})
EMAIL = re.compile(r"^[^@\s:/?#]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$")
RESOLVE_SECONDS = 3.0


@functools.cache
def loaded_apprise() -> Any:
    """The Apprise library with its services loaded (once in the process's life)."""
    import apprise as library

    library.Apprise.instantiate("json://127.0.0.1/")  # any URL: the first one loads every service
    return library


async def apprise() -> Any:
    """The Apprise library, loaded when first needed, in a worker thread: it takes half a second on a
    quiet machine, seconds on a busy one, and on the event loop every game of the instance would wait.
    (Loaded at every start, it slowed the start and made the first requests after it the slowest of
    all; a server whose players set no channels now never loads it.)"""
    return await asyncio.to_thread(loaded_apprise)


def is_email(url: str) -> bool:
    return bool(EMAIL.match(url))


def url_hash(url: str) -> str:
    """How an outbox row remembers a URL it reached (never the URL itself)."""
    return hashlib.sha256(url.encode()).hexdigest()[:16]


def scheme_of(url: str) -> str:
    return "email" if is_email(url) else url.partition("://")[0].lower()


def mask(url: str) -> str:
    """A URL as it is shown back: its scheme and host, the rest as ***."""
    if is_email(url):
        user, _, domain = url.partition("@")
        return f"{user[:1]}***@{domain}"
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}/***" if host else f"{parts.scheme}://***"


async def check_urls(urls: Sequence[str], settings: Settings) -> list[str]:
    """The URLs as they will be kept, or Invalid naming the first one that cannot be."""
    if len(urls) > MAX_URLS:
        raise Invalid(f"urls: at most {MAX_URLS} channels a seat, not {len(urls)}", code="too_many_urls")
    out = []
    for i, raw in enumerate(urls):
        url = raw.strip()
        where = f"urls[{i}]"
        if not url:
            raise Invalid(f"{where}: empty", code="bad_channel", details={"field": where})
        if len(url) > MAX_URL_LENGTH:
            raise Invalid(
                f"{where}: longer than {MAX_URL_LENGTH} characters", code="bad_channel", details={"field": where}
            )
        if is_email(url):
            if not settings.smtp_host:
                raise Invalid(
                    f"{where}: this server sends no e-mail of its own (it has no SMTP_HOST); give a mailto:// URL "
                    "of your own mail account instead",
                    code="bad_channel",
                    details={"field": where},
                )
        else:
            scheme = scheme_of(url)
            if "://" not in url or scheme in LOCAL_SCHEMES or (await apprise()).Apprise.instantiate(url) is None:
                raise Invalid(
                    f"{where}: not a notification URL this server can use ({scheme or 'no'} scheme): give an "
                    "Apprise URL such as mailto://, discord://, slack://, matrix://, tgram://, ntfy:// or json://, "
                    "or an e-mail address",
                    code="bad_channel",
                    details={"field": where},
                )
        if url in out:
            raise Invalid(f"{where}: given twice", code="bad_channel", details={"field": where})
        out.append(url)
    return out


def not_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", maxsplit=1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


async def private_host(url: str) -> str | None:
    """The URL's host, if it is or resolves to an address that is not public (else None). A host
    that does not resolve is no address (many services put an id or a token there)."""
    if is_email(url):
        return None
    host = urlsplit(url).hostname
    if not host:
        return None
    try:
        return host if not_public(host) else None
    except ValueError:
        pass  # a name, not an address
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        return host
    loop = asyncio.get_running_loop()
    try:
        found = await asyncio.wait_for(loop.getaddrinfo(host, None, type=socket.SOCK_STREAM), RESOLVE_SECONDS)
    except (OSError, TimeoutError, UnicodeError):
        return None
    return host if any(not_public(str(info[4][0])) for info in found) else None


async def check_public(urls: Sequence[str], push_endpoint: str | None, settings: Settings) -> None:
    """Invalid when a channel would reach a private address (unless NOTIFY_ALLOW_PRIVATE)."""
    if settings.notify_allow_private:
        return
    named = [(f"urls[{i}]", u) for i, u in enumerate(urls)]
    if push_endpoint:
        named.append(("push.endpoint", push_endpoint))
    for where, url in named:
        host = await private_host(url)
        if host is not None:
            raise Invalid(
                f"{where}: {host} is a loopback or private address; this server does not send there",
                code="private_address",
                details={"field": where},
            )


def apprise_url(url: str, settings: Settings, key: str) -> str:
    """The URL Apprise is given for one message: a plain e-mail address through the server's own
    SMTP, a webhook with the message's idempotency key as a header."""
    if is_email(url):
        secure = {"starttls": "mailtos", "ssl": "mailtos", "none": "mailto"}[settings.smtp_security]
        mode = {"starttls": "starttls", "ssl": "ssl", "none": "insecure"}[settings.smtp_security]
        auth = ""
        if settings.smtp_user:
            auth = f"{quote(settings.smtp_user, safe='')}:{quote(settings.smtp_password, safe='')}@"
        sender = settings.smtp_from or f"wonders@{settings.smtp_host}"
        query = f"from={quote(sender)}&to={quote(url)}&mode={mode}&smtp={quote(settings.smtp_host)}"
        return f"{secure}://{auth}{settings.smtp_host}:{settings.smtp_port}?{query}"
    if scheme_of(url) in HEADER_SCHEMES:
        return f"{url}{'&' if '?' in url else '?'}+X-Idempotency-Key={quote(key, safe='')}"
    return url


def masked_view(urls: Sequence[str], push: dict[str, Any] | None, when: str) -> dict[str, Any]:
    return {"urls": [mask(u) for u in urls], "push": push is not None, "when": when}
