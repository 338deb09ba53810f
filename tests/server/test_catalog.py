"""GET /api/catalog: the engine's description of its components, plus the server's expansions and
limits, with the documented response model."""

from app.api.catalog import catalog_json
from app.api.catalog_schemas import CatalogOut
from app.engine import describe_components, game_kinds
from app.engine.classic.armada.data import armada_data
from tests.server.conftest import app_client, make_settings


async def test_the_catalog_serves_the_engines_components_with_expansions_and_limits(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, max_name_length=17, room_code_length=9)
    async with app_client(settings) as c:
        r = await c.get("/api/catalog")
        assert r.status_code == 200 and r.headers["content-type"] == "application/json"
        body = r.json()
        built = catalog_json.cache_info().misses
        again = [(await c.get("/api/catalog")).content for _ in range(20)]
        schema = (await c.get("/openapi.json")).json()
    assert body.pop("limits") == {"max_name_length": 17, "room_code_length": 9}
    games = body.pop("games")
    assert games == game_kinds() and [g["name"] for g in games] == ["classic", "duel"]
    assert games[0]["players"] == {"min": 3, "max": 7} and games[1]["players"] == {"min": 2, "max": 2}
    assert [e["name"] for e in games[0]["expansions"]] == ["armada"] and games[1]["expansions"] == []
    assert games[0]["expansions"][0]["notices"] == [armada_data().notice]
    assert body.pop("expansions") == {"armada": {"game": "classic", "enabled": True, "notices": [armada_data().notice]}}
    assert body == describe_components()
    assert all(a == r.content for a in again)
    assert catalog_json.cache_info().misses == built  # built once, then served as is
    # the response model describes exactly what is served (its models forbid unknown keys)
    CatalogOut.model_validate(r.json())
    ref = schema["paths"]["/api/catalog"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert ref == {"$ref": "#/components/schemas/CatalogOut"}
    models = schema["components"]["schemas"]
    for name in ("CardInfo", "WonderInfo", "StageInfo", "IslandInfo", "ShipSpaceInfo", "TokenInfo", "CostInfo"):
        assert name in models
    assert set(models["CardInfo"]["properties"]) >= {"name", "cost", "chain_to", "effects", "text"}


async def test_the_catalog_follows_each_servers_settings(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, enabled_expansions=[])) as c:
        body = (await c.get("/api/catalog")).json()
    assert body["expansions"]["armada"]["enabled"] is False
    assert body["limits"]["max_name_length"] == make_settings(sqlite_url).max_name_length
    assert body["armada"]["islands"]  # the box still lists Armada: a client may describe old games


async def test_the_catalog_and_the_client_are_compressed_and_revalidated(sqlite_url: str) -> None:
    """Brotli where the client takes it, gzip otherwise, nothing for a client that asks for
    nothing; an ETag answered 304 with no body; the static files and pages the same way."""
    import brotli

    async with app_client(make_settings(sqlite_url)) as c:
        plain = await c.get("/api/catalog", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and len(plain.content) > 50_000
        assert plain.headers["cache-control"] == "no-cache" and plain.headers["etag"].startswith('"')
        br = await c.get("/api/catalog", headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
        assert br.headers["content-encoding"] == "br" and "Accept-Encoding" in br.headers["vary"]
        assert int(br.headers["content-length"]) < len(plain.content) / 5
        assert br.content == plain.content  # httpx decodes it (brotli is installed)
        gz = await c.get("/api/catalog", headers={"Accept-Encoding": "gzip"})
        assert gz.headers["content-encoding"] == "gzip" and gz.content == plain.content
        assert brotli.decompress(brotli.compress(plain.content)) == plain.content
        etag = plain.headers["etag"]
        again = await c.get("/api/catalog", headers={"If-None-Match": etag, "Accept-Encoding": "br"})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
        changed = await c.get("/api/catalog", headers={"If-None-Match": '"other"'})
        assert changed.status_code == 200
        for path in ("/static/js/room.js", "/static/css/style.css", "/room.html", "/"):
            first = await c.get(path, headers={"Accept-Encoding": "br"})
            assert first.status_code == 200 and first.headers["content-encoding"] == "br", path
            assert first.headers["cache-control"] == "no-cache", path
            second = await c.get(path, headers={"If-None-Match": first.headers["etag"], "Accept-Encoding": "br"})
            assert second.status_code == 304 and second.content == b"", path
