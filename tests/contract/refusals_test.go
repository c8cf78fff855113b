package contract_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestMockRefusesContradictoryControlBodies sends control bodies that ask
// for something the mock cannot do as asked; it must answer a 400 naming
// the field (as the document's schemas refuse the last two), not do
// something else: a burst with no rate limit, an upper bound below -1, an
// expected body member holding a whole array.
func TestMockRefusesContradictoryControlBodies(t *testing.T) {
	t.Parallel()
	srv := newMock(t)
	chk := newChecker(t, loadContract(t), srv.Transport(), false)
	hc := &http.Client{Transport: chk}
	for _, tc := range []struct{ method, path, body, field string }{
		// Answers 200 with burst 0: a rate_limit of 0 zeroes burst even when the body gives one.
		{http.MethodPatch, "/_mock/settings", `{"rate_limit": 0, "burst": 3}`, "burst"},
		// Takes -5 as "no upper bound" and lists "max": -5.
		{http.MethodPost, "/_mock/expectations", `{"endpoint": "query", "max": -5}`, "max"},
		// Takes the array as the text ["a", "b"], which no request can match.
		{http.MethodPost, "/_mock/expectations", `{"endpoint": "query", "body": {"sites": ["a", "b"]}}`, "sites"},
	} {
		req, err := http.NewRequest(tc.method, srv.URL()+tc.path, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		x := chk.last(t)
		msg, _ := x.decoded()["message"].(string)
		if x.status != http.StatusBadRequest || !strings.Contains(msg, tc.field) {
			t.Errorf("%s %s %s: the mock answered %d %s; want a 400 whose message names %s",
				tc.method, tc.path, tc.body, x.status, excerpt(x.respBody), tc.field)
		}
	}
}
