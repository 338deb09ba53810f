"""OpenAPI links: from the answer that gives a room's code and your seat (creating a room, joining,
rejoining) to every operation on that room, so a generated client, or a stateful test, can follow
them (`code` and `seat` from the response body)."""

from typing import Any

from fastapi import FastAPI

# the POST operations whose answer (JoinedOut, with this status) names a room and a seat
SOURCES = {"/api/rooms": "201", "/api/rooms/{code}/join": "201", "/api/rooms/{code}/rejoin": "200"}


def add_links(openapi: dict[str, Any]) -> dict[str, Any]:
    """The document with `links` on the answer of each source operation."""
    targets = {}
    for operations in openapi["paths"].values():
        for operation in operations.values():
            names = {p["name"] for p in operation.get("parameters", ()) if p["in"] == "path"}
            if "code" not in names:
                continue
            parameters = {"code": "$response.body#/code"}
            if "seat" in names:
                parameters["seat"] = "$response.body#/seat"
            targets[operation["operationId"]] = {"operationId": operation["operationId"], "parameters": parameters}
    for path, status in SOURCES.items():
        openapi["paths"][path]["post"]["responses"][status]["links"] = targets
    return openapi


def install(app: FastAPI) -> None:
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = add_links(build())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
