"""Early answers from Python: a request newsmock refuses before reading its
body (a body over the limit, a control POST of the wrong type, a request
from another site, an unknown Host) gets its JSON answer, not a reset
connection, with urllib and requests, which send the whole body before
they read the answer.

Run:  python3 -m unittest discover -s examples/python -v
"""

import json
import os
import shutil
import tempfile
import unittest
import urllib.error
import urllib.request

from test_newsmock import Newsmock, newsmock_binary

try:
    import requests
except ImportError:  # Debian: apt-get install python3-requests
    requests = None

TRIES = 50
BIG = b'{"api_key": "k", "query": "' + b"x" * (2 << 20) + b'"}'  # 2 MiB, over the 1 MiB limit


class EarlyAnswerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="newsmock-py-early-")
        cls.mock = Newsmock(newsmock_binary(cls.tmp))

    @classmethod
    def tearDownClass(cls):
        cls.mock.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    # Each case: path, headers, body, the status, and the start of the message.
    CASES = [
        ("/api/v2/query", {"Content-Type": "application/json"}, BIG, 413,
         "the request body is larger than 1 MiB"),
        ("/_mock/clock", {"Content-Type": "application/json"}, BIG, 413,
         "the request body is larger than 1 MiB"),
        ("/_mock/faults", {"Content-Type": "text/plain"}, b"status=503" * 50000, 415,
         "POST /_mock/faults needs Content-Type: application/json"),
        ("/api/v2/query", {"Content-Type": "application/json", "Origin": "http://evil.example"}, BIG, 403,
         "the mock takes no request from a web page of another site"),
        ("/api/v2/query", {"Content-Type": "application/json", "Host": "evil.example"}, BIG, 421,
         'the Host header "evil.example" is not a name this mock answers to'),
    ]

    def check(self, send):
        for path, headers, body, status, message in self.CASES:
            with self.subTest(path=path, status=status):
                seen = {}
                for _ in range(TRIES):
                    got = send(self.mock.url + path, headers, body)
                    seen[got] = seen.get(got, 0) + 1
                self.assertEqual(seen, {(status, message): TRIES})

    def test_urllib(self):
        def send(url, headers, body):
            req = urllib.request.Request(url, data=body, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=30) as resp:
                    return resp.status, "answered"
            except urllib.error.HTTPError as e:
                return e.code, json.loads(e.read())["message"][:len(self.message_of(e.code))]
            except OSError as e:  # ConnectionResetError, BrokenPipeError: what this test is about
                return type(e).__name__, str(e)
        self.check(send)

    def test_requests(self):
        if requests is None:
            if os.environ.get("CI") == "true":
                self.fail("python3-requests is not installed (apt-get install python3-requests)")
            self.skipTest("requests is not installed (Debian: apt-get install python3-requests)")

        def send(url, headers, body):
            try:
                r = requests.post(url, data=body, headers=headers, timeout=30)
            except requests.ConnectionError as e:
                return "ConnectionError", str(e)
            return r.status_code, r.json()["message"][:len(self.message_of(r.status_code))]
        self.check(send)

    def message_of(self, status):
        return next(m for _, _, _, s, m in self.CASES if s == status)


if __name__ == "__main__":
    unittest.main()
