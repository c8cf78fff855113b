"""pytest plugin of the newsmock wheel (entry point pytest11).

newsmock_server: one newsmock per session (per worker under pytest-xdist), started with -world-per-key
plus the ini option newsmock_args; or, with --newsmock-url, $NEWSMOCK_URL or the ini option newsmock_url,
the newsmock already running there (it must run with -world-per-key; nothing is started). Its own world
helpers (add_fault, journal, ...) refuse: its default world is reached by no request with an api_key. Use
newsmock_world, or newsmock_server.world(key).
newsmock_world: per test, the control API bound to a world of its own: .url, .api_key (the key to send,
whose world nothing else touches) and the helpers of newsmock.Control. After the test its world's verify
must be met (its expectations, no unexpected request in a strict world, every fault rule not optional
fired), else the test fails with newsmock's message; @pytest.mark.newsmock_no_verify skips that check.
The world is dropped after the test.
"""
import os
import warnings

import pytest

from ._server import NewsmockError, VerifyError, connect, start

URL_VARIABLE = "NEWSMOCK_URL"
_WORLD = pytest.StashKey()
_NO_VERIFY_HINT = "(the newsmock_world fixture checks this after the test; mark the test " \
                  "@pytest.mark.newsmock_no_verify to skip the check)"


def pytest_configure(config):
    config.addinivalue_line("markers", "newsmock_no_verify: the newsmock_world fixture does not check the "
                            "world's expectations and fault rules after the test")


def pytest_addoption(parser):
    parser.addini("newsmock_args", type="args", default=[],
                  help="more newsmock flags for the newsmock_server fixture, e.g. -clock manual")
    parser.addini("newsmock_url", default="",
                  help="the URL of a newsmock already running (with -world-per-key) to use instead of starting one")
    parser.getgroup("newsmock").addoption(
        "--newsmock-url", default=None,
        help="the URL of a newsmock already running (with -world-per-key) to use instead of starting one; "
             "also $NEWSMOCK_URL or the ini option newsmock_url")


def external_url(config):
    """The URL of the newsmock to use instead of starting one: --newsmock-url, else $NEWSMOCK_URL, else the ini
    option newsmock_url; None to start one."""
    return config.getoption("newsmock_url") or os.environ.get(URL_VARIABLE) or config.getini("newsmock_url") or None


@pytest.fixture(scope="session")
def newsmock_server(request):
    """One newsmock with a world per key, for the whole session (or xdist worker): started here, or the one
    at --newsmock-url / $NEWSMOCK_URL / newsmock_url."""
    hint = ("use the newsmock_world fixture, a world of the test's own (newsmock_world.add_fault(...), and send "
            "newsmock_world.api_key), or newsmock_server.world(key) with the api_key your requests send")
    url = external_url(request.config)
    if url:
        args = request.config.getini("newsmock_args")
        if args:
            warnings.warn("newsmock_args (%s) are not applied to the newsmock at %s, which is already running: "
                          "give it those flags where it starts" % (" ".join(args), url))
        server = connect(url)
        if not server.world_per_key():
            raise NewsmockError(
                "the newsmock at %s runs without -world-per-key, and the newsmock_world fixture gives each test a "
                "world of its own key: start it with -world-per-key (in a container: "
                "-e NEWSMOCK_WORLD_PER_KEY=true)" % url)
        server.refusal_hint = hint
        yield server
        return
    args = ["-world-per-key"] + list(request.config.getini("newsmock_args"))
    with start(args=args) as server:
        server.refusal_hint = hint
        yield server


@pytest.fixture
def newsmock_world(newsmock_server, request):
    """The control API of a world of this test's own: send newsmock_world.api_key in your requests. After the
    test, fails it unless the world's verify is met (unless the test is marked newsmock_no_verify)."""
    world = newsmock_server.new_world("pytest-%s" % os.environ.get("PYTEST_XDIST_WORKER", "main"))
    world.checked = request.node.get_closest_marker("newsmock_no_verify") is not None
    request.node.stash[_WORLD] = world
    yield world
    try:
        if not world.checked:  # the test failed, or the fixture came after it: check at teardown
            _check(world)
    finally:
        try:
            world.drop_world()
        except NewsmockError:
            pass


def _check(world):
    """Fails the running test unless the world's verify is met."""
    world.checked = True
    try:
        world.verify(check=True)
        return
    except VerifyError as e:
        message = "%s\n%s" % (e, _NO_VERIFY_HINT)
    pytest.fail(message, pytrace=False)


@pytest.hookimpl(hookwrapper=True)
def pytest_pyfunc_call(pyfuncitem):
    """Checks the newsmock_world of a test that passed as part of the test itself (also when the test got it
    from request.getfixturevalue), so that an unmet expectation is the test's failure, not an error at
    teardown. A test that failed keeps its own failure; its world is checked at teardown."""
    outcome = yield
    world = pyfuncitem.stash.get(_WORLD, None)
    if outcome.excinfo is None and world is not None and not world.checked:
        _check(world)
