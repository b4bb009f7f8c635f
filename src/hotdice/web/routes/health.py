"""``GET /healthz`` for load balancers and orchestrators: 200 when this process can reach its database and
the schema is at the migration head the code expects, 503 with the reason otherwise."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError

from hotdice.store.migrate import current, head
from hotdice.web.deps import DatabaseDep
from hotdice.web.logs import ERRORS

router = APIRouter()


@router.get("/healthz", include_in_schema=False)
def health(db: DatabaseDep) -> JSONResponse:
    engine = db.store.engine
    body: dict[str, str | None] = {"database": engine.dialect.name, "head": head()}
    try:
        with engine.connect() as connection:
            body["revision"] = current(connection)
    except SQLAlchemyError as exc:
        ERRORS.warning("health check: the database cannot be reached", exc_info=True)
        return JSONResponse(body | {"status": "unavailable", "reason": type(exc).__name__}, status_code=503)
    if body["revision"] != body["head"]:
        return JSONResponse(body | {"status": "outdated", "reason": "the schema is not at the head"}, status_code=503)
    return JSONResponse(body | {"status": "ok"})
