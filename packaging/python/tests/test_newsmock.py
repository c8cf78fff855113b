"""The newsmock wheel, installed: start(), the control helpers and the pytest fixtures (tools/dist/check)."""
import json
import os
import sys
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
    assert newsmock_server.faults() == []  # nor did it reach the default world


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
    assert newsmock_server.clock()["now"] == "2026-01-15T12:00:00Z"


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
