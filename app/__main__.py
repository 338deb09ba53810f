"""`python -m app`: migrate the database and serve on HOST:PORT (settings from the environment)."""

import uvicorn

from app.settings import get_settings


def main() -> None:
    settings = get_settings()
    uvicorn.run(
        "app.main:app",
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        ws_max_size=settings.ws_hard_max_bytes,
        proxy_headers=True,
    )


if __name__ == "__main__":
    main()
