"""The newsmock wheel, installed: start(), the control helpers and the pytest fixtures (tools/dist/check)."""
import datetime
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

import newsmock
import newsmock as newsmock_pkg  # the fixture named newsmock hides the module

ARTICLE = {"_id": "0000000000000000000000a1", "title": "Harbour reopens after the storm",
           "url": "https://a.example/1", "site": "a.example", "datePublished": "2026-01-10T08:00:00Z"}


def api(url, endpoint, body):
    """POSTs body to /api/v2/<endpoint>: (status, answer)."""
    req = urllib.request.Request(url + "/api/v2/" + endpoint, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def test_the_wheel_brings_the_binary():
    binary = newsmock.find_binary()
    assert os.path.realpath(binary).startswith(os.path.realpath(sys.prefix)), binary
    assert newsmock.__version__ != "devel"


def test_start_and_stop():
    with newsmock.start(args=["-log-level", "warn"]) as server:
        assert server.url.startswith("http://127.0.0.1:")
        assert server.health()["state"] == "SUCCESS"
        status, _ = api(server.url, "headlines", {"api_key": "k"})
        assert status == 200
        assert server.stop() == 0
    assert server.process.returncode == 0


def test_start_reports_a_bad_flag():
    with pytest.raises(newsmock.NewsmockError, match="exited with code 2"):
        newsmock.start(args=["-no-such-flag"])


def test_a_fault_fires_once(newsmock):
    newsmock.add_fault("endpoint=query;times=1;status=503")
    assert api(newsmock.url, "query", {"api_key": newsmock.api_key, "query": "storm"})[0] == 503
    assert api(newsmock.url, "query", {"api_key": newsmock.api_key, "query": "storm"})[0] == 200
    assert newsmock.journal_count(status=503) == 1
    assert newsmock.faults()[0]["fired"] == 1


# These two run in this order in one process: the first one's fault must not reach the second.
def test_isolation_first_sets_a_fault(newsmock):
    newsmock.set_faults([{"endpoint": "query", "fault": {"status": 500}}])
    assert api(newsmock.url, "query", {"api_key": newsmock.api_key, "query": "storm"})[0] == 500


def test_isolation_second_sees_no_fault(newsmock, newsmock_server):
    assert newsmock.faults() == []
    assert api(newsmock.url, "query", {"api_key": newsmock.api_key, "query": "storm"})[0] == 200
    assert newsmock_server.default_world().faults() == []  # nor did it reach the default world


@pytest.mark.parametrize("n", range(12))
def test_many_worlds_in_parallel(newsmock, n):
    """Under -n 4 these share each worker's server; each test's status must be the only one it sees."""
    status = 500 + n
    newsmock.add_fault("endpoint=headlines;status=%d" % status)
    for _ in range(3):
        assert api(newsmock.url, "headlines", {"api_key": newsmock.api_key})[0] == status
    assert [e["status"] for e in newsmock.journal()] == [status] * 3


def test_clock_of_a_world(newsmock, newsmock_server):
    assert newsmock.clock()["now"] == "2026-01-15T12:00:00Z"
    assert newsmock.advance_clock("2h")["now"] == "2026-01-15T14:00:00Z"
    assert newsmock_server.default_world().clock()["now"] == "2026-01-15T12:00:00Z"


def test_articles_of_a_world(newsmock):
    assert newsmock.replace_articles([ARTICLE])["articles"] == 1
    status, answer = api(newsmock.url, "query", {"api_key": newsmock.api_key, "query": "harbour"})
    assert status == 200 and answer["results"]["totalResults"] == 1
    assert newsmock.reset_articles()["added_articles"] == 0


def test_jobs_of_a_world(newsmock):
    status, answer = api(newsmock.url, "query-async", {"api_key": newsmock.api_key, "query": "storm"})
    assert status == 200
    qid = answer["query_id"]
    assert [j["query_id"] for j in newsmock.jobs()] == [qid]
    assert newsmock.force_job(qid, "FAILED", "upstream timeout")["state"] == "FAILED"
    status, answer = api(newsmock.url, "get-results", {"api_key": newsmock.api_key, "query_id": qid})
    assert (status, answer["state"], answer["message"]) == (200, "FAILED", "upstream timeout")
    newsmock.reset()
    assert newsmock.jobs() == []


def test_session_fixture_helpers_refuse(newsmock_server):
    """Its default world is reached by no request with an api_key (-world-per-key): its helpers refuse."""
    for call in (lambda: newsmock_server.add_fault("status=503"), newsmock_server.journal_count,
                 newsmock_server.reset, lambda: newsmock_server.advance_clock("1h")):
        with pytest.raises(newsmock.NewsmockError, match=r"-world-per-key, which no request with an api_key "
                           r"reaches, so it would never be seen: use the newsmock fixture"):
            call()
    world = newsmock_server.world("own-key")
    world.add_fault("endpoint=headlines;status=502")
    assert api(newsmock_server.url, "headlines", {"api_key": "own-key"})[0] == 502
    assert world.journal_count(status=502) == 1
    assert newsmock_server.default_world().faults() == []
    assert len(newsmock_server.worlds()) >= 2
    world.drop_world()
    with pytest.raises(newsmock.NewsmockError, match="non-empty string"):
        newsmock_server.world(None)


def test_start_without_worlds_keeps_its_helpers():
    with newsmock.start(args=["-log-level", "warn"]) as server:
        assert server.add_fault("endpoint=headlines;status=502")[0]["fired"] == 0
        assert api(server.url, "headlines", {"api_key": "k"})[0] == 502


def test_start_adds_env_and_asks_to_exit_with_its_parent(tmp_path):
    """A stand-in for newsmock records its arguments and environment, and exits when its input ends."""
    fake = tmp_path / "newsmock"
    fake.write_text('#!/bin/sh\necho "$@" > "%s/args"\nenv > "%s/env"\n'
                    'echo "newsmock listening on http://127.0.0.1:9"\nexec cat > /dev/null\n' % (tmp_path, tmp_path))
    fake.chmod(0o755)
    server = newsmock.start(binary=str(fake), env={"NEWSMOCK_TEST_EXTRA": "yes"})
    env = (tmp_path / "env").read_text().splitlines()
    for want in ("HOME=" + os.environ["HOME"], "PATH=" + os.environ["PATH"], "NEWSMOCK_TEST_EXTRA=yes"):
        assert want in env
    assert (tmp_path / "args").read_text() == "-addr 127.0.0.1:0 -exit-with-parent\n"
    assert server.stop() == -15  # SIGTERM ended cat


def test_start_reports_a_missing_binary():
    with pytest.raises(newsmock.NewsmockError, match="could not start /nonexistent/newsmock: .*No such file"):
        newsmock.start(binary="/nonexistent/newsmock")


def test_stop_ends_an_injected_latency():
    """The request in a 5-minute latency is answered at the stop, well within -drain-timeout (10 s)."""
    server = newsmock.start(args=["-log-level", "warn"])
    server.set_faults([{"endpoint": "query", "fault": {"latency": "5m"}}])
    answer = []
    thread = threading.Thread(target=lambda: answer.append(api(server.url, "query", {"api_key": "k", "query": "x"})))
    thread.start()
    deadline = time.monotonic() + 30
    while server.faults()[0]["fired"] == 0:  # each call is a request: no sleep needed
        assert time.monotonic() < deadline, "the request never reached its fault within 30 s"
    assert server.stop() == 0, server.log
    thread.join(30)
    assert answer and answer[0][0] == 200, answer


NESTED = '''
import json, urllib.request
import pytest

def query(newsmock, text):
    body = json.dumps({"api_key": newsmock.api_key, "query": text}).encode()
    req = urllib.request.Request(newsmock.url + "/api/v2/query", data=body, headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req).read()

def test_met(newsmock):
    newsmock.expect("query", body={"query": "election"}, times=1)
    query(newsmock, "election")

def test_unmet(newsmock):
    newsmock.expect("query", body={"query": "election"}, times=1)
    query(newsmock, "elections")

def test_fault_never_fired(newsmock):
    newsmock.add_fault("endpoint=query;times=1;status=503")

def test_optional_fault(newsmock):
    newsmock.add_fault("endpoint=query;times=1;status=503;optional")

@pytest.mark.newsmock_no_verify
def test_opted_out(newsmock):
    newsmock.expect("headlines")
'''


def test_fixture_fails_a_test_whose_expectations_are_unmet(pytester):
    """A nested pytest: the met, optional and opted-out tests pass; the others error at teardown with newsmock's
    message, saying what was expected and what came closest."""
    pytester.makepyfile(test_nested=NESTED)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist")
    result.assert_outcomes(passed=5, errors=2)
    out = result.stdout.str()
    assert "ERROR at teardown of test_unmet" in out and "ERROR at teardown of test_fault_never_fired" in out, out
    result.stdout.fnmatch_lines([
        "*mockserver: the requests were not as expected:",
        '*- expected query with {"query":"election"} exactly once, got 0; closest:',
        '*#1 /api/v2/query {"api_key": "[[]redacted[]]", "query": "elections"}',
        '*- unexpected request #1 /api/v2/query {"api_key": "[[]redacted[]]", "query": "elections"}',
        "*mark the test @pytest.mark.newsmock_no_verify to skip the check*",
    ])
    result.stdout.fnmatch_lines([
        '*- fault rule 0 "endpoint=query;times=1;status=503" never fired (it matched 0 requests); mark it optional*'])
    for name in ("test_met", "test_optional_fault", "test_opted_out"):
        assert "teardown of " + name not in out, out


def test_expectations_and_verify(newsmock):
    assert newsmock.verify()["met"] is True
    listed = newsmock.expect("query", body={"query": "storm", "page": 2}, min=1, max=2)
    assert listed == [{"endpoint": "query", "body": {"query": "storm", "page": "2"}, "min": 1, "max": 2, "count": 0}]
    newsmock.expect("headlines", times=0)
    api(newsmock.url, "query", {"api_key": newsmock.api_key, "query": "storm", "page": 1})
    result = newsmock.verify()
    assert (result["met"], len(result["unmet"]), result["unexpected_count"]) == (False, 1, 1), result
    with pytest.raises(newsmock_pkg.VerifyError, match=r'expected query with \{"page":"2","query":"storm"\} 1 to 2 '
                       r'times, got 0; closest:') as raised:
        newsmock.verify(check=True)
    assert raised.value.result["unmet"][0]["closest"][0]["body"]["page"] == 1
    assert newsmock.clear_expectations() == [] and newsmock.expectations() == []
    assert newsmock.verify(check=True)["met"] is True  # the unexpected request went with them
    with pytest.raises(newsmock_pkg.NewsmockError, match="400 expectation 0: min 3 and max 1"):
        newsmock.expect("query", min=3, max=1)


def test_journal_by_body_and_count(newsmock):
    for body in ({"query": "storm", "page": 2}, {"query": "storm"}, {"query": "harbour", "show_reprints": True}):
        assert api(newsmock.url, "query", dict(body, api_key=newsmock.api_key))[0] == 200
    api(newsmock.url, "headlines", {"api_key": newsmock.api_key})
    storms = newsmock.journal(path="query", body={"query": "storm"})
    assert [e["body"] for e in storms] == [{"api_key": "[redacted]", "query": "storm", "page": 2},
                                           {"api_key": "[redacted]", "query": "storm"}]
    assert newsmock.journal_count(body={"query": "storm", "page": 2}) == 1
    assert newsmock.journal_count(body={"show_reprints": True}) == 1
    assert newsmock.journal_count(path="headlines", status=200) == 1
    assert newsmock.journal_count(path="query", wait=0.2, min=4) == 3  # the wait ran out: what there is
    assert len(newsmock.journal(limit=2)) == 2


def test_wait_for_requests_another_process_makes(newsmock):
    """A child process sends the requests; this one waits on the journal until they are there."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, newsmock.url, newsmock.api_key])
    try:
        entries = newsmock.journal(path="query", body={"query": "harbour"}, wait="50s", min=3)
    finally:
        assert child.wait(60) == 0
    assert [e["body"]["query"] for e in entries] == ["harbour"] * 3
    assert newsmock.journal_count(path="query", wait=datetime.timedelta(seconds=50), min=4) == 4


CHILD = '''
import json, sys, urllib.request
url, key = sys.argv[1:]
for text in ("storm", "harbour", "harbour", "harbour"):
    body = json.dumps({"api_key": key, "query": text}).encode()
    req = urllib.request.Request(url + "/api/v2/query", data=body, headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req, timeout=30).read()
'''


def test_settings_of_a_world(newsmock, newsmock_server):
    start = newsmock.settings()
    assert start["pending_polls"] == 1 and start["rate_limit"] == 0, start
    changed = newsmock.update_settings(pending_polls=2, pending=datetime.timedelta(seconds=0), job_ttl=90,
                                       shape={"results": "top-level"})
    assert changed == dict(start, pending_polls=2, pending="0s", job_ttl="1m30s", shape={"results": "top-level"})
    status, answer = api(newsmock.url, "query", {"api_key": newsmock.api_key, "query": "storm"})
    assert status == 200 and "totalResults" in answer and "results" not in answer, answer
    qid = api(newsmock.url, "query-async", {"api_key": newsmock.api_key, "query": "storm"})[1]["query_id"]
    states = [api(newsmock.url, "get-results", {"api_key": newsmock.api_key, "query_id": qid})[1]["state"]
              for _ in range(3)]
    assert states == ["PENDING", "PENDING", "SUCCESS"]
    assert newsmock_server.world("another-key").settings() == start  # other worlds keep theirs
    with pytest.raises(newsmock_pkg.NewsmockError, match="400 .*max_jobs 0: pass 1 or more"):
        newsmock.update_settings(max_jobs=0)
    assert newsmock.reset_settings() == start
    assert newsmock.settings() == start


def faulted(url, key, fault, **body):
    """POSTs a query with the X-Mock-Fault header: (status, the answer's bytes)."""
    req = urllib.request.Request(url + "/api/v2/query", data=json.dumps(dict(body, api_key=key)).encode(),
                                 headers={"Content-Type": "application/json", "X-Mock-Fault": fault}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


MESSY = [("window=day", {"start_date": "2026-01-10T13:00:00Z", "end_date": "2026-01-10T13:20:00Z"}),
         ("window=90m", {"start_date": "2026-01-10T13:00:00Z", "end_date": "2026-01-10T13:20:00Z"}),
         ("empty-page=2", {"page": 2}), ("overlap=3", {"page": 2}), ("arrivals=2", {}),
         ("latency=1ms..20ms", {}), ("dribble=100ms", {})]


def test_a_messy_service_from_python():
    """Each data and timing item through the header and as a rule, its effect, and two runs of the same seed
    answering the same bytes."""
    runs = []
    for _ in range(2):
        with newsmock.start(args=["-log-level", "warn", "-seed", "5", "-clock", "manual=2026-01-15T12:00:00Z"]) as server:
            run = []
            for item, body in MESSY:
                plain = faulted(server.url, "k", "", query="*", **body)
                status, got = faulted(server.url, "k", item, query="*", **body)
                assert status == 200, (item, got)
                run.append(got)
                before, after = json.loads(plain[1])["results"], json.loads(got)["results"]
                if item.startswith("window"):
                    assert after["totalResults"] > before["totalResults"], item
                elif item.startswith("empty-page"):
                    assert after["articles"] == [] and after["totalResults"] == before["totalResults"]
                elif item.startswith("overlap"):
                    page1 = json.loads(faulted(server.url, "k", "", query="*")[1])["results"]["articles"]
                    assert [a["_id"] for a in after["articles"]] == \
                        [a["_id"] for a in page1[-3:] + before["articles"]]
                elif item.startswith("arrivals"):
                    assert after["totalResults"] == before["totalResults"] + 2
                else:
                    assert got == plain[1], item
            server.set_faults(["endpoint=query;times=1;empty-page=1"])
            assert json.loads(faulted(server.url, "k", "", query="storm")[1])["results"]["articles"] == []
            assert server.faults()[0]["fault"] == {"empty_page": 1}
            run.append(json.dumps(server.journal()).encode())
            runs.append(run)
    assert runs[0] == runs[1]


def test_a_bad_messy_item_is_a_400_that_shows_a_good_one(newsmock):
    status, body = faulted(newsmock.url, newsmock.api_key, "overlap=many", query="storm")
    assert status == 400 and "write e.g. overlap=2" in json.loads(body)["message"]
    with pytest.raises(newsmock_pkg.NewsmockError, match="window=day or window=5s"):
        newsmock.add_fault({"endpoint": "query", "fault": {"window": "fortnight"}})
