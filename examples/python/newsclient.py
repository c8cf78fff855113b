"""A small client for the news search service, written as an application would.

It knows nothing about the mock: it submits a query with /api/v2/query-async,
polls /api/v2/get-results until the job is no longer PENDING, pages through
the results, and retries 429 and 5xx answers a few times. The test suite
drives it against newsmock and steers it only through newsmock's control API,
as a test of an application whose HTTP client it cannot change would.

Standard library only.
"""

import json
import time
import urllib.error
import urllib.request

PAGE_SIZE = 25


class ApiError(Exception):
    """A non-2xx answer: its status and the service's message."""

    def __init__(self, status, message):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


class JobFailed(Exception):
    """get-results answered state FAILED."""

    def __init__(self, query_id, message):
        super().__init__(f"job {query_id} failed: {message}")
        self.query_id = query_id
        self.message = message


class NewsClient:
    def __init__(self, base_url, api_key, retries=3, retry_wait=0.01, poll_wait=0.01, max_polls=100, timeout=30):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.retries = retries
        self.retry_wait = retry_wait
        self.poll_wait = poll_wait
        self.max_polls = max_polls
        self.timeout = timeout

    def _post(self, path, body):
        body = dict(body, api_key=self.api_key)
        data = json.dumps(body).encode()
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(self.base_url + path, data=data, method="POST",
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return json.load(resp)
            except urllib.error.HTTPError as e:
                payload = e.read()
                try:
                    message = json.loads(payload).get("message", "")
                except ValueError:
                    message = payload.decode(errors="replace")
                if (e.code == 429 or e.code >= 500) and attempt < self.retries:
                    time.sleep(self.retry_wait)
                    continue
                raise ApiError(e.code, message) from None
        raise AssertionError("unreachable")

    def submit(self, query, **params):
        """Starts an asynchronous search and returns its query_id."""
        return self._post("/api/v2/query-async", dict(params, query=query))["query_id"]

    def results(self, query_id, page=1):
        """Polls get-results for one page until the job is no longer PENDING."""
        for _ in range(self.max_polls):
            answer = self._post("/api/v2/get-results", {"query_id": query_id, "page": page})
            state = answer.get("state")
            if state == "SUCCESS":
                return answer
            if state == "FAILED":
                raise JobFailed(query_id, answer.get("message", ""))
            time.sleep(self.poll_wait)
        raise TimeoutError(f"job {query_id} still PENDING after {self.max_polls} polls")

    def search_all(self, query, max_pages=4, **params):
        """Submits a query and returns (total, articles of the first max_pages pages)."""
        query_id = self.submit(query, **params)
        first = self.results(query_id, 1)
        total, articles = first["totalResults"], list(first["articles"])
        page = 1
        while len(articles) < total and page < max_pages:
            page += 1
            articles.extend(self.results(query_id, page)["articles"])
        return total, articles
