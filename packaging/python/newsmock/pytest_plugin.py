"""pytest plugin of the newsmock wheel (entry point pytest11).

newsmock_server: one newsmock per session (per worker under pytest-xdist), started with -world-per-key
plus the ini option newsmock_args. Its own world helpers (add_fault, journal, ...) refuse: its default
world is reached by no request with an api_key. Use newsmock, or newsmock_server.world(key).
newsmock: per test, the control API bound to a world of its own: .url, .api_key (the key to send, whose
world nothing else touches) and the helpers of newsmock.Control. At teardown the world's verify must be met
(its expectations, and every fault rule not optional fired), else the test errors with newsmock's message;
@pytest.mark.newsmock_no_verify skips that check. The world is dropped after the test.
"""
import os
import uuid

import pytest

from ._server import NewsmockError, start


def pytest_configure(config):
    config.addinivalue_line("markers", "newsmock_no_verify: the newsmock fixture does not check the world's "
                            "expectations and fault rules at teardown")


def pytest_addoption(parser):
    parser.addini("newsmock_args", type="args", default=[],
                  help="more newsmock flags for the newsmock_server fixture, e.g. -clock manual")


@pytest.fixture(scope="session")
def newsmock_server(request):
    """One newsmock with a world per key, for the whole session (or xdist worker)."""
    args = ["-world-per-key"] + list(request.config.getini("newsmock_args"))
    with start(args=args) as server:
        server.refusal_hint = ("use the newsmock fixture, a world of the test's own (newsmock.add_fault(...), "
                               "and send newsmock.api_key), or newsmock_server.world(key) with the api_key your "
                               "requests send")
        yield server


@pytest.fixture
def newsmock(newsmock_server, request):
    """The control API of a world of this test's own: send newsmock.api_key in your requests. At teardown,
    fails unless the world's verify is met (unless the test is marked newsmock_no_verify)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    world = newsmock_server.world("pytest-%s-%s" % (worker, uuid.uuid4().hex))
    yield world
    try:
        if request.node.get_closest_marker("newsmock_no_verify") is None:
            result = world.verify()
            if not result["met"]:
                pytest.fail("%s\n(the newsmock fixture checks this at teardown; mark the test "
                            "@pytest.mark.newsmock_no_verify to skip the check)" % result["message"], pytrace=False)
    finally:
        try:
            world.drop_world()
        except NewsmockError:
            pass
