"""Every error answers `{"error": {"code", "message", "details"?}}` with a fitting 4xx status."""

import json
import logging
import sys
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from app.api.actions import clean_error, is_action_shape
from app.api.schemas import ErrorOut
from app.api.security import with_policy
from app.rooms.errors import STORAGE_ERRORS, RoomError, outage_of

log = logging.getLogger("wonders.api")

HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid",
    429: "too_many",
}

# OpenAPI: the error shape every route of the API's routers may answer with (their `responses`). It
# names ErrorOut's schema, which `install` adds to the document, rather than the model: for a model
# FastAPI builds a validator for each route and status at import (some 400 of them, a tenth of the
# server's start), only to write the document with them.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
    }
    for status, description in {
        400: "Malformed request",
        401: "Missing or wrong seat token",
        403: "Not allowed for this seat",
        404: "Unknown room, seat or game",
        409: "Conflicts with the room or game state (full, started, stale, duplicate, not your turn...)",
        413: "Request body over MAX_BODY_BYTES",
        422: "Invalid body, settings or action",
        429: "Too many rooms (per server, or created from your address in the last hour)",
        503: "The database is unavailable; try again",
    }.items()
}


def with_error_schemas(openapi: dict[str, Any]) -> dict[str, Any]:
    """The document with ErrorOut's schema (and ErrorDetail's) among its components."""
    schema = ErrorOut.model_json_schema(ref_template="#/components/schemas/{model}")
    components = openapi.setdefault("components", {}).setdefault("schemas", {})
    components.update(schema.pop("$defs", {}))
    components["ErrorOut"] = schema
    return openapi


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    return {"error": error}


# A value out of the schema's range for these fields gets the code the rooms layer gives the same
# mistake within it (a seat the room does not have, a player count its game does not allow).
FIELD_CODES = {"seat": "bad_seat", "players": "bad_settings"}
RANGE_ERRORS = frozenset({"greater_than_equal", "less_than_equal", "greater_than", "less_than"})


def describe_validation(errors: list[dict[str, Any]], default: str = "invalid_request") -> tuple[str, str]:
    """(code, message) for Pydantic errors: says which field and what was wrong. An action whose shape
    is no action's is an `illegal_action`, as the engine would say."""
    invalid = next((e for e in errors if e.get("type") == "json_invalid"), None)
    if invalid is not None:
        at = [p for p in invalid.get("loc", ()) if p != "body"]
        where = f" at character {at[0]}" if at else ""
        return "bad_json", f"the body is not valid JSON: {invalid.get('msg', 'invalid')}{where}"
    parts = []
    for e in errors[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else e.get("msg", "invalid"))
    return _code_of(errors, default), "; ".join(parts)


def _code_of(errors: list[dict[str, Any]], default: str) -> str:
    if all(is_action_shape(e) for e in errors):
        return "illegal_action"
    fields = {e["loc"][-1] if e["loc"] and e["type"] in RANGE_ERRORS else None for e in errors}
    if len(fields) == 1 and (field := fields.pop()) in FIELD_CODES:
        return FIELD_CODES[field]
    return default


def clean_errors(errors: list[Any]) -> list[dict[str, Any]]:
    """Pydantic's errors as clients get them: `loc`, `msg`, `type` (never the input: it may hold a token)."""
    return [clean_error(e) for e in errors]


RETRY_AFTER_SECONDS = "2"  # what a 503 (the database down, a game too busy) asks the client to wait


def room_error_response(exc: RoomError) -> JSONResponse:
    response = JSONResponse(error_body(exc.code, exc.message, exc.details), status_code=exc.status)
    if exc.status == 503:
        response.headers["Retry-After"] = RETRY_AFTER_SECONDS
    return response


def not_json_reason(exc: ValueError) -> str:
    """What was wrong with a text the JSON parser refused, in a client's words."""
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at character {exc.pos}"
    if "digits" in str(exc):  # Python reads at most 4300 digits of an integer (sys.get_int_max_str_digits)
        return f"a number has more than {sys.get_int_max_str_digits()} digits"
    return str(exc)


def refuse_constant(name: str) -> Any:
    """json.loads' parse_constant: NaN and Infinity are no JSON (RFC 8259), though Python reads them."""
    raise ValueError(f"{name} is not a JSON value")


def install(app: FastAPI) -> None:
    build = app.openapi
    app.openapi = lambda: with_error_schemas(build())  # type: ignore[method-assign]

    @app.exception_handler(RoomError)
    async def room_error(_request: Request, exc: RoomError) -> JSONResponse:
        return room_error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = clean_errors(list(exc.errors()))
        code, message = describe_validation(errors)
        status = 400 if code == "bad_json" else 422
        return JSONResponse(error_body(code, message, errors), status_code=status)

    async def failure(_request: Request, exc: Exception) -> JSONResponse:
        outage = outage_of(exc)
        if outage is not None:  # the database is down: nothing was changed, the client may try again
            log.warning("database unavailable: %r", exc)
            response = room_error_response(outage)
        else:
            log.error("unhandled error: %r", exc, exc_info=exc)
            response = JSONResponse(error_body("internal", "the server failed to answer; try again"), status_code=500)
        with_policy(response.headers)
        return response

    # the database's errors by class: answered as any error is (Exception's handler answers, then
    # lets the error go on up to the server, which drops the connection)
    for error_class in STORAGE_ERRORS:
        app.add_exception_handler(error_class, failure)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, failure)  # type: ignore[arg-type]

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 400 and isinstance(exc.__cause__, ValueError):  # FastAPI could not parse the body
            code, message = "bad_json", f"the body is not valid JSON: {not_json_reason(exc.__cause__)}"
        return JSONResponse(error_body(code, message), status_code=exc.status_code, headers=exc.headers)
