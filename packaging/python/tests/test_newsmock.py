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


def test_a_fault_fires_once(newsmock_world):
    newsmock_world.add_fault("endpoint=query;times=1;status=503")
    assert api(newsmock_world.url, "query", {"api_key": newsmock_world.api_key, "query": "storm"})[0] == 503
    assert api(newsmock_world.url, "query", {"api_key": newsmock_world.api_key, "query": "storm"})[0] == 200
    assert newsmock_world.journal_count(status=503) == 1
    assert newsmock_world.faults()[0]["fired"] == 1


# These two run in this order in one process: the first one's fault must not reach the second.
def test_isolation_first_sets_a_fault(newsmock_world):
    newsmock_world.set_faults([{"endpoint": "query", "fault": {"status": 500}}])
    assert api(newsmock_world.url, "query", {"api_key": newsmock_world.api_key, "query": "storm"})[0] == 500


def test_isolation_second_sees_no_fault(newsmock_world, newsmock_server):
    assert newsmock_world.faults() == []
    assert api(newsmock_world.url, "query", {"api_key": newsmock_world.api_key, "query": "storm"})[0] == 200
    assert newsmock_server.default_world().faults() == []  # nor did it reach the default world


@pytest.mark.parametrize("n", range(12))
def test_many_worlds_in_parallel(newsmock_world, n):
    """Under -n 4 these share each worker's server; each test's status must be the only one it sees."""
    status = 500 + n
    newsmock_world.add_fault("endpoint=headlines;status=%d" % status)
    for _ in range(3):
        assert api(newsmock_world.url, "headlines", {"api_key": newsmock_world.api_key})[0] == status
    assert [e["status"] for e in newsmock_world.journal()] == [status] * 3


def test_a_clock_per_test(newsmock_world, newsmock_server):
    """This world's clock turns manual, then real again; another world keeps real time throughout."""
    other = newsmock_server.new_world()
    assert newsmock_world.use_manual_clock(start="2026-01-15T12:00:00Z")["now"] == "2026-01-15T12:00:00Z"
    assert newsmock_world.advance_clock(90)["now"] == "2026-01-15T12:01:30Z"  # numbers are seconds
    assert newsmock_world.advance_clock("1h")["now"] == "2026-01-15T13:01:30Z"
    assert other.clock()["manual"] is False
    assert newsmock_world.use_real_clock()["manual"] is False
    assert newsmock_world.use_manual_clock()["manual"] is True  # at the world's current time
    other.drop_world()


def test_a_real_clock_refuses_naming_the_python_way(newsmock_world):
    """newsmock reads the helper's User-Agent: its 409 names use_manual_clock(), not the binary's flag."""
    with pytest.raises(newsmock.NewsmockError, match=r"409 .*use_manual_clock\(\)") as raised:
        newsmock_world.advance_clock("1h")
    assert raised.value.status == 409


def test_a_fault_rule_matches_body_members(newsmock_world):
    newsmock_world.add_fault({"endpoint": "query", "body": {"query": "storm"}, "fault": {"status": 503}})
    newsmock_world.add_fault({"endpoint": "query", "body": {"page": 2}, "times": 1, "fault": {"status": 502}})
    key = newsmock_world.api_key
    assert api(newsmock_world.url, "query", {"api_key": key, "query": "harbour"})[0] == 200
    assert api(newsmock_world.url, "query", {"api_key": key, "query": "storm"})[0] == 503
    assert api(newsmock_world.url, "query", {"api_key": key, "query": "harbour", "page": 2})[0] == 502
    assert [r["fired"] for r in newsmock_world.faults()] == [1, 1]


def test_strictness_is_asked_for(newsmock_world):
    """An expectation alone does not make other requests fail verify; update_settings(strict=True) does."""
    newsmock_world.expect("query", body={"query": "storm"})
    api(newsmock_world.url, "query", {"api_key": newsmock_world.api_key, "query": "storm"})
    api(newsmock_world.url, "headlines", {"api_key": newsmock_world.api_key})
    result = newsmock_world.verify()
    assert (result["met"], result["unexpected_count"]) == (True, 1), result
    assert newsmock_world.update_settings(strict=True)["strict"] is True
    with pytest.raises(newsmock.VerifyError, match=r"unexpected request #2 /api/v2/headlines"):
        newsmock_world.verify(check=True)
    newsmock_world.update_settings(strict=False)


EXTERNAL = '''
import os
import newsmock

def test_a_world_of_its_own(newsmock_world, newsmock_server):
    assert isinstance(newsmock_server, newsmock.Remote) and newsmock_server.url == os.environ["WANT_URL"]
    newsmock_world.add_fault("endpoint=headlines;times=1;status=502;optional")
    newsmock_server.world(newsmock_world.api_key).journal()  # the same world
    assert newsmock_world.api_key.startswith("pytest-")

def test_unmet(newsmock_world):
    newsmock_world.expect("headlines")
'''


@pytest.mark.parametrize("how", ["--newsmock-url", "NEWSMOCK_URL", "newsmock_url"])
def test_an_external_mock(pytester, monkeypatch, how):
    """A newsmock already running, named by the option, the variable or the ini key: nothing is started
    (NEWSMOCK_BINARY names no binary), each test gets a world of it, verified after the test."""
    with newsmock.start(args=["-world-per-key", "-log-level", "warn"]) as server:
        pytester.makepyfile(test_external=EXTERNAL)
        monkeypatch.setenv("NEWSMOCK_BINARY", "/nonexistent/newsmock")
        monkeypatch.setenv("WANT_URL", server.url)
        monkeypatch.delenv("NEWSMOCK_URL", raising=False)
        args = []
        if how == "--newsmock-url":
            args = ["--newsmock-url", server.url]
        elif how == "NEWSMOCK_URL":
            monkeypatch.setenv("NEWSMOCK_URL", server.url)
        else:
            pytester.makeini("[pytest]\nnewsmock_url = %s\n" % server.url)
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)
        result.assert_outcomes(passed=1, failed=1)
        result.stdout.fnmatch_lines(["*- expected headlines at least 1 times, got 0*"])
        assert [w for w in server.worlds() if not w["default"]] == []  # every world dropped after its test


def test_an_external_mock_without_worlds_per_key(pytester, monkeypatch):
    with newsmock.start(args=["-log-level", "warn"]) as server:
        pytester.makepyfile(test_external=EXTERNAL)
        monkeypatch.setenv("NEWSMOCK_URL", server.url)
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
        result.assert_outcomes(errors=2)
        result.stdout.fnmatch_lines(["*the newsmock at %s runs without -world-per-key*start it with -world-per-key "
                                     "(in a container: -e NEWSMOCK_WORLD_PER_KEY=true)" % server.url])


def test_an_external_mock_that_does_not_answer(pytester, monkeypatch):
    pytester.makepyfile(test_external=EXTERNAL)
    monkeypatch.setenv("NEWSMOCK_URL", "http://127.0.0.1:9")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*no newsmock answers at http://127.0.0.1:9 (GET /_mock/health: *): start it "
                                 "first, or unset NEWSMOCK_URL*"])


def test_the_url_variable_does_not_stop_a_started_newsmock(monkeypatch):
    """NEWSMOCK_URL is the clients' variable: a newsmock start() runs never refuses it."""
    monkeypatch.setenv("NEWSMOCK_URL", "http://127.0.0.1:9")
    with newsmock.start(args=["-log-level", "warn"]) as server:
        assert server.health()["state"] == "SUCCESS"


def test_articles_of_a_world(newsmock_world):
    assert newsmock_world.replace_articles([ARTICLE])["articles"] == 1
    status, answer = api(newsmock_world.url, "query", {"api_key": newsmock_world.api_key, "query": "harbour"})
    assert status == 200 and answer["results"]["totalResults"] == 1
    assert newsmock_world.reset_articles()["added_articles"] == 0


def test_jobs_of_a_world(newsmock_world):
    status, answer = api(newsmock_world.url, "query-async", {"api_key": newsmock_world.api_key, "query": "storm"})
    assert status == 200
    qid = answer["query_id"]
    assert [j["query_id"] for j in newsmock_world.jobs()] == [qid]
    assert newsmock_world.force_job(qid, "FAILED", "upstream timeout")["state"] == "FAILED"
    status, answer = api(newsmock_world.url, "get-results", {"api_key": newsmock_world.api_key, "query_id": qid})
    assert (status, answer["state"], answer["message"]) == (200, "FAILED", "upstream timeout")
    newsmock_world.reset()
    assert newsmock_world.jobs() == []


def test_session_fixture_helpers_refuse(newsmock_server):
    """Its default world is reached by no request with an api_key (-world-per-key): its helpers refuse."""
    for call in (lambda: newsmock_server.add_fault("status=503"), newsmock_server.journal_count,
                 newsmock_server.reset, lambda: newsmock_server.advance_clock("1h")):
        with pytest.raises(newsmock.NewsmockError, match=r"-world-per-key, which no request with an api_key "
                           r"reaches, so it would never be seen: use the newsmock_world fixture"):
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
import newsmock  # the module: no fixture of the plugin hides it

def query(world, text):
    body = json.dumps({"api_key": world.api_key, "query": text}).encode()
    req = urllib.request.Request(world.url + "/api/v2/query", data=body, headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req).read()

def test_met(newsmock_world):
    assert issubclass(newsmock.VerifyError, AssertionError)
    newsmock_world.expect("query", body={"query": "election"}, times=1)
    query(newsmock_world, "election")

def test_unmet(newsmock_world):
    newsmock_world.expect("query", body={"query": "election"}, times=1)
    query(newsmock_world, "elections")

def test_fault_never_fired(newsmock_world):
    newsmock_world.add_fault("endpoint=query;times=1;status=503")

def test_optional_fault(newsmock_world):
    newsmock_world.add_fault("endpoint=query;times=1;status=503;optional")

@pytest.mark.newsmock_no_verify
def test_opted_out(newsmock_world):
    newsmock_world.expect("headlines")

def test_by_getfixturevalue(request):
    request.getfixturevalue("newsmock_world").expect("headlines")
'''


def run_nested(pytester, *args):
    # The runner's NEWSMOCK_URL, if any, reaches the nested pytest too: it uses the same mock.
    pytester.makepyfile(test_nested=NESTED)
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist", *args)


def test_fixture_fails_a_test_whose_expectations_are_unmet(pytester):
    '''A nested pytest: the met, optional and opted-out tests pass; the unmet and unfired fail (the test's own
    failure, not an error at teardown) with newsmock's message, saying what was expected, what came closest
    and the test's line that declared it.'''
    result = run_nested(pytester)
    out = result.stdout.str()
    result.assert_outcomes(passed=3, failed=3)
    assert "ERROR" not in out and "During handling" not in out, out
    result.stdout.fnmatch_lines(["FAILED test_nested.py::test_unmet*", "FAILED test_nested.py::test_fault_never_fired*",
                                 "FAILED test_nested.py::test_by_getfixturevalue*"])
    result.stdout.fnmatch_lines([
        "*mockserver: the requests were not as expected:",
        '*- expected query with {"query":"election"} exactly once, got 0; closest:',
        '*#1 /api/v2/query {"api_key": "[[]redacted[]]", "query": "elections"}',
        "*(expectations and fault rules declared at *test_nested.py:16)",
        "*mark the test @pytest.mark.newsmock_no_verify to skip the check*",
    ])
    result.stdout.fnmatch_lines([
        '*- fault rule 0 "endpoint=query;times=1;status=503" never fired (it matched 0 requests); mark it optional*',
        "*(expectations and fault rules declared at *test_nested.py:20)"])
    result.stdout.fnmatch_lines(["*declared at *test_nested.py:30)"])


def test_expectations_and_verify(newsmock_world):
    assert newsmock_world.verify()["met"] is True
    listed = newsmock_world.expect("query", body={"query": "storm", "page": 2}, min=1, max=2)
    assert listed == [{"endpoint": "query", "body": {"query": "storm", "page": "2"}, "min": 1, "max": 2, "count": 0}]
    newsmock_world.expect("headlines", times=0)
    api(newsmock_world.url, "query", {"api_key": newsmock_world.api_key, "query": "storm", "page": 1})
    result = newsmock_world.verify()
    assert (result["met"], len(result["unmet"]), result["unexpected_count"]) == (False, 1, 1), result
    with pytest.raises(newsmock.VerifyError, match=r'expected query with \{"page":"2","query":"storm"\} 1 to 2 '
                       r'times, got 0; closest:') as raised:
        newsmock_world.verify(check=True)
    assert raised.value.result["unmet"][0]["closest"][0]["body"]["page"] == 1
    assert newsmock_world.clear_expectations() == [] and newsmock_world.expectations() == []
    assert newsmock_world.verify(check=True)["met"] is True  # the unexpected request went with them
    with pytest.raises(newsmock.NewsmockError, match="400 expectation 0: min 3 and max 1"):
        newsmock_world.expect("query", min=3, max=1)


def test_journal_by_body_and_count(newsmock_world):
    for body in ({"query": "storm", "page": 2}, {"query": "storm"}, {"query": "harbour", "show_reprints": True}):
        assert api(newsmock_world.url, "query", dict(body, api_key=newsmock_world.api_key))[0] == 200
    api(newsmock_world.url, "headlines", {"api_key": newsmock_world.api_key})
    storms = newsmock_world.journal(path="query", body={"query": "storm"})
    assert [e["body"] for e in storms] == [{"api_key": "[redacted]", "query": "storm", "page": 2},
                                           {"api_key": "[redacted]", "query": "storm"}]
    assert newsmock_world.journal_count(body={"query": "storm", "page": 2}) == 1
    assert newsmock_world.journal_count(body={"show_reprints": True}) == 1
    assert newsmock_world.journal_count(path="headlines", status=200) == 1
    assert newsmock_world.journal_count(path="query", wait=0.2, min=4) == 3  # the wait ran out: what there is
    assert len(newsmock_world.journal(limit=2)) == 2


def test_wait_for_requests_another_process_makes(newsmock_world):
    """A child process sends the requests; this one waits on the journal until they are there."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, newsmock_world.url, newsmock_world.api_key])
    try:
        entries = newsmock_world.journal(path="query", body={"query": "harbour"}, wait="50s", min=3)
    finally:
        assert child.wait(60) == 0
    assert [e["body"]["query"] for e in entries] == ["harbour"] * 3
    assert newsmock_world.journal_count(path="query", wait=datetime.timedelta(seconds=50), min=4) == 4


CHILD = '''
import json, sys, urllib.request
url, key = sys.argv[1:]
for text in ("storm", "harbour", "harbour", "harbour"):
    body = json.dumps({"api_key": key, "query": text}).encode()
    req = urllib.request.Request(url + "/api/v2/query", data=body, headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req, timeout=30).read()
'''


def test_settings_of_a_world(newsmock_world, newsmock_server):
    start = newsmock_world.settings()
    assert start["pending_polls"] == 1 and start["rate_limit"] == 0, start
    changed = newsmock_world.update_settings(pending_polls=2, pending=datetime.timedelta(seconds=0), job_ttl=90,
                                       shape={"results": "top-level"})
    assert changed == dict(start, pending_polls=2, pending="0s", job_ttl="1m30s", shape={"results": "top-level"})
    status, answer = api(newsmock_world.url, "query", {"api_key": newsmock_world.api_key, "query": "storm"})
    assert status == 200 and "totalResults" in answer and "results" not in answer, answer
    qid = api(newsmock_world.url, "query-async", {"api_key": newsmock_world.api_key, "query": "storm"})[1]["query_id"]
    states = [api(newsmock_world.url, "get-results", {"api_key": newsmock_world.api_key, "query_id": qid})[1]["state"]
              for _ in range(3)]
    assert states == ["PENDING", "PENDING", "SUCCESS"]
    assert newsmock_server.world("another-key").settings() == start  # other worlds keep theirs
    with pytest.raises(newsmock.NewsmockError, match="400 .*max_jobs 0: pass 1 or more"):
        newsmock_world.update_settings(max_jobs=0)
    assert newsmock_world.reset_settings() == start
    assert newsmock_world.settings() == start


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


def test_a_bad_messy_item_is_a_400_that_shows_a_good_one(newsmock_world):
    status, body = faulted(newsmock_world.url, newsmock_world.api_key, "overlap=many", query="storm")
    assert status == 400 and "write e.g. overlap=2" in json.loads(body)["message"]
    with pytest.raises(newsmock.NewsmockError, match="window=day or window=5s"):
        newsmock_world.add_fault({"endpoint": "query", "fault": {"window": "fortnight"}})
