"""newsmock, the mock news search service, for Python tests.

    import newsmock
    with newsmock.start(args=["-clock", "manual"]) as server:
        server.add_fault("endpoint=query;times=1;status=503")
        ...  # point your client at server.url

The wheel carries the newsmock binary for its platform; NEWSMOCK_BINARY overrides it. connect(url) drives a
newsmock already running. Control(url, api_key) is the control API of one world. With pytest, the fixtures
newsmock_world (one world per test, verified after it) and newsmock_server come with the wheel
(newsmock.pytest_plugin); NEWSMOCK_URL points them at a running newsmock.
"""
from ._server import VERSION as __version__
from ._server import Control, NewsmockError, Remote, Server, VerifyError, connect, find_binary, start

__all__ = ["Control", "NewsmockError", "Remote", "Server", "VerifyError", "connect", "find_binary", "start"]
