"""Start newsmock and drive its control API (docs/control-api.md), with the standard library only."""
import atexit
import collections
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
import traceback
import urllib.error
import urllib.parse
import urllib.request
import uuid

LISTEN_PREFIX = "newsmock listening on "
KEY_HEADER = "X-Newsmock-Key"
# Control paths about the whole server, not one world.
_SERVER_PATHS = re.compile(r"^/_mock/(worlds|health|record)(/|\?|$)")
_EXE = "newsmock.exe" if sys.platform == "win32" else "newsmock"
# The variables the helpers read; a started newsmock never sees them.
CLIENT_VARIABLES = ("NEWSMOCK_URL", "NEWSMOCK_BINARY")
_HERE = os.path.dirname(os.path.abspath(__file__))


def _version():
    try:
        from importlib.metadata import version

        return version("newsmock")
    except Exception:  # not installed from a wheel
        return "devel"


VERSION = _version()
# newsmock's errors name the Python way of doing things for this caller.
USER_AGENT = "newsmock-python/" + VERSION


def _caller():
    """file:line of the first frame outside this package: the test's line that made the call."""
    for frame in reversed(traceback.extract_stack()):
        if not os.path.abspath(frame.filename).startswith(_HERE + os.sep):
            return "%s:%d" % (frame.filename, frame.lineno)
    return None


class NewsmockError(Exception):
    """newsmock could not start, or a control call failed (status is the HTTP status, body the answer)."""

    def __init__(self, message, status=None, body=None):
        super().__init__(message)
        self.status = status
        self.body = body


class VerifyError(AssertionError):
    """verify(check=True) found the world's expectations unmet: the message is newsmock's (what was expected,
    what came closest), result its whole answer (met, unmet, unfired_faults, unexpected, unexpected_count)."""

    def __init__(self, result, declared=()):
        message = result.get("message") or "newsmock: the requests were not as expected"
        if declared:
            message += "\n(expectations and fault rules declared at %s)" % ", ".join(declared)
        super().__init__(message)
        self.result = result


def _duration(d):
    """A Go duration string from a string ("2s"), a number of seconds or a datetime.timedelta: the one rule of
    every duration the helpers take (Node's too: numbers are seconds, strings Go durations)."""
    if isinstance(d, datetime.timedelta):
        d = d.total_seconds()
    if isinstance(d, (int, float)) and not isinstance(d, bool):
        return "%dms" % round(d * 1000)
    return d


def _rfc3339(when):
    """An RFC 3339 string from a string or a datetime (UTC when it has no time zone)."""
    if isinstance(when, datetime.datetime):
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.timezone.utc)
        return when.isoformat()
    return when


def find_binary():
    """The newsmock binary: $NEWSMOCK_BINARY, else the one this wheel installed, else newsmock on PATH."""
    env = os.environ.get("NEWSMOCK_BINARY")
    if env:
        if not os.path.isfile(env):
            raise NewsmockError("NEWSMOCK_BINARY is %r, which is not a file" % env)
        return env
    dirs = [sysconfig.get_path("scripts")]
    try:
        dirs.append(sysconfig.get_path("scripts", scheme=sysconfig.get_preferred_scheme("user")))
    except (AttributeError, KeyError):  # Python < 3.10
        dirs.append(sysconfig.get_path("scripts", scheme=os.name + "_user"))
    # pip install --target DIR puts the scripts in DIR/bin next to the package.
    dirs.append(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bin"))
    for d in dirs:
        if d and os.path.isfile(os.path.join(d, _EXE)):
            return os.path.join(d, _EXE)
    found = shutil.which(_EXE)
    if found:
        return found
    raise NewsmockError(
        "the newsmock binary is not installed: the newsmock wheel puts it in the scripts directory (%s); "
        "reinstall the wheel for this platform, or set NEWSMOCK_BINARY to a newsmock binary "
        "(from a clone of the repository: go build -o newsmock ./cmd/newsmock)" % dirs[0])


class Control:
    """The control API of one newsmock, acting on one world: the default one, or that of api_key.

    Every method answers the JSON object newsmock answers (docs/control-api.md), or the part named.
    """

    def __init__(self, url, api_key=None, timeout=30.0):
        self.url = url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.declared = []  # file:line of the calls that declared expectations and fault rules

    def _declare(self):
        where = _caller()
        if where and where not in self.declared:
            self.declared.append(where)

    def world(self, api_key):
        """The same control API acting on the world of api_key (header X-Newsmock-Key)."""
        if not isinstance(api_key, str) or not api_key:
            raise NewsmockError("world(%r): give the api_key your requests send, a non-empty string" % (api_key,))
        return Control(self.url, api_key, self.timeout)

    def new_world(self, prefix="world"):
        """The control API of a world of a fresh key (prefix-<uuid>), for a test of its own."""
        return self.world("%s-%s" % (prefix, uuid.uuid4().hex))

    def default_world(self):
        """The control API acting on the default world, even under -world-per-key (where no keyed request
        reaches it)."""
        return Control(self.url, None, self.timeout)

    def _guard(self, method, path):
        """Raises NewsmockError when the call would act on a world no request reaches."""

    def call(self, method, path, body=None, text=None, query=None, timeout=None):
        """One control call: body is sent as JSON, text as plain text (a -fault rule)."""
        if not _SERVER_PATHS.match(path):
            self._guard(method, path)
        url = self.url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
        data = None
        if text is not None:
            headers.update({"Content-Type": "text/plain", "X-Newsmock-Control": "1"})
            data = text.encode()
        elif body is not None:
            data = json.dumps(body).encode()
        if self.api_key is not None:
            headers[KEY_HEADER] = self.api_key
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                message = json.loads(raw).get("message", raw.decode(errors="replace"))
            except ValueError:
                message = raw.decode(errors="replace")
            raise NewsmockError("%s %s: %d %s" % (method, path, e.code, message), e.code, raw) from None
        return json.loads(raw) if raw else {}

    # Faults: a rule is a dict (docs/control-api.md "Faults") or a string in -fault syntax.
    def faults(self):
        return self.call("GET", "/_mock/faults")["rules"]

    def set_faults(self, rules):
        self._declare()
        return self.call("PUT", "/_mock/faults", body={"rules": list(rules)})["rules"]

    def add_fault(self, rule):
        """rule: "endpoint=query;times=1;status=503" or {"endpoint": "query", "body": {"query": "storm"},
        "fault": {"status": 503}} (body: members the request body must hold, as in expect())."""
        self._declare()
        if isinstance(rule, str):
            return self.call("POST", "/_mock/faults", text=rule)["rules"]
        return self.call("POST", "/_mock/faults", body=rule)["rules"]

    def remove_fault(self, index):
        return self.call("DELETE", "/_mock/faults/%d" % index)["rules"]

    def clear_faults(self):
        return self.call("DELETE", "/_mock/faults")["rules"]

    # Clock: manual for the whole mock (-clock manual), or for this world (use_manual_clock).
    def use_manual_clock(self, start=None):
        """Switches this world to a manual clock (the others keep theirs), at start (an RFC 3339 string or a
        datetime) or at the world's current time. Returns clock()."""
        value = "manual"
        if start is not None:
            value += "=" + _rfc3339(start)
        self.call("PATCH", "/_mock/settings", body={"clock": value})
        return self.clock()

    def use_real_clock(self):
        """Switches this world back to real time. Returns clock()."""
        self.call("PATCH", "/_mock/settings", body={"clock": "real"})
        return self.clock()

    def clock(self):
        return self.call("GET", "/_mock/clock")

    def advance_clock(self, duration):
        """duration: a Go duration such as "90s", a number of seconds or a datetime.timedelta."""
        return self.call("POST", "/_mock/clock", body={"advance": _duration(duration)})

    def set_clock(self, when):
        """when: an RFC 3339 string, or a datetime (UTC when it has no time zone)."""
        return self.call("POST", "/_mock/clock", body={"set": _rfc3339(when)})

    # Articles.
    def articles(self):
        return self.call("GET", "/_mock/articles")

    def add_articles(self, articles):
        return self.call("POST", "/_mock/articles", body=list(articles))

    def replace_articles(self, articles):
        return self.call("PUT", "/_mock/articles", body=list(articles))

    def reset_articles(self):
        return self.call("DELETE", "/_mock/articles")

    # Journal.
    def journal(self, path=None, status=None, since=None, limit=None, body=None, wait=None, min=None):
        """The world's recorded requests, oldest first, each with its body as a dict (api_key redacted).

        path: an endpoint ("query", "query-async", "get-results", "headlines") or a path; status: the HTTP
        status answered; since: entries after this seq; limit: at most this many; body: a dict of members
        the request body must hold ({"query": "election", "page": 2}; a dotted name reaches into objects).
        wait ("2s", seconds or a timedelta; up to 1 minute) waits until min (default 1) entries match, for
        requests another process makes, and answers what there is when the wait runs out.
        """
        return self._journal(body, wait, path=path, status=status, since=since, limit=limit, min=min)["entries"]

    def journal_count(self, path=None, status=None, since=None, body=None, wait=None, min=None):
        """How many recorded requests match: the filters, wait and min of journal()."""
        return self._journal(body, wait, path=path, status=status, since=since, min=min, count="true")["count"]

    def _journal(self, body, wait, **query):
        for name, value in (body or {}).items():
            query["body." + name] = value if isinstance(value, str) else json.dumps(value)
        timeout = None
        if wait is not None:
            query["wait"] = _duration(wait)
            timeout = self.timeout + 60  # newsmock waits at most a minute
        return self.call("GET", "/_mock/journal", query=query, timeout=timeout)

    def clear_journal(self):
        return self.call("DELETE", "/_mock/journal")

    # Expectations (docs/control-api.md "Expectations and verify").
    def expect(self, endpoint=None, body=None, times=None, min=None, max=None):
        """Declares what the world must get from now on: requests to endpoint (None: any) whose body holds
        the members of body, exactly times (0: never), or from min to max (max None: no upper bound); none
        of the three: at least once. A request none matches is listed as unexpected, and fails verify only in
        a strict world (update_settings(strict=True)). Returns the world's expectations, each with its count."""
        self._declare()
        given = {"endpoint": endpoint, "body": body, "times": times, "min": min, "max": max}
        return self.call("POST", "/_mock/expectations",
                         body={k: v for k, v in given.items() if v is not None})["expectations"]

    def expectations(self):
        return self.call("GET", "/_mock/expectations")["expectations"]

    def clear_expectations(self):
        return self.call("DELETE", "/_mock/expectations")["expectations"]

    def verify(self, check=False):
        """newsmock's verdict on the world: {"met": bool, "message": ..., "unmet": [...], "unfired_faults":
        [...], "unexpected": [...], "unexpected_count": n}. Fault rules that never fired are unmet unless
        optional. check=True raises VerifyError, with newsmock's message, when it is not met."""
        result = self.call("GET", "/_mock/verify")
        if check and not result["met"]:
            raise VerifyError(result, self.declared)
        return result

    # Settings (docs/control-api.md "Settings").
    def settings(self):
        return self.call("GET", "/_mock/settings")["settings"]

    def update_settings(self, **changes):
        """Changes the settings named and keeps the others: pending_polls, pending, rate_limit, burst,
        job_ttl, max_jobs, shape ({"results": "top-level", "totals": "totalArticles"}), strict (True: a
        request no expectation matches fails verify). pending and job_ttl take a Go duration, seconds or a
        timedelta. Returns the settings."""
        for name in ("pending", "job_ttl"):
            if name in changes:
                changes[name] = _duration(changes[name])
        return self.call("PATCH", "/_mock/settings", body=changes)["settings"]

    def reset_settings(self):
        """Back to the settings newsmock started with. Returns them."""
        return self.call("DELETE", "/_mock/settings")["settings"]

    # Jobs.
    def jobs(self):
        return self.call("GET", "/_mock/jobs")["jobs"]

    def job(self, query_id):
        return self.call("GET", "/_mock/jobs/" + urllib.parse.quote(query_id, safe=""))["job"]

    def force_job(self, query_id, state, message=None):
        body = {"state": state}
        if message is not None:
            body["message"] = message
        return self.call("POST", "/_mock/jobs/" + urllib.parse.quote(query_id, safe=""), body=body)["job"]

    def expire_job(self, query_id):
        return self.call("DELETE", "/_mock/jobs/" + urllib.parse.quote(query_id, safe=""))

    # The whole world.
    def reset(self):
        return self.call("POST", "/_mock/reset", body={})

    def drop_world(self):
        """Drops this key's world (without a key: every world but the default one)."""
        return self.call("DELETE", "/_mock/worlds")

    def worlds(self):
        return self.call("GET", "/_mock/worlds")["worlds"]

    def health(self):
        return self.call("GET", "/_mock/health")

    def __repr__(self):
        return "<newsmock %s%s>" % (self.url, " world of key %r" % self.api_key if self.api_key else "")


_live = set()  # the servers start() made that are not stopped yet
_hooked = False


def _stop_all():
    """Stops every newsmock still running (at exit, or on SIGTERM or SIGHUP)."""
    for server in list(_live):
        server.stop(timeout=5.0)


def _hook_exit():
    """At the first start(): stop the mocks at exit, and on SIGTERM and SIGHUP too, which would otherwise end
    Python without running atexit. SIGINT raises KeyboardInterrupt, so the exit hook runs. A handler set by
    the program is kept and called after; none is set outside the main thread. Whatever ends Python,
    newsmock's -exit-with-parent ends the mocks as well."""
    global _hooked
    if _hooked:
        return
    _hooked = True
    atexit.register(_stop_all)
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is None:
            continue
        previous = signal.getsignal(signum)
        if previous in (signal.SIG_IGN, None):
            continue

        def handler(sig, frame, previous=previous):
            _stop_all()
            if callable(previous):
                previous(sig, frame)
            else:  # the default: end as the signal would have
                signal.signal(sig, signal.SIG_DFL)
                os.kill(os.getpid(), sig)

        signal.signal(signum, handler)


class _Mock(Control):
    """A whole newsmock: under -world-per-key the helpers that act on a world refuse on it (its default world is
    reached by no request with an api_key): use world(key), or default_world() for the default world."""

    # What to use instead of the mock's helpers under -world-per-key; the pytest plugin sets its own.
    refusal_hint = "use server.world(key) with the api_key your requests send"
    _world_per_key = None

    def world_per_key(self):
        """True when this newsmock runs with -world-per-key (GET /_mock/worlds says so)."""
        if self._world_per_key is None:
            self._world_per_key = self.default_world().call("GET", "/_mock/worlds").get("world_per_key") is True
        return self._world_per_key

    def _guard(self, method, path):
        if self.world_per_key():
            raise NewsmockError(
                "%s %s would act on the default world of a newsmock running with -world-per-key, which no request "
                "with an api_key reaches, so it would never be seen: %s (or default_world() for the default world "
                "itself)" % (method, path, self.refusal_hint))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class Remote(_Mock):
    """A newsmock already running (a container, a CI service, another process): connect(url) gives one.
    stop() leaves it running."""

    def stop(self, timeout=None):
        """Does nothing: this process did not start the mock."""
        return None


def connect(url, timeout=30.0):
    """The control API of the newsmock already running at url (e.g. $NEWSMOCK_URL): checks that it answers
    GET /_mock/health, else raises NewsmockError saying so."""
    remote = Remote(url, timeout=timeout)
    try:
        remote.health()
    except (OSError, ValueError, NewsmockError) as e:
        raise NewsmockError("no newsmock answers at %s (GET /_mock/health: %s): start it first, or unset "
                            "NEWSMOCK_URL (--newsmock-url, newsmock_url) to start one here" % (url, e)) from None
    return remote


class Server(_Mock):
    """A running newsmock this process started: a context manager whose exit stops it. log holds its last lines
    of stderr."""

    def __init__(self, process, url, log):
        super().__init__(url)
        self.process = process
        self._log = log

    @property
    def log(self):
        return "".join(self._log)

    def stop(self, timeout=15.0):
        """SIGTERM (newsmock drains and exits), then waits; kills it after timeout. Returns the exit code."""
        _live.discard(self)
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdin.close()
        return self.process.returncode


def start(args=(), binary=None, timeout=15.0, env=None):
    """Starts newsmock on 127.0.0.1 at a free port and waits until it listens.

    args are more newsmock flags (an -addr among them wins); binary defaults to find_binary(); env holds
    variables added to this process's environment. Use it as a context manager, or call stop().

    newsmock runs with -exit-with-parent and its standard input a pipe from this process, so it exits when
    this process does, however it ends (SIGKILL included); a mock never stopped is stopped at exit.
    """
    binary = binary or find_binary()
    cmd = [binary, "-addr", "127.0.0.1:0", "-exit-with-parent"] + list(args)
    env = {k: v for k, v in {**os.environ, **(env or {})}.items() if k not in CLIENT_VARIABLES}
    _hook_exit()
    try:
        process = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=env, text=True, encoding="utf-8", errors="replace")
    except OSError as e:
        raise NewsmockError("could not start %s: %s" % (binary, e)) from e
    log = collections.deque(maxlen=200)
    listening = threading.Event()
    found = []

    def read_stdout():
        for line in process.stdout:
            if not found and line.startswith(LISTEN_PREFIX):
                found.append(line[len(LISTEN_PREFIX):].strip())
                listening.set()
        listening.set()  # standard output closed: newsmock is exiting

    def read_stderr():
        for line in process.stderr:
            log.append(line)

    threading.Thread(target=read_stdout, daemon=True, name="newsmock-stdout").start()
    err_reader = threading.Thread(target=read_stderr, daemon=True, name="newsmock-stderr")
    err_reader.start()
    listening.wait(timeout)
    if not found:
        try:
            # Closed standard output means an exit on its way; else the wait timed out.
            process.wait(5 if listening.is_set() else 0)
            why = "exited with code %d" % process.returncode
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            why = "no listening line within %gs" % timeout
        process.stdin.close()
        err_reader.join(2)
        raise NewsmockError("%s %s: %s; its standard error:\n%s" % (
            binary, " ".join(args), why, "".join(log) or "(nothing)"))
    server = Server(process, found[0], log)
    _live.add(server)
    return server
