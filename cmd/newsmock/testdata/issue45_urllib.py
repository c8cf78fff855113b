"""Issue 45's server features as a Python test author meets them, with urllib alone.

Run by TestIssue45FromPython against a newsmock started with -world-per-key, -strict and
-fault 'endpoint=query;body.query=storm;status=503;optional'. Usage: python3 issue45_urllib.py URL
"""
import json
import sys
import urllib.error
import urllib.request

URL = sys.argv[1]


def call(method, path, body=None, key=None, agent=None, text=False):
    headers = {"Content-Type": "text/plain" if text else "application/json"}
    if text:
        headers["X-Newsmock-Control"] = "1"
    if key:
        headers["X-Newsmock-Key"] = key
    if agent:
        headers["User-Agent"] = agent
    data = None if body is None else (body if text else json.dumps(body)).encode()
    req = urllib.request.Request(URL + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def check(cond, what, got):
    if not cond:
        sys.exit(f"FAIL: {what}: {got}")
    print("ok:", what)


def query(key, **body):
    return call("POST", "/api/v2/query", dict(api_key=key, **body))[0]


# Item 3: fault rules that match the request body, from -fault and from POST /_mock/faults.
check(query("k-faults", query="storm") == 503, "-fault with body.query=storm fails a storm query", "")
check(query("k-faults", query="election") == 200, "and not an election query", "")
status, answer = call("POST", "/_mock/faults", {"endpoint": "query", "body": {"page": 2}, "fault": {"status": 500}}, key="k-faults")
check(status == 200 and answer["rules"][1]["body"] == {"page": "2"}, "a JSON rule with a body is listed with it", answer)
check([query("k-faults", query="election", page=p) for p in (1, 2, "2")] == [200, 500, 500], "it fails page 2 only", "")
status, answer = call("PUT", "/_mock/faults", "endpoint=headlines;body.api_key=[redacted];times=1;status=502", key="k-faults", text=True)
check(status == 200 and answer["rules"][0]["text"] == "endpoint=headlines;body.api_key=[redacted];times=1;status=502",
      "a text rule with body. items round-trips", answer)
check(call("POST", "/api/v2/headlines", {"api_key": "k-faults"})[0] == 502, "api_key matches as [redacted], as in the journal", "")

# Item 5: a clock per world, switched at run time; the 409 names Python's way.
status, answer = call("POST", "/_mock/clock", {"advance": "2h"}, key="k-other", agent="newsmock-python/0.1.0")
check(status == 409 and "mock.use_manual_clock() (Python)" in answer["message"] and "useManualClock" not in answer["message"],
      "the 409 names mock.use_manual_clock() to the Python helper", answer)
status, answer = call("POST", "/_mock/clock", {"advance": "2h"}, key="k-other")
check(status == 409 and all(w in answer["message"] for w in ("use_manual_clock()", "useManualClock()", "SetSettings", "curl -X PATCH")),
      "and every way to an unknown client", answer)
status, answer = call("PATCH", "/_mock/settings", {"clock": "manual=2026-01-15T12:00:00Z"}, key="k-clock")
check(status == 200 and answer["settings"]["clock"] == "manual", "PATCH clock manual=<time> switches the world", answer)
status, answer = call("POST", "/_mock/clock", {"advance": "2h"}, key="k-clock")
check(status == 200 and answer["now"] == "2026-01-15T14:00:00Z", "POST /_mock/clock moves it", answer)
status, answer = call("GET", "/_mock/clock", key="k-other")
check(status == 200 and answer["manual"] is False, "another world keeps its real clock", answer)
call("POST", "/_mock/reset", key="k-clock")
check(call("GET", "/_mock/settings", key="k-clock")[1]["settings"]["clock"] == "real", "reset returns to the server's clock", "")

# Item 4: strictness is asked for (this mock was started with -strict, which every world starts with).
check(call("GET", "/_mock/settings", key="k-strict")[1]["settings"]["strict"] is True, "-strict: a new world is strict", "")
call("POST", "/_mock/expectations", {"endpoint": "query", "body": {"query": "election"}}, key="k-strict")
query("k-strict", query="election")
call("POST", "/api/v2/headlines", {"api_key": "k-strict"})
verdict = call("GET", "/_mock/verify", key="k-strict")[1]
check(verdict["met"] is False and verdict["strict"] is True and verdict["unexpected_count"] == 1, "strict: the headlines request fails verify", verdict)
call("PATCH", "/_mock/settings", {"strict": False}, key="k-strict")
verdict = call("GET", "/_mock/verify", key="k-strict")[1]
check(verdict["met"] is True and verdict["unexpected"][0]["path"] == "/api/v2/headlines", "not strict: met, the request still listed", verdict)
call("PATCH", "/_mock/settings", {"strict": True}, key="k-strict")
call("POST", "/_mock/expectations", {"endpoint": "headlines", "min": 0}, key="k-strict")
call("POST", "/api/v2/headlines", {"api_key": "k-strict"})
verdict = call("GET", "/_mock/verify", key="k-strict")[1]
check(verdict["unexpected_count"] == 1 and verdict["met"] is False, "a catch-all counts from when it is declared", verdict)
call("DELETE", "/_mock/expectations", key="k-strict")
call("POST", "/_mock/expectations", [{"endpoint": "query", "min": 0}, {"endpoint": "headlines", "min": 0}], key="k-strict")
query("k-strict", query="anything")
call("POST", "/api/v2/headlines", {"api_key": "k-strict"})
verdict = call("GET", "/_mock/verify", key="k-strict")[1]
check(verdict["met"] is True and verdict["unexpected_count"] == 0, "strict, with catch-alls: met", verdict)
print("PASS")
