"""A world per API key: 16 workers in parallel against one newsmock.

newsmock -world-per-key gives every API key a world of its own: fault rules
and their counters, a clock, added articles, jobs and a journal. Here 16
workers (threads, as pytest-xdist or a parallel CI job would be processes)
share one newsmock, each with its own key. Each sets its own fault, moves its
own clock, adds its own article, submits its own job, and must then see
exactly its own journal, jobs, clock, fault counters and search results, and
a 404 for another worker's query_id. Any interference between worlds fails
the test.

Standard library only. Run:  python3 -m unittest discover -s examples/python -v
(NEWSMOCK names the newsmock binary; without it the suite builds one.)
"""

import datetime
import hashlib
import json
import shutil
import tempfile
import threading
import unittest
import urllib.error
import urllib.request
import uuid

from newsclient import NewsClient
from test_newsmock import START, WORLD_KEY_HEADER, Newsmock, newsmock_binary

WORKERS = 16
STATUSES = [500, 502, 503, 504]


def fingerprint(key):
    """A world's id: how newsmock names a key without showing it."""
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()[:16]


def at(hours):
    start = datetime.datetime.fromisoformat(START.replace("Z", "+00:00"))
    return (start + datetime.timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")


class Worker:
    """What one parallel test does with its own key."""

    def __init__(self, mock, n, run):
        self.mock, self.n = mock, n
        self.key = f"worker-{n:02d}-{run}"
        self.word = "xqz" + "abcdefghijklmnop"[n] * 3  # a word only this worker's article has
        self.status = STATUSES[n % len(STATUSES)]      # the status of its fault
        self.times = 1 + n % 3                         # how often the fault fires
        self.hours = n + 1                             # how far it moves its clock
        self.sent = []                                 # (path, status) of every API request it sent
        self.query_id = None

    def api(self, path, body):
        """One API request with this worker's key, no retries; returns (status, answer)."""
        data = json.dumps(dict(body, api_key=self.key)).encode()
        req = urllib.request.Request(self.mock.url + path, data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                status, payload = resp.status, resp.read()
        except urllib.error.HTTPError as e:
            status, payload = e.code, e.read()
        self.sent.append((path, status))
        return status, json.loads(payload)

    def control(self, method, path, body=None, expect=200):
        return self.mock.control(method, path, body, expect=expect, key=self.key)

    def set_up(self):
        """Its fault, its clock and its article, all in its own world."""
        rule = f"endpoint=query;times={self.times};status={self.status}"
        rules = self.control("POST", "/_mock/faults", rule)["rules"]
        assert [r["text"] for r in rules] == [rule], rules
        clock = self.control("POST", "/_mock/clock", {"advance": f"{self.hours}h"})
        assert clock == {"state": "SUCCESS", "now": at(self.hours), "manual": True}, clock
        added = self.control("POST", "/_mock/articles", [{
            "_id": f"{self.n + 1:02x}" + "0" * 21 + "1",
            "title": f"Worker {self.n} files its {self.word} report",
            "url": f"https://worker{self.n}.example/report",
            "site": f"worker{self.n}.example",
            "datePublished": "2026-01-14 09:00:00",
            "language": "en",
        }])
        assert (added["added_articles"], added["added_now"]) == (1, 1), added

    def search(self):
        """Its fault fires exactly `times` times, then its search finds its article alone."""
        for _ in range(self.times):
            status, answer = self.api("/api/v2/query", {"query": self.word})
            assert status == self.status, (status, answer)
        status, answer = self.api("/api/v2/query", {"query": self.word})
        assert status == 200, (status, answer)
        titles = [a["title"] for a in answer["results"]["articles"]]
        assert titles == [f"Worker {self.n} files its {self.word} report"], titles
        # The other workers' articles are not in this world.
        for other in range(WORKERS):
            if other != self.n:
                word = "xqz" + "abcdefghijklmnop"[other] * 3
                status, answer = self.api("/api/v2/query", {"query": word})
                assert (status, answer["results"]["totalResults"]) == (200, 0), (word, answer)

    def submit(self):
        """A job of its own, seen by the application's client and by /_mock/jobs."""
        client = NewsClient(self.mock.url, self.key)
        self.query_id = client.submit(self.word)
        self.sent.append(("/api/v2/query-async", 200))
        jobs = self.control("GET", "/_mock/jobs")["jobs"]
        assert [(j["query_id"], j["owner"], j["query"]) for j in jobs] == [(self.query_id, fingerprint(self.key), self.word)], jobs
        status, answer = self.api("/api/v2/get-results", {"query_id": self.query_id})
        assert (status, answer["state"]) == (200, "PENDING"), answer
        status, answer = self.api("/api/v2/get-results", {"query_id": self.query_id})
        assert (status, answer["state"], answer["totalResults"]) == (200, "SUCCESS", 1), answer

    def cross(self, others):
        """Another worker's query_id is a 404, on the API and on /_mock/jobs."""
        for other in others:
            if other is self:
                continue
            status, answer = self.api("/api/v2/get-results", {"query_id": other.query_id})
            assert status == 404, (status, answer)
            self.control("GET", f"/_mock/jobs/{other.query_id}", expect=404)

    def check(self):
        """It sees exactly its own journal, clock, faults, articles and jobs."""
        journal = self.control("GET", "/_mock/journal")
        entries = journal["entries"]
        assert journal["dropped"] == 0, journal["dropped"]
        got = [(e["path"], e["status"]) for e in entries]
        assert got == self.sent, (got, self.sent)
        assert [e["seq"] for e in entries] == list(range(1, len(self.sent) + 1)), entries
        assert {e["world"] for e in entries} == {fingerprint(self.key)}, entries
        assert {e["time"] for e in entries} == {at(self.hours)}, entries
        assert all(self.key not in e["body"] for e in entries), "the journal shows a key"
        faulted = [e for e in entries if "fault" in e]
        assert len(faulted) == self.times and all(e["status"] == self.status for e in faulted), faulted
        assert self.control("GET", "/_mock/clock")["now"] == at(self.hours)
        rule = self.control("GET", "/_mock/faults")["rules"]
        # It matched this world's queries alone: the faulted ones, the one that
        # found its article and one for each other worker's word.
        queries = sum(1 for path, _ in self.sent if path == "/api/v2/query")
        assert queries == self.times + WORKERS, self.sent
        assert [(r["matched"], r["fired"], r["remaining"]) for r in rule] == [(queries, self.times, 0)], rule
        assert self.control("GET", "/_mock/articles")["added_articles"] == 1
        assert [j["query_id"] for j in self.control("GET", "/_mock/jobs")["jobs"]] == [self.query_id]


class WorldPerKeyTest(unittest.TestCase):
    maxDiff = None

    def test_16_parallel_workers_each_see_only_their_world(self):
        tmp = tempfile.mkdtemp(prefix="newsmock-py-")
        mock = Newsmock(newsmock_binary(tmp), "-world-per-key", "-clock", "manual=" + START, "-pending-polls", "1")
        try:
            run = uuid.uuid4().hex[:8]
            workers = [Worker(mock, n, run) for n in range(WORKERS)]
            # Every phase starts together, so the workers' requests interleave.
            barrier = threading.Barrier(WORKERS, timeout=120)
            errors = {}

            def work(w):
                try:
                    for phase in (w.set_up, w.search, w.submit):
                        barrier.wait()
                        phase()
                    barrier.wait()  # every query_id is known
                    w.cross(workers)
                    barrier.wait()
                    w.check()
                except threading.BrokenBarrierError:
                    errors.setdefault(w.n, "another worker failed first")
                except Exception as e:  # noqa: BLE001 (reported below, per worker)
                    errors[w.n] = f"{type(e).__name__}: {e}"[:6000]
                    barrier.abort()

            threads = [threading.Thread(target=work, args=(w,)) for w in workers]
            for t in threads:
                t.start()
            for t in threads:
                t.join(300)
            failed = {n: e for n, e in errors.items() if e != "another worker failed first"} or errors
            self.assertEqual(failed, {}, "workers interfered or failed")

            # 16 worlds besides the default one, which no request reached.
            listed = mock.control("GET", "/_mock/worlds")
            self.assertTrue(listed["world_per_key"])
            self.assertEqual([w["id"] for w in listed["worlds"]],
                             ["default"] + sorted(fingerprint(w.key) for w in workers))
            by_id = {x["id"]: x for x in listed["worlds"]}
            for w in workers:
                info = by_id[fingerprint(w.key)]
                self.assertEqual((info["requests"], info["added_articles"], info["jobs"], info["fault_rules"], info["now"]),
                                 (len(w.sent), 1, 1, 1, at(w.hours)), w.n)
            default = by_id["default"]
            self.assertEqual((default["requests"], default["added_articles"], default["jobs"], default["now"]),
                             (0, 0, 0, START))
            self.assertEqual(mock.control("GET", "/_mock/journal")["entries"], [])
            self.assertEqual(mock.control("GET", "/_mock/health")["worlds"], WORKERS + 1)

            # Dropping one world leaves the others; dropping all leaves the default.
            self.assertEqual(mock.control("DELETE", "/_mock/worlds", key=workers[0].key), {"state": "SUCCESS", "dropped": 1})
            self.assertEqual(len(mock.control("GET", "/_mock/worlds")["worlds"]), WORKERS)
            self.assertEqual(mock.control("DELETE", "/_mock/worlds"), {"state": "SUCCESS", "dropped": WORKERS - 1})
            self.assertEqual(mock.control("GET", "/_mock/health")["worlds"], 1)
        finally:
            mock.close()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_without_the_flag_a_key_needs_post_worlds(self):
        tmp = tempfile.mkdtemp(prefix="newsmock-py-")
        mock = Newsmock(newsmock_binary(tmp), "-clock", "manual=" + START)
        try:
            key = f"explicit-{uuid.uuid4().hex[:8]}"
            missing = mock.control("GET", "/_mock/journal", expect=404, key=key)
            self.assertIn("POST /_mock/worlds", missing["message"])
            made = mock.control("POST", "/_mock/worlds", key=key)
            self.assertEqual((made["created"], made["world"]["id"]), (True, fingerprint(key)))
            self.assertFalse(mock.control("POST", "/_mock/worlds", key=key)["created"])
            mock.control("POST", "/_mock/clock", {"advance": "1h"}, key=key)
            self.assertEqual(mock.control("GET", "/_mock/clock")["now"], START)
            self.assertEqual(mock.control("GET", "/_mock/clock", key=key)["now"], at(1))
            client = NewsClient(mock.url, key)
            client._post("/api/v2/headlines", {})
            self.assertEqual([e["world"] for e in mock.control("GET", "/_mock/journal", key=key)["entries"]], [fingerprint(key)])
            self.assertEqual(mock.control("GET", "/_mock/journal")["entries"], [])
            self.assertEqual(mock.control("DELETE", f"/_mock/worlds/{fingerprint(key)}"), {"state": "SUCCESS", "dropped": 1})
            mock.control("GET", "/_mock/journal", expect=404, key=key)
        finally:
            mock.close()
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
