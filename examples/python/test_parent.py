"""newsmock -exit-with-parent: a newsmock never outlives the program that
started it, however that program ends.

A parent process starts newsmock with -exit-with-parent and its standard
input a pipe (as the examples' Newsmock helper does), reports newsmock's pid
and URL, and waits; the test ends the parent with SIGTERM, SIGKILL, or by
closing its end of the pipe, then waits for newsmock to end and finds its
port closed.

Standard library only (Linux: os.pidfd_open). Run:
python3 -m unittest discover -s examples/python -v
"""

import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.parse

from test_newsmock import newsmock_binary

WAIT = 60  # seconds: the bound of every wait; a slow machine never needs it

PARENT = """
import subprocess, sys, threading
mock = subprocess.Popen([sys.argv[1], "-addr", "127.0.0.1:0", "-exit-with-parent", "-log-level", "off"],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
url = mock.stdout.readline().strip().removeprefix("newsmock listening on ")
print(mock.pid, url, flush=True)
if sys.argv[2] == "close":
    mock.stdin.close()  # the parent lets go of newsmock, and goes on
threading.Event().wait()
"""


@unittest.skipUnless(hasattr(os, "pidfd_open"), "needs os.pidfd_open (Linux, Python 3.9+)")
class ExitWithParentTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="newsmock-py-")
        cls.binary = newsmock_binary(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def check(self, how):
        parent = subprocess.Popen([sys.executable, "-c", PARENT, self.binary, how],
                                  stdout=subprocess.PIPE, text=True)
        try:
            line = []
            reader = threading.Thread(target=lambda: line.append(parent.stdout.readline()), daemon=True)
            reader.start()
            reader.join(WAIT)
            self.assertTrue(line and line[0], f"the parent reported no newsmock within {WAIT} s")
            pid, url = line[0].split()
            pid = int(pid)
            pidfd = os.pidfd_open(pid)
            if how != "close":
                parent.send_signal(getattr(signal, how))
                parent.wait(WAIT)
            try:
                ready, _, _ = select.select([pidfd], [], [], WAIT)
            finally:
                os.close(pidfd)
            self.assertTrue(ready, f"newsmock {pid} still runs {WAIT} s after {how}")
            address = urllib.parse.urlsplit(url)
            with self.assertRaises(ConnectionRefusedError, msg=f"{url} still listens after newsmock ended"):
                socket.create_connection((address.hostname, address.port), timeout=10).close()
        finally:
            parent.kill()
            parent.wait()
            parent.stdout.close()

    def test_parent_killed(self):
        self.check("SIGKILL")

    def test_parent_terminated(self):
        self.check("SIGTERM")

    def test_standard_input_closed(self):
        self.check("close")


if __name__ == "__main__":
    unittest.main()
