"""Tests of newsmock's control API from Python, standard library only.

They start the built newsmock binary (the NEWSMOCK environment variable
names it; without it the suite builds one with `go build`), drive the
application client in newsclient.py through faults, forced job outcomes and
clock jumps set over HTTP, and assert on the journal. They also run the curl
examples of the README's section "Controlling newsmock from any language"
verbatim (only the address is the test server's).

Run:  python3 -m unittest discover -s examples/python -v
"""

import hashlib
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import unittest
import urllib.error
import urllib.request

from newsclient import ApiError, JobFailed, NewsClient

REPO = pathlib.Path(__file__).resolve().parents[2]
KEY = "py-suite-key-5d1e"
START = "2026-01-15T12:00:00Z"
README_URL = "http://127.0.0.1:8080"
# Points a control call at the world of an API key (newsmock -world-per-key,
# POST /_mock/worlds); Go: mockserver.KeyHeader.
WORLD_KEY_HEADER = "X-Newsmock-Key"


def newsmock_binary(tmp):
    """The newsmock to test: $NEWSMOCK, or one built from this repository."""
    if os.environ.get("NEWSMOCK"):
        return os.environ["NEWSMOCK"]
    out = os.path.join(tmp, "newsmock")
    subprocess.run(["go", "build", "-o", out, "./cmd/newsmock"], cwd=REPO, check=True)
    return out


class Newsmock:
    """A running newsmock on a free loopback port. It exits when this process
    does, however it ends: -exit-with-parent, with its standard input a pipe
    from here that nothing writes to."""

    def __init__(self, binary, *flags):
        # A later -addr in flags wins over this one.
        self.proc = subprocess.Popen([binary, "-addr", "127.0.0.1:0", "-exit-with-parent", "-log-level", "off", *flags],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(60)
        if not line or not line[0].startswith("newsmock listening on "):
            self.proc.kill()
            raise RuntimeError(f"newsmock did not start: {line!r} {self.proc.stderr.read()}")
        self.url = line[0].strip().removeprefix("newsmock listening on ")

    def close(self):
        self.proc.terminate()
        self.proc.wait(30)
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.proc.stderr.close()

    def control(self, method, path, body=None, expect=200, headers=None, key=None):
        """Calls a /_mock/ endpoint and returns the decoded answer. A body
        that is not a string is sent as JSON; a string (a fault rule in
        -fault syntax, JSON Lines) as text/plain with X-Newsmock-Control: 1.
        Every request says Content-Type: application/json unless headers
        (or a string body) say otherwise: newsmock refuses a control POST
        of a type a web page could send. With key, the call acts on that
        API key's world (header X-Newsmock-Key) instead of the default one."""
        data, sent = None, {"Content-Type": "application/json"}
        if isinstance(body, str):
            data, sent = body.encode(), {"Content-Type": "text/plain", "X-Newsmock-Control": "1"}
        elif body is not None:
            data = json.dumps(body).encode()
        if key is not None:
            sent[WORLD_KEY_HEADER] = key
        sent.update(headers or {})
        status, answer = self.send(method, path, data, sent)
        if status != expect:
            raise AssertionError(f"{method} {path}: status {status}, want {expect}: {answer}")
        return answer

    def send(self, method, path, data=None, headers=None):
        """Sends a request with exactly these headers (and those urllib
        adds); returns the status and the decoded answer."""
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                status, payload = resp.status, resp.read()
        except urllib.error.HTTPError as e:
            status, payload = e.code, e.read()
        return status, json.loads(payload)

    def count(self, query):
        return self.control("GET", "/_mock/journal?count=true&" + query)["count"]


class ControlAPITest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="newsmock-py-")
        cls.binary = newsmock_binary(cls.tmp)
        cls.mock = Newsmock(cls.binary, "-clock", "manual=" + START, "-keys", KEY, "-pending-polls", "1")
        cls.client = NewsClient(cls.mock.url, KEY)

    @classmethod
    def tearDownClass(cls):
        cls.mock.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        self.assertEqual(self.mock.control("POST", "/_mock/reset"), {"state": "SUCCESS"})

    def test_flow_survives_faults_set_over_http(self):
        rules = self.mock.control("PUT", "/_mock/faults", {"rules": [
            {"endpoint": "query-async", "times": 2, "fault": {"status": 503}},
            "endpoint=get-results;every=2;status=502",
        ]})["rules"]
        self.assertEqual([r["text"] for r in rules], ["endpoint=query-async;times=2;status=503",
                                                       "endpoint=get-results;every=2;status=502"])
        total, articles = self.client.search_all("bank", max_pages=3)
        self.assertGreater(total, 50)
        self.assertEqual(len(articles), 75)
        self.assertEqual(len({a["_id"] for a in articles}), 75, "pages overlap")
        # The journal says what happened: two 503s, then the submission that worked.
        self.assertEqual(self.mock.count("path=query-async"), 3)
        self.assertEqual(self.mock.count("path=query-async&status=503"), 2)
        self.assertEqual(self.mock.count("path=query-async&status=200"), 1)
        self.assertGreater(self.mock.count("path=get-results&status=502"), 0)
        first = self.mock.control("GET", "/_mock/faults")["rules"][0]
        self.assertEqual((first["matched"], first["fired"], first["remaining"]), (3, 2, 0))

    def test_forced_job_failure(self):
        query_id = self.client.submit("election")
        jobs = self.mock.control("GET", "/_mock/jobs")["jobs"]
        self.assertEqual([j["query_id"] for j in jobs], [query_id])
        owner = "sha256:" + hashlib.sha256(KEY.encode()).hexdigest()[:16]
        self.assertEqual((jobs[0]["owner"], jobs[0]["state"], jobs[0]["query"]), (owner, "PENDING", "election"))
        self.assertNotIn(KEY, json.dumps(jobs))
        forced = self.mock.control("POST", f"/_mock/jobs/{query_id}", {"state": "FAILED", "message": "upstream timeout"})
        self.assertEqual(forced["job"]["state"], "FAILED")
        with self.assertRaises(JobFailed) as failed:
            self.client.results(query_id)
        self.assertEqual(failed.exception.message, "upstream timeout")

    def test_forced_success_skips_pending(self):
        query_id = self.client.submit("market")
        self.mock.control("POST", f"/_mock/jobs/{query_id}", {"state": "SUCCESS"})
        self.assertEqual(self.client._post("/api/v2/get-results", {"query_id": query_id})["state"], "SUCCESS")

    def test_clock_jump_expires_the_id(self):
        query_id = self.client.submit("climate")
        self.assertEqual(self.client._post("/api/v2/get-results", {"query_id": query_id})["state"], "PENDING")
        clock = self.mock.control("POST", "/_mock/clock", {"advance": "2h"})
        self.assertEqual(clock, {"state": "SUCCESS", "now": "2026-01-15T14:00:00Z", "manual": True})
        with self.assertRaises(ApiError) as expired:
            self.client.results(query_id)
        self.assertEqual(expired.exception.status, 404)
        self.assertTrue(expired.exception.message.startswith("query_id is unknown or has expired"), expired.exception.message)
        self.assertEqual(self.mock.control("GET", "/_mock/jobs")["jobs"], [])
        times = [e["time"] for e in self.mock.control("GET", "/_mock/journal?path=get-results")["entries"]]
        self.assertEqual(times, ["2026-01-15T12:00:00Z", "2026-01-15T14:00:00Z"])

    def test_expire_a_job_by_delete(self):
        query_id = self.client.submit("football")
        self.assertEqual(self.mock.control("DELETE", f"/_mock/jobs/{query_id}"), {"state": "SUCCESS"})
        with self.assertRaises(ApiError) as gone:
            self.client.results(query_id)
        self.assertEqual(gone.exception.status, 404)

    def test_journal_since_and_count(self):
        self.client.submit("energy")
        mark = self.mock.control("GET", "/_mock/journal")["entries"][-1]["seq"]
        self.client.submit("energy")
        self.client._post("/api/v2/headlines", {})
        self.assertEqual(self.mock.count(f"since={mark}&path=query-async"), 1)
        after = self.mock.control("GET", f"/_mock/journal?since={mark}")["entries"]
        self.assertEqual([e["path"] for e in after], ["/api/v2/query-async", "/api/v2/headlines"])
        self.assertTrue(all(e["body"]["api_key"] == "[redacted]" and KEY not in json.dumps(e["body"]) for e in after), after)

    def test_bad_input_is_a_400_that_changes_nothing(self):
        self.mock.control("POST", "/_mock/faults", "endpoint=headlines;times=1;status=500")
        bad = self.mock.control("PUT", "/_mock/faults", {"rules": [{"endpoint": "query", "fault": {"status": "503"}}]}, expect=400)
        self.assertEqual(bad, {"state": "FAILED", "message": "fault rule 0: fault.status must be a whole number such as 503, not a string"})
        self.assertEqual([r["text"] for r in self.mock.control("GET", "/_mock/faults")["rules"]], ["endpoint=headlines;times=1;status=500"])
        bad = self.mock.control("POST", "/_mock/clock", {"advance": "soon"}, expect=400)
        self.assertEqual(bad["message"], 'advance "soon" is not a duration: write e.g. "90s", "2h" or "1h30m"')

    def test_serve_these_40_articles(self):
        start = self.mock.control("GET", "/_mock/articles")
        self.assertEqual(start["added_articles"], 0)
        lines = "".join(json.dumps({
            "_id": f"feed{n:020x}",
            "title": f"Quarterly axolotl census, region {n}",
            "url": f"https://axolotl.example/census/{n}",
            "site": "axolotl.example",
            "datePublished": f"2026-01-15 {n // 4:02d}:{n % 4 * 15:02d}:00",
            "language": "en",
        }) + "\n" for n in range(40))
        added = self.mock.control("POST", "/_mock/articles", lines)
        self.assertEqual((added["added_now"], added["added_articles"], added["articles"]),
                         (40, 40, start["start_articles"] + 40))
        total, articles = self.client.search_all("axolotl census", sort_order="Date Published")
        self.assertEqual(total, 40)
        self.assertEqual(len(articles), 40)
        self.assertEqual(articles[0]["datePublished"], "Thu, 15 Jan 2026 09:45:00 GMT")  # newest first, as posted
        # A bad batch is refused whole, naming the line; nothing changes.
        bad = lines.replace("feed", "beef", 1)  # line 1 is new, line 2 is already served
        answer = self.mock.control("POST", "/_mock/articles", bad, expect=400)
        self.assertEqual(answer["message"], 'line 2: _id "feed00000000000000000001" is already in the corpus; '
                         "give every article its own _id (DELETE /_mock/articles returns to the start-up corpus)")
        self.assertEqual(self.mock.control("GET", "/_mock/articles")["added_articles"], 40)
        # DELETE returns to the start-up corpus.
        self.assertEqual(self.mock.control("DELETE", "/_mock/articles")["added_articles"], 0)
        self.assertEqual(self.client.search_all("axolotl census")[0], 0)

    def test_reset_restores_the_start(self):
        self.mock.control("POST", "/_mock/faults", "endpoint=headlines;status=500")
        self.mock.control("POST", "/_mock/clock", {"advance": "5h"})
        self.client.submit("travel")
        self.mock.control("POST", "/_mock/reset")
        self.assertEqual(self.mock.control("GET", "/_mock/faults")["rules"], [])
        self.assertEqual(self.mock.control("GET", "/_mock/clock")["now"], START)
        self.assertEqual(self.mock.control("GET", "/_mock/jobs")["jobs"], [])
        self.assertEqual(self.mock.count(""), 0)


CLOCK_RANGE = "the server clock runs from 1970-01-01T00:00:00Z to 9700-01-01T00:00:00Z"


class ClockRangeTest(unittest.TestCase):
    """The clock refuses times it could not write, and the server keeps answering."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="newsmock-py-")
        cls.binary = newsmock_binary(cls.tmp)
        cls.mock = Newsmock(cls.binary, "-clock", "manual=" + START, "-keys", KEY)
        cls.client = NewsClient(cls.mock.url, KEY)

    @classmethod
    def tearDownClass(cls):
        cls.mock.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_times_out_of_range_are_a_400_and_the_server_answers(self):
        query_id = self.client.submit("harbour")
        for when in ["9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "1969-12-31T23:59:59Z"]:
            bad = self.mock.control("POST", "/_mock/clock", {"set": when}, expect=400)
            self.assertEqual(bad, {"state": "FAILED", "message": f"the clock cannot be set to {when}: {CLOCK_RANGE}; "
                                   "pick a time within it, such as 2026-01-15T12:00:00Z"})
        # The sequence: the latest time there is, then 48 hours more.
        self.mock.control("POST", "/_mock/clock", {"set": "9700-01-01T00:00:00Z"})
        bad = self.mock.control("POST", "/_mock/clock", {"advance": "48h"}, expect=400)
        self.assertEqual(bad["message"], "advance 48h0m0s would take the clock from 9700-01-01T00:00:00Z to "
                         f"9700-01-03T00:00:00Z, past 9700-01-01T00:00:00Z: {CLOCK_RANGE}; advance by at most 0s, "
                         "or set the clock back first")
        # Every endpoint that writes a time still answers, with times it can write.
        clock = self.mock.control("GET", "/_mock/clock")
        self.assertEqual(clock, {"state": "SUCCESS", "now": "9700-01-01T00:00:00Z", "manual": True})
        self.assertEqual(self.mock.control("GET", "/_mock/jobs")["jobs"], [])  # expired 7,674 years ago
        self.client.submit("harbour")
        jobs = self.mock.control("GET", "/_mock/jobs")["jobs"]
        self.assertEqual([j["expires"] for j in jobs], ["9700-01-01T01:00:00Z"])
        journal = self.mock.control("GET", "/_mock/journal")
        self.assertEqual(journal["dropped"], 0)
        self.assertEqual([e["time"] for e in journal["entries"]], [START, "9700-01-01T00:00:00Z"])
        self.assertEqual(journal["entries"][0]["query_id"], query_id)
        self.mock.control("POST", "/_mock/reset")
        self.assertEqual(self.mock.control("GET", "/_mock/clock")["now"], START)

    def test_a_start_out_of_range_is_a_flag_error(self):
        run = subprocess.run([self.binary, "-addr", "127.0.0.1:0", "-clock", "manual=9999-12-31T23:59:59Z"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 2, run.stderr)
        self.assertIn(f"the start 9999-12-31T23:59:59Z is out of range: {CLOCK_RANGE}", run.stderr)


class RealClockTest(unittest.TestCase):
    def test_moving_the_real_clock_is_a_409(self):
        tmp = tempfile.mkdtemp(prefix="newsmock-py-")
        try:
            mock = Newsmock(newsmock_binary(tmp))
            try:
                answer = mock.control("POST", "/_mock/clock", {"advance": "2h"}, expect=409)
                self.assertIn("start newsmock with -clock manual", answer["message"])
                self.assertFalse(mock.control("GET", "/_mock/clock")["manual"])
            finally:
                mock.close()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


CROSS_SITE = ("the mock takes no request from a web page of another site (this one has {}), so that a page "
              "open in your browser cannot change its faults, jobs, clock or articles, nor use its API: send requests "
              "from a program or a test (curl, your test suite), which send neither header, or use the inspector the "
              "mock serves at /_mock/ui; a proxy between a browser and the mock must pass on the browser's Host header")


class GuardTest(unittest.TestCase):
    """What a web page open in the developer's browser, or a typo in -addr,
    could do to a running newsmock, and what it gets instead."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="newsmock-py-")
        cls.binary = newsmock_binary(cls.tmp)
        cls.mock = Newsmock(cls.binary, "-clock", "manual=" + START)
        cls.host = cls.mock.url.removeprefix("http://")

    @classmethod
    def tearDownClass(cls):
        cls.mock.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        self.mock.control("POST", "/_mock/reset")

    def assert_unchanged(self):
        self.assertEqual(self.mock.control("GET", "/_mock/faults")["rules"], [])
        self.assertEqual(self.mock.control("GET", "/_mock/clock")["now"], START)
        self.assertEqual(self.mock.control("GET", "/_mock/jobs")["jobs"], [])
        self.assertEqual(self.mock.count(""), 0)

    def test_cross_site_requests_are_refused(self):
        evil = CROSS_SITE.format(f'Origin: "http://evil.example", not this server\'s "{self.host}"')
        for method, path, data, headers in [
            ("POST", "/_mock/faults", b"status=503", {"Content-Type": "text/plain", "Origin": "http://evil.example"}),
            ("POST", "/_mock/faults", b'{"fault": {"status": 503}}', {"Content-Type": "application/json", "Origin": "http://evil.example"}),
            ("PUT", "/_mock/faults", b"[]", {"Origin": "http://evil.example"}),
            ("POST", "/_mock/clock", b'{"advance": "2h"}', {"Content-Type": "application/json", "Origin": "http://evil.example"}),
            ("POST", "/api/v2/query-async", b'{"api_key": "k", "query": "cars"}', {"Content-Type": "text/plain", "Origin": "http://evil.example"}),
        ]:
            with self.subTest(method=method, path=path, headers=headers):
                status, answer = self.mock.send(method, path, data, headers)
                self.assertEqual((status, answer), (403, {"state": "FAILED", "message": evil}))
        status, answer = self.mock.send("DELETE", "/_mock/articles", None, {"Sec-Fetch-Site": "cross-site"})
        self.assertEqual((status, answer["message"]), (403, CROSS_SITE.format('Sec-Fetch-Site: "cross-site"')))
        status, answer = self.mock.send("POST", "/_mock/reset", None, {"Content-Type": "application/json", "Sec-Fetch-Site": "same-site"})
        self.assertEqual((status, answer["message"]), (403, CROSS_SITE.format('Sec-Fetch-Site: "same-site"')))
        self.assert_unchanged()
        # The same origin, and a person's own navigation, pass.
        self.assertEqual(self.mock.send("GET", "/_mock/faults", None, {"Origin": self.mock.url})[0], 200)
        self.assertEqual(self.mock.send("GET", "/_mock/faults", None, {"Sec-Fetch-Site": "none"})[0], 200)

    def test_text_and_form_posts_are_refused(self):
        fix = (": the mock takes control requests only in a form that a web page cannot send it, so that a page open "
               "in your browser cannot change it; with curl add -H 'Content-Type: application/json'")
        status, answer = self.mock.send("POST", "/_mock/faults", b"endpoint=query;status=503", {"Content-Type": "text/plain"})
        self.assertEqual((status, answer["message"]), (415, 'POST /_mock/faults needs Content-Type: application/json '
                         '(this request has Content-Type "text/plain")' + fix + "; to send a rule in newsmock's -fault "
                         "text syntax, send the header X-Newsmock-Control: 1 with it"))
        # urllib's default for a body is a form, as curl's is.
        status, answer = self.mock.send("POST", "/_mock/clock", b'{"advance": "2h"}')
        self.assertEqual((status, answer["message"]), (415, 'POST /_mock/clock needs Content-Type: application/json '
                         '(this request has Content-Type "application/x-www-form-urlencoded")' + fix))
        self.assert_unchanged()
        # The same rule as JSON, or as text with X-Newsmock-Control, is taken.
        self.mock.control("POST", "/_mock/faults", "endpoint=headlines;every=1000;status=503")
        self.mock.control("POST", "/_mock/faults", {"endpoint": "headlines", "every": 1000, "fault": {"status": 502}})
        self.assertEqual(len(self.mock.control("GET", "/_mock/faults")["rules"]), 2)

    def test_preflight_grants_nothing(self):
        req = urllib.request.Request(self.mock.url + "/_mock/faults", method="OPTIONS", headers={
            "Origin": "http://evil.example", "Access-Control-Request-Method": "PUT",
            "Access-Control-Request-Headers": "content-type"})
        try:
            urllib.request.urlopen(req, timeout=30)
            self.fail("the preflight succeeded")
        except urllib.error.HTTPError as e:
            self.assertEqual(e.code, 403)
            self.assertEqual([h for h in e.headers if h.lower().startswith("access-control-")], [])

    def test_other_host_names_are_refused(self):
        status, answer = self.mock.send("GET", "/_mock/health", None, {"Host": "attacker.example"})
        self.assertEqual((status, answer["message"]), (421, 'the Host header "attacker.example" is not a name this mock '
                         "answers to: it answers to localhost, *.localhost, IP addresses and the names given to newsmock "
                         "-allow-host (mockserver.WithAllowedHosts in Go), so that a web page whose domain is made to "
                         "resolve to this machine (DNS rebinding) cannot reach it; if you reach the mock by this name on "
                         "purpose, start newsmock with -allow-host attacker.example"))
        for host in ["localhost", "app.localhost", "127.0.0.1", "[::1]"]:
            with self.subTest(host=host):
                self.assertEqual(self.mock.send("GET", "/_mock/health", None, {"Host": host})[0], 200)
        other = Newsmock(self.binary, "-allow-host", "newsmock.internal")
        try:
            self.assertEqual(other.send("GET", "/_mock/health", None, {"Host": "newsmock.internal:8080"})[0], 200)
            self.assertEqual(other.send("GET", "/_mock/health", None, {"Host": "attacker.example"})[0], 421)
        finally:
            other.close()

    def test_binding_every_interface_needs_allow_remote(self):
        for addr in ["0.0.0.0:0", ":0"]:
            with self.subTest(addr=addr):
                run = subprocess.run([self.binary, "-addr", addr, "-log-level", "off"], capture_output=True, text=True, timeout=60)
                self.assertEqual(run.returncode, 2)
                self.assertEqual(run.stdout, "")
                self.assertEqual(run.stderr, f"newsmock: -addr {addr} listens on every network interface, where anyone "
                                 "who can reach the port could change the mock (faults, jobs, clock, articles) through "
                                 "/_mock/: listen on a loopback address such as 127.0.0.1:8080 (the default), or add "
                                 "-allow-remote if other machines must reach it (in a container, for example)\n"
                                 "Run newsmock -h to list the flags.\n")
        remote = Newsmock(self.binary, "-addr", "0.0.0.0:0", "-allow-remote")
        try:
            self.assertTrue(remote.url.startswith("http://127.0.0.1:"), remote.url)
            self.assertEqual(remote.control("GET", "/_mock/health")["state"], "SUCCESS")
        finally:
            remote.close()

    def send_head_only(self, path, length):
        """Sends only the header of a POST announcing length bytes, and
        reads the answer to the end, when the server closes."""
        host, port = self.host.rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=30) as conn:
            conn.sendall(f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
                         f"Content-Length: {length}\r\n\r\n".encode())
            answer = b""
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        return head.decode(), json.loads(body)

    def test_oversized_upload_is_refused_before_its_body(self):
        for path, length, message in [
            ("/_mock/articles", 300 << 20, "the articles are more than 268435456 bytes: send them in several POST /_mock/articles calls"),
            ("/api/v2/query", 2 << 20, "the request body is larger than 1 MiB (1048576 bytes): send only the documented fields"),
        ]:
            with self.subTest(path=path):
                head, body = self.send_head_only(path, length)  # not a byte of the body is sent
                self.assertTrue(head.startswith("HTTP/1.1 413 "), head)
                self.assertIn("\r\nConnection: close\r\n", head + "\r\n")
                self.assertEqual(body, {"state": "FAILED", "message": message})


def readme_section():
    text = (REPO / "README.md").read_text()
    m = re.search(r"^#+ Controlling newsmock from any language\n(.*?)(?=^#{2,3} [A-Za-z])", text, re.S | re.M)
    if not m:
        raise AssertionError('README.md has no section "Controlling newsmock from any language"')
    return m.group(1)


def readme_commands(section):
    """The commands of the section's sh blocks, each with the output its
    comment promises ("# => ..." on the next line), or None."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            i += 1
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cmd = [line]
            while cmd[-1].endswith("\\") and i < len(lines):
                cmd.append(lines[i])
                i += 1
            want = None
            if i < len(lines) and lines[i].startswith("# => "):
                want = lines[i].removeprefix("# => ")
                i += 1
            commands.append(("\n".join(cmd), want))
    return commands


class ReadmeCurlExamplesTest(unittest.TestCase):
    def test_examples_work_verbatim(self):
        if not shutil.which("curl"):
            message = "curl is not installed: install it (apt-get install curl) to run the README's curl examples"
            if os.environ.get("CI") == "true":
                self.fail(message + " (.ci/run installs it)")
            self.skipTest(message)
        commands = readme_commands(readme_section())
        self.assertGreater(len(commands), 10)
        start = [c for c, _ in commands if c.startswith("newsmock ")]
        self.assertEqual(len(start), 1, "the section starts newsmock exactly once")
        flags = start[0].removeprefix("newsmock ").removesuffix("&").split()
        tmp = tempfile.mkdtemp(prefix="newsmock-py-")
        mock = Newsmock(newsmock_binary(tmp), *flags)
        try:
            marker = "@@end-of-command@@"
            script = ["set -euo pipefail"]
            for cmd, _ in commands:
                if cmd.startswith("newsmock "):
                    continue
                self.assertIn(README_URL, cmd, "every example talks to newsmock's default address")
                script.append(cmd.replace(README_URL, mock.url))
                script.append(f"printf '\\n{marker}\\n'")
            run = subprocess.run(["bash", "-c", "\n".join(script)], capture_output=True, text=True, timeout=120)
            self.assertEqual(run.returncode, 0, f"the README's curl examples failed: {run.stderr}\n{run.stdout}")
            outputs = run.stdout.split(f"\n{marker}\n")
            checked = 0
            for (cmd, want), got in zip([c for c in commands if not c[0].startswith("newsmock ")], outputs):
                if want is not None:
                    self.assertEqual(got.strip(), want, f"output of {cmd}")
                    checked += 1
            self.assertGreater(checked, 5)
        finally:
            mock.close()
            shutil.rmtree(tmp, ignore_errors=True)


def doc_curl_commands(path):
    """The curl commands of a doc's sh blocks, each with the comment lines
    that follow it (what the doc says it answers)."""
    text = (REPO / path).read_text()
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            i += 1
            if not line.lstrip().startswith("curl "):
                continue
            cmd = [line]
            while cmd[-1].endswith("\\") and i < len(lines):
                cmd.append(lines[i])
                i += 1
            said = []
            while i < len(lines) and lines[i].startswith("#"):
                said.append(lines[i])
                i += 1
            commands.append(("\n".join(cmd), "\n".join(cmd + said)))
    return commands


class DocsCurlExamplesTest(unittest.TestCase):
    """The curl examples of docs/control-api.md and docs/mockserver.md run
    against newsmock as written (with its URL): each succeeds, and none is
    refused unless the doc says it fails."""

    def test_examples_work_verbatim(self):
        if not shutil.which("curl"):
            message = "curl is not installed: install it (apt-get install curl) to run the docs' curl examples"
            if os.environ.get("CI") == "true":
                self.fail(message + " (.ci/run installs it)")
            self.skipTest(message)
        tmp = tempfile.mkdtemp(prefix="newsmock-py-")
        mock = Newsmock(newsmock_binary(tmp), "-clock", "manual")
        try:
            ran = 0
            for doc in ["docs/control-api.md", "docs/mockserver.md"]:
                commands = doc_curl_commands(doc)
                self.assertGreater(len(commands), 2, f"{doc} has curl examples")
                for cmd, with_comments in commands:
                    script = cmd.replace("http://127.0.0.1:8080", mock.url).replace("$URL", mock.url)
                    with self.subTest(doc=doc, cmd=cmd):
                        run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
                        self.assertEqual(run.returncode, 0, f"{doc}: {cmd}\n{run.stderr}")
                        self.assertTrue(run.stdout.strip(), f"{doc}: {cmd} printed nothing")
                        body = run.stdout.strip().splitlines()[-1]  # after the headers of curl -i
                        if body.startswith("{") and '"state":"FAILED"' in body.replace(" ", ""):
                            self.assertIn("FAILED", with_comments, f"{doc}: {cmd} was refused: {run.stdout}")
                        ran += 1
            self.assertGreaterEqual(ran, 11)
        finally:
            mock.close()
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
