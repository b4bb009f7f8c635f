"""Schemathesis over the whole API, counting what it finds instead of stopping at the first failure.

Run: ``python bench/bench_fuzz.py [--examples 15] [--postgres URL]`` (an empty PostgreSQL database, e.g. made
with ``createdb -h 127.0.0.1 -U postgres hotdice_fuzz``; without it, a SQLite file in a temporary directory).

Every operation of ``/api/openapi.json`` gets ``--examples`` cases in each generation mode (fitting the
schema, and not), each sent as generated and again with its path naming a game, challenge or table the
fuzzing device made (``tests/web/test_web_fuzz.py`` does the same and stops at the first failure). Each answer
goes through the response checks: a 5xx, a status the schema does not list, a content type or body that is
not the documented one. Prints the cases, the 5xx answers and the failures of each check.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    FailureGroup,
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from hotdice.web.app import create_app
from hotdice.web.settings import Settings

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=15, help="cases per operation and generation mode")
    parser.add_argument("--postgres", help="an empty PostgreSQL database's URL (default: a SQLite file)")
    args = parser.parse_args()
    app = create_app(Settings(data_dir=Path(tempfile.mkdtemp()), database_url=args.postgres).unlimited())
    cases = 0
    server_errors = 0
    failures: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    with TestClient(app) as client:
        made = {f"game_{mode}": client.post("/api/games", json={"mode": mode}).json()["id"]
                for mode in ("solo", "race")}
        made["code"] = client.post("/api/challenges", json={"preset": "farkle"}).json()["code"]
        made["table"] = client.post("/api/tables", json={}).json()["code"]
        schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)
        for operation in schema.get_all_operations():
            op = operation.ok()
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

                @given(case=op.as_strategy(generation_mode=mode))
                @settings(max_examples=args.examples, deadline=None, database=None, derandomize=True,
                          suppress_health_check=list(HealthCheck))
                def fuzz(case: Any) -> None:
                    nonlocal cases, server_errors
                    for params in [dict(case.path_parameters or {}), *_real_paths(case, made)]:
                        case.path_parameters = params or None
                        answer = case.call(cookies=dict(client.cookies))
                        cases += 1
                        server_errors += answer.status_code >= 500
                        for check in CHECKS:
                            try:
                                case.validate_response(answer, checks=[check])
                            except FailureGroup as failure:  # count and go on
                                failures[check.__name__] += 1
                                examples.setdefault(check.__name__, f"{case.method} {case.formatted_path} "
                                                    f"{answer.status_code}: {failure.exceptions[0].title}")

                with contextlib.suppress(Unsatisfiable):  # nothing to break in an operation without input
                    fuzz()
    app.state.db.close()
    operations = len(list(schema.get_all_operations()))
    print(f"database: {'postgresql' if args.postgres else 'sqlite'}  operations: {operations}")
    print(f"cases: {cases}  5xx: {server_errors}  conformance failures: {sum(failures.values())}")
    for name in [check.__name__ for check in CHECKS]:
        print(f"  {name:30} {failures[name]:5}  {examples.get(name, '')}")


def _real_paths(case: Any, made: dict[str, str]) -> list[dict[str, Any]]:
    params = dict(case.path_parameters or {})
    if "game_id" in params:
        return [{**params, "game_id": made[f"game_{mode}"]} for mode in ("solo", "race")]
    if "code" in params:
        return [{**params, "code": made["table" if "/tables/" in case.path else "code"]}]
    return []


if __name__ == "__main__":
    main()
