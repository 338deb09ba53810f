"""`python -m app`: migrate the database and serve on HOST:PORT (settings from the environment).

`python -m app migrate` only brings the database schema up to date.
"""

import gc

# No collection while the app is imported and started: the import makes some 120,000 objects that
# live as long as the process, and the collector's walks over them were a tenth of the import.
# Services.start freezes what is there as it is (the import leaves under a thousand objects of cyclic
# garbage: collecting them took 75 ms of the start) and turns the collector on. (Not when imported.)
if __name__ == "__main__":
    gc.disable()

import logging
import sys

import uvicorn
from pydantic import ValidationError

from app.api.serving import uvicorn_options
from app.logs import uvicorn_log_config
from app.settings import get_settings


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        settings = get_settings()
    except ValidationError as exc:
        for line in settings_errors(exc):
            print(line, file=sys.stderr)
        return 2
    if args == ["migrate"]:
        from app.db.migrate import upgrade_sync

        upgrade_sync(settings.database_url)
        return 0
    if args:
        print("usage: python -m app [migrate]", file=sys.stderr)
        return 2
    logging.captureWarnings(True)  # a warning while the app loads is a log line in LOG_FORMAT too
    uvicorn.run(
        "app.main:app",
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=uvicorn_log_config(settings.log_format, settings.log_level),
        proxy_headers=True,
        **uvicorn_options(settings),
    )
    return 0


def settings_errors(exc: ValidationError) -> list[str]:
    """One line a setting the environment got wrong, named as the environment names it."""
    lines = []
    for error in exc.errors():
        name = "_".join(str(part) for part in error["loc"]).upper() or "settings"
        lines.append(f"error: the setting {name}={error.get('input')!r} is refused: {error['msg']}")
    return lines


if __name__ == "__main__":
    sys.exit(main())
