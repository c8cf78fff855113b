"""newsmock, the mock news search service, for Python tests.

    import newsmock
    with newsmock.start(args=["-clock", "manual"]) as server:
        server.add_fault("endpoint=query;times=1;status=503")
        ...  # point your client at server.url

The wheel carries the newsmock binary for its platform; NEWSMOCK_BINARY overrides it. With pytest, the
fixtures newsmock (one world per test, verified at teardown) and newsmock_server come with the wheel
(newsmock.pytest_plugin).
"""
from ._server import Control, NewsmockError, Server, VerifyError, find_binary, start

__all__ = ["Control", "NewsmockError", "Server", "VerifyError", "find_binary", "start"]

try:
    from importlib.metadata import version as _version

    __version__ = _version("newsmock")
except Exception:  # not installed from a wheel
    __version__ = "devel"
