"""Schemathesis hooks for this API (loaded with SCHEMATHESIS_HOOKS=hooks).

The OpenAPI document states every rule that concerns one parameter. A few rules tie parameters
together or depend on the running server, and JSON Schema cannot state them for a query string;
the document's descriptions say them in words. A request that breaks one is a 400 (or 414), so a
*positive* case (one the tool expects to be accepted) that breaks one is dropped here. Negative
cases are never touched: they must still be refused.

  1. exactly one of amountIn and amountOut (GET /route and /route/explain; the POST body schema
     states it);
  2. from and to differ after trimming and upper-casing;
  3. asOf within the event log's reach: not before its oldest state (ST_ASOF_MIN) and not after the
     service clock (ST_ASOF_MAX), both given by the caller for the server under test;
  4. each holding listed once in balances (venue and upper-cased asset);
  5. a query string of at most 4096 characters, and a balances list of at most 4096 characters;
  6. GET /checkpoint/consistency: from not above to (a size above the latest checkpoint's is a
     404, which the tool accepts for a valid request: it depends on the running server).
"""

import os
from urllib.parse import urlencode

import schemathesis

ASOF_MIN = int(os.environ.get("ST_ASOF_MIN", "0"))
ASOF_MAX = int(os.environ.get("ST_ASOF_MAX", "0"))
WS = " \t\n\r"


def _positive(case) -> bool:
    meta = case.meta
    return meta is not None and meta.generation.mode.is_positive


def _holdings(balances):
    """The (venue, ASSET) names of a balances value in any of its forms, or None when unreadable."""
    if isinstance(balances, dict):
        names = list(balances.keys())
    elif isinstance(balances, list):
        names = [str(e).split(":", 1)[0] for e in balances]
    elif isinstance(balances, str):
        text = balances.strip(WS)
        names = [] if text == "" else [e.split(":", 1)[0] for e in text.split(",")]
    else:
        return None
    out = []
    for name in names:
        name = name.strip(WS)
        venue, _, asset = name.partition(".") if "." in name else ("", "", name)
        out.append((venue, asset.upper()))
    return out


def _balances_ok(balances) -> bool:
    if isinstance(balances, list) and len(",".join(str(e) for e in balances)) > 4096:
        return False
    holdings = _holdings(balances)
    return holdings is None or len(holdings) == len(set(holdings))


def _as_of_ok(value) -> bool:
    if value is None:
        return True
    try:
        n = int(value)
    except (TypeError, ValueError):
        return True
    return ASOF_MIN <= n <= ASOF_MAX


def _sizes_ok(query) -> bool:
    try:
        return int(query.get("from")) <= int(query.get("to"))
    except (TypeError, ValueError):
        return True


def _query_length(query) -> int:
    flat = {k: ",".join(map(str, v)) if isinstance(v, list) else v for k, v in (query or {}).items()}
    return len(urlencode(flat))


@schemathesis.hook
def filter_case(ctx, case) -> bool:
    return not _positive(case) or _keeps_the_rules(case)


@schemathesis.hook
def filter_failure(ctx, failure, case, response) -> bool:
    # The Examples phase builds cases without the case hooks, so the same rules apply here, to
    # "valid data rejected" failures only: such a case was never valid in the first place.
    rejected_positive = type(failure).__name__ == "RejectedPositiveData"
    return not (rejected_positive and _positive(case) and not _keeps_the_rules(case))


def _keeps_the_rules(case) -> bool:
    path = case.operation.path
    method = case.operation.method.upper()
    if path == "/checkpoint/consistency":
        return _sizes_ok(case.query or {})
    if path.startswith("/orderbook"):
        return _as_of_ok((case.query or {}).get("asOf")) and _query_length(case.query) <= 4096
    # GET /route/explain takes the GET /route parameters, under the same rules.
    if path not in ("/route", "/route/explain"):
        return True
    params = case.query if method == "GET" else case.body
    if not isinstance(params, dict):
        return True
    if method == "GET":
        if ("amountIn" in params) == ("amountOut" in params):
            return False
        if _query_length(params) > 4096:
            return False
    src, dst = params.get("from"), params.get("to")
    if isinstance(src, str) and isinstance(dst, str) and src.strip(WS).upper() == dst.strip(WS).upper():
        return False
    if "balances" in params and not _balances_ok(params["balances"]):
        return False
    return _as_of_ok(params.get("asOf"))
