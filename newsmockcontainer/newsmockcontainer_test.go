package newsmockcontainer_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/newsmockcontainer"
	"github.com/testcontainers/testcontainers-go"
)

// image is the image of this checkout: tools/dist/build makes it and
// tools/dist/check-image loads it into podman before running these tests.
var image = "newssearch/newsmock:" + newssearch.Version

// needRuntime skips the test when no Docker API answers, except in CI,
// where it fails.
func needRuntime(t *testing.T) {
	t.Helper()
	p, err := testcontainers.NewDockerProvider()
	if err == nil {
		defer p.Close()
		err = p.Health(t.Context())
	}
	if err == nil {
		return
	}
	msg := "no container runtime answers (" + err.Error() + "): tools/dist/check-image runs these tests against podman " +
		"(sudo apt-get install -y podman runc; docs/container.md)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// run starts the image with opts; the test's cleanup removes it.
func run(t *testing.T, opts ...testcontainers.ContainerCustomizer) (*newsmockcontainer.Container, error) {
	t.Helper()
	ctr, err := newsmockcontainer.Run(t.Context(), image, opts...)
	if ctr != nil {
		t.Cleanup(func() {
			if err := testcontainers.TerminateContainer(ctr); err != nil {
				t.Errorf("terminating the container: %v", err)
			}
		})
	}
	return ctr, err
}

// TestRun: the options reach newsmock (keys, a world per key, a manual
// clock, fault rules); URL and Client reach it.
//
// The tests are not parallel: testcontainers-go creates its default
// network at the first container, and podman refuses a second creation
// racing with the first ("network name reaper_default already used").
func TestRun(t *testing.T) {
	needRuntime(t)
	start := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	ctr, err := run(t, newsmockcontainer.WithKeys("key-a", "key-b"), newsmockcontainer.WithWorldPerKey(),
		newsmockcontainer.WithManualClock(start), newsmockcontainer.WithFaults("endpoint=headlines;times=1;status=503"),
		newsmockcontainer.WithFaults("endpoint=query-async;times=1;status=500"), newsmockcontainer.WithFlag("seed", "7"))
	if err != nil {
		t.Fatalf("%v (is %s loaded? tools/dist/build, then podman load -i dist/image/newsmock-%s-linux-amd64-image.tar)",
			err, image, newssearch.Version)
	}
	ctx := t.Context()
	url, err := ctr.URL(ctx)
	if err != nil || !strings.HasPrefix(url, "http://") {
		t.Fatalf("URL = %q, %v", url, err)
	}

	c, err := ctr.Client(ctx, "key-a", newssearch.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Search(ctx, newssearch.SearchParams{Query: "election"})
	if err != nil || len(res.Articles) == 0 {
		t.Errorf("Search = %+v, %v; want articles", res, err)
	}
	other, err := ctr.Client(ctx, "key-c", newssearch.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Search(ctx, newssearch.SearchParams{Query: "election"}); !errors.Is(err, newssearch.ErrUnauthorized) {
		t.Errorf("Search with a key WithKeys left out: %v, want ErrUnauthorized", err)
	}

	// Every key's world starts with the fault rules: one 503, then answers.
	for _, key := range []string{"key-a", "key-b"} {
		var got []int
		for range 2 {
			status, _ := call(t, http.MethodPost, url+"/api/v2/headlines", `{"api_key":"`+key+`"}`, nil)
			got = append(got, status)
		}
		if got[0] != 503 || got[1] != 200 {
			t.Errorf("%s: headlines answered %v, want [503 200]", key, got)
		}
	}
	status, body := call(t, http.MethodGet, url+"/_mock/faults", "", http.Header{"X-Newsmock-Key": {"key-b"}})
	if status != 200 || strings.Count(body, `"endpoint"`) != 2 {
		t.Errorf("GET /_mock/faults = %d %s, want both rules", status, body)
	}
	status, body = call(t, http.MethodGet, url+"/_mock/clock", "", http.Header{"X-Newsmock-Key": {"key-b"}})
	var clock struct {
		Now    time.Time `json:"now"`
		Manual bool      `json:"manual"`
	}
	if err := json.Unmarshal([]byte(body), &clock); err != nil || status != 200 || !clock.Now.Equal(start) || !clock.Manual {
		t.Errorf("GET /_mock/clock = %d %s (%v), want the manual clock at %v", status, body, err, start)
	}
	status, body = call(t, http.MethodGet, url+"/_mock/health", "", nil)
	if status != 200 || !strings.Contains(body, `"worlds":3`) {
		t.Errorf("GET /_mock/health = %d %s, want 3 worlds (the default, key-a's, key-b's)", status, body)
	}
}

// TestRunBadFlag: a value newsmock refuses makes Run fail, and the
// container's log names the variable.
func TestRunBadFlag(t *testing.T) {
	needRuntime(t)
	ctr, err := run(t, newsmockcontainer.WithFlag("pending", "soon"))
	if err == nil {
		t.Fatal("Run with NEWSMOCK_PENDING=soon succeeded")
	}
	if ctr == nil {
		t.Fatalf("Run: %v, and no container to read the log of", err)
	}
	logs, lerr := ctr.Logs(context.Background())
	if lerr != nil {
		t.Fatal(lerr)
	}
	defer logs.Close()
	b, _ := io.ReadAll(logs)
	if want := `invalid value "soon" for environment variable NEWSMOCK_PENDING (flag -pending)`; !strings.Contains(string(b), want) {
		t.Errorf("Run: %v; the log:\n%s\nwant it to say %s", err, b, want)
	}
}

// call sends one request and returns the status and body.
func call(t *testing.T, method, url, body string, header http.Header) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}
