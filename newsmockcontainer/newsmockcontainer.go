// Package newsmockcontainer starts newsmock, the mock of the news search
// service, from its container image with Testcontainers for Go, for test
// suites that want the mock in a container rather than in process
// (mockserver) or as a binary (cmd/newsmock):
//
//	ctr, err := newsmockcontainer.Run(ctx, "newssearch/newsmock:0.1.0",
//		newsmockcontainer.WithWorldPerKey(), newsmockcontainer.WithFaults("endpoint=query;times=1;status=503"))
//	defer testcontainers.TerminateContainer(ctr)
//	url, err := ctr.URL(ctx)   // http://127.0.0.1:PORT
//
// The options set the image's NEWSMOCK_<FLAG> variables (newsmock -h, and
// docs/container.md); Run waits for GET /_mock/health to answer 200. It is
// a module of its own, so that the SDK's users never get testcontainers-go.
package newsmockcontainer

import (
	"context"
	"fmt"
	"strings"
	"time"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// port is the port newsmock listens on in its image.
const port = "8080/tcp"

// Container is a running newsmock container.
type Container struct {
	testcontainers.Container
}

// Run starts a container of the newsmock image img (e.g.
// "newssearch/newsmock:0.1.0") with opts, and returns once it answers
// GET /_mock/health. On an error after the container was created it
// returns the container too, for the caller to terminate.
func Run(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	moduleOpts := []testcontainers.ContainerCustomizer{
		testcontainers.WithExposedPorts(port),
		testcontainers.WithWaitStrategy(wait.ForHTTP("/_mock/health").WithPort(port).WithStartupTimeout(time.Minute)),
	}
	ctr, err := testcontainers.Run(ctx, img, append(moduleOpts, opts...)...)
	var c *Container
	if ctr != nil {
		c = &Container{Container: ctr}
	}
	if err != nil {
		return c, fmt.Errorf("newsmockcontainer: run %s: %w", img, err)
	}
	return c, nil
}

// URL is the mock's base URL, e.g. http://127.0.0.1:32768: the base URL
// of the API (/api/v2/...) and of the control API (/_mock/...).
func (c *Container) URL(ctx context.Context) (string, error) {
	return c.PortEndpoint(ctx, port, "http")
}

// Client returns an SDK client of the mock, with the API key key and
// then opts.
func (c *Container) Client(ctx context.Context, key string, opts ...newssearch.Option) (*newssearch.Client, error) {
	url, err := c.URL(ctx)
	if err != nil {
		return nil, err
	}
	return newssearch.NewClient(append([]newssearch.Option{newssearch.WithBaseURL(url), newssearch.WithAPIKey(key)}, opts...)...)
}

// WithFlag sets newsmock's flag -name to value, through its variable
// NEWSMOCK_<NAME> (upper case, '_' for '-'): WithFlag("seed", "42").
// newsmock refuses an unknown flag or a bad value at start, and Run then
// fails.
func WithFlag(name, value string) testcontainers.CustomizeRequestOption {
	return testcontainers.WithEnv(map[string]string{envName(name): value})
}

// WithWorldPerKey gives every API key a world of its own (faults, clock,
// articles, jobs, journal): -world-per-key.
func WithWorldPerKey() testcontainers.CustomizeRequestOption {
	return WithFlag("world-per-key", "true")
}

// WithKeys makes the mock accept only these API keys: -keys.
func WithKeys(keys ...string) testcontainers.CustomizeRequestOption {
	return WithFlag("keys", strings.Join(keys, ","))
}

// WithManualClock gives the mock a clock that moves only through POST
// /_mock/clock, starting at start (the time the mock starts if start is
// zero): -clock manual=<start>.
func WithManualClock(start time.Time) testcontainers.CustomizeRequestOption {
	if start.IsZero() {
		return WithFlag("clock", "manual")
	}
	return WithFlag("clock", "manual="+start.UTC().Format(time.RFC3339Nano))
}

// WithFaults adds fault rules, e.g. "endpoint=query;every=3;status=503":
// -fault, once per rule. Rules of several WithFaults add up.
func WithFaults(rules ...string) testcontainers.CustomizeRequestOption {
	return func(req *testcontainers.GenericContainerRequest) error {
		name := envName("fault")
		all := append(strings.FieldsFunc(req.Env[name], func(r rune) bool { return r == '\n' }), rules...)
		return testcontainers.WithEnv(map[string]string{name: strings.Join(all, "\n")})(req)
	}
}

// envName is the variable of newsmock's flag name.
func envName(name string) string {
	return "NEWSMOCK_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}
