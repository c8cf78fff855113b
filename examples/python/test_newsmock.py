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


def newsmock_binary(tmp):
    """The newsmock to test: $NEWSMOCK, or one built from this repository."""
    if os.environ.get("NEWSMOCK"):
        return os.environ["NEWSMOCK"]
    out = os.path.join(tmp, "newsmock")
    subprocess.run(["go", "build", "-o", out, "./cmd/newsmock"], cwd=REPO, check=True)
    return out


class Newsmock:
    """A running newsmock on a free loopback port."""

    def __init__(self, binary, *flags):
        self.proc = subprocess.Popen([binary, "-addr", "127.0.0.1:0", "-log-level", "off", *flags],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
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
        self.proc.stdout.close()
        self.proc.stderr.close()

    def control(self, method, path, body=None, expect=200):
        """Calls a /_mock/ endpoint and returns the decoded answer."""
        data = None
        if body is not None:
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                status, payload = resp.status, resp.read()
        except urllib.error.HTTPError as e:
            status, payload = e.code, e.read()
        answer = json.loads(payload)
        if status != expect:
            raise AssertionError(f"{method} {path}: status {status}, want {expect}: {answer}")
        return answer

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
        self.assertTrue(all('"[redacted]"' in e["body"] and KEY not in e["body"] for e in after), after)

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


if __name__ == "__main__":
    unittest.main()
