# The game server. Serves on $PORT (8000); DATABASE_URL defaults to a SQLite file in /data.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/wonders
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY static ./static
RUN pip install '.[server]' \
    && useradd --system --uid 10001 --home-dir /srv/wonders wonders \
    && mkdir -p /data && chown wonders /data

USER wonders
ENV HOST=0.0.0.0 \
    PORT=8000 \
    STATIC_DIR=/srv/wonders/static \
    DATABASE_URL=sqlite:////data/wonders.db
EXPOSE 8000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"]

# Migrations first, then uvicorn (the app checks the schema again at start: a no-op by then).
CMD ["sh", "-c", "python -m app migrate && exec python -m app"]
