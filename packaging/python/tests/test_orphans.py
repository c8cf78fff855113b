"""No newsmock outlives the program that started it: pytest (alone and under pytest-xdist) and a plain
script, ended by SIGINT, SIGTERM or SIGKILL, or by returning without stop() (tools/dist/check, Linux)."""
import json
import os
import select
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.parse

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs os.pidfd_open (Linux, Python 3.9+)")

WAIT = 60  # seconds: the bound of every wait below; a slow machine never needs it

# Each file of the inner suite holds one test: a mock from the fixture and one from start() without stop(),
# both reported on the FIFO $READY, then a wait for the end. Two files: under -n 2 --dist loadfile, each
# worker runs one.
INNER_TEST = textwrap.dedent('''
    import json, os, threading
    import newsmock as nm

    def test_hold(newsmock_world, newsmock_server):
        extra = nm.start()  # never stopped
        with open(os.environ["READY"], "w") as f:
            f.write(json.dumps({"runner": os.getpid(), "mocks": [
                [newsmock_server.process.pid, newsmock_server.url], [extra.process.pid, extra.url]]}) + "\\n")
        threading.Event().wait()  # until the runner is ended
    ''')

SCRIPT = textwrap.dedent('''
    import json, os, sys, threading
    import newsmock
    server = newsmock.start()  # never stopped
    with open(os.environ["READY"], "w") as f:
        f.write(json.dumps({"runner": os.getpid(), "mocks": [[server.process.pid, server.url]]}) + "\\n")
    if sys.argv[1] == "wait":
        threading.Event().wait()
    ''')


def ps(pid):
    """ps's line of pid, for messages."""
    out = subprocess.run(["ps", "-o", "pid,ppid,stat,args", "-p", str(pid)], capture_output=True, text=True).stdout
    return out.strip().splitlines()[-1] if out.strip() else "(no such process)"


def assert_gone(pid, url):
    """Waits until process pid has ended (a zombie has), then checks that its port refuses connections."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        fd = None
    if fd is not None:
        try:
            ready, _, _ = select.select([fd], [], [], WAIT)
        finally:
            os.close(fd)
        assert ready, "newsmock %d still runs %d s after its runner ended: %s" % (pid, WAIT, ps(pid))
    address = urllib.parse.urlsplit(url)
    try:
        socket.create_connection((address.hostname, address.port), timeout=10).close()
    except ConnectionRefusedError:
        return
    pytest.fail("%s still accepts connections after newsmock %d ended" % (url, pid))


def run_and_end(tmp_path, cmd, want, sig):
    """Runs cmd (with $READY, a FIFO), reads want readiness lines from it, then sends sig to the process
    (None: lets it end by itself) and checks that every newsmock the lines name is gone."""
    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # read and write: never an end of file
    out = open(tmp_path / "output", "w+")
    # Without NEWSMOCK_URL (a run pointed at a mock of its own): the inner suite must start its newsmock.
    env = {k: v for k, v in os.environ.items() if k != "NEWSMOCK_URL"}
    proc = subprocess.Popen(cmd, cwd=tmp_path, env={**env, "READY": str(fifo)},
                            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    try:
        lines, buf, deadline = [], b"", time.monotonic() + WAIT
        while len(lines) < want:
            ready, _, _ = select.select([fd], [], [], max(0, deadline - time.monotonic()))
            if not ready:
                out.seek(0)
                pytest.fail("%s: %d of %d mocks reported within %d s; exit code %s; output:\n%s" % (
                    " ".join(cmd), len(lines), want, WAIT, proc.poll(), out.read()))
            buf += os.read(fd, 65536)
            *done, buf = buf.split(b"\n")
            lines += [json.loads(line) for line in done]
        if sig is not None:
            os.kill(proc.pid, sig)
        try:
            proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail("%s did not end within %d s of %s" % (" ".join(cmd), WAIT, sig))
    finally:
        os.close(fd)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    for line in lines:
        for pid, url in line["mocks"]:
            assert_gone(pid, url)
    return lines


SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL]


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: s.name)
@pytest.mark.parametrize("workers", [0, 2], ids=["main", "n2"])
def test_pytest_ended_by_a_signal(tmp_path, workers, sig):
    for name in ("test_a.py", "test_b.py"):
        (tmp_path / name).write_text(INNER_TEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\nnewsmock_args = -log-level warn\n")
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    if workers:
        cmd += ["-n", str(workers), "--dist", "loadfile"]
    lines = run_and_end(tmp_path, cmd, max(workers, 1), sig)
    if workers:
        assert len({line["runner"] for line in lines}) == workers, lines


@pytest.mark.parametrize("sig", SIGNALS + [None], ids=lambda s: s.name if s else "exit")
def test_script_ended(tmp_path, sig):
    (tmp_path / "script.py").write_text(SCRIPT)
    run_and_end(tmp_path, [sys.executable, "script.py", "wait" if sig else "exit"], 1, sig)
