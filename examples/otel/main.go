// Otel traces every HTTP attempt of a newssearch Client with
// OpenTelemetry's otelhttp, through newssearch.WithMiddleware. It lives in a
// module of its own so that OpenTelemetry never enters the SDK's
// dependencies: a program that does not import this example does not
// download it. It runs against the in-process mock server and prints the
// spans to standard output instead of exporting them:
//
//	cd examples/otel && go run .
//
// In production, replace the in-memory span recorder by your exporter
// (OTLP...) and keep the middleware line.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	newssearch "github.com/newssearch/newssearch-go"
	"github.com/newssearch/newssearch-go/mockserver"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "otel:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	// Spans go to memory here; a real program sets up an exporter.
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer tp.Shutdown(ctx)

	srv := mockserver.New()
	defer srv.Close()
	// Every attempt (retries and polls included) becomes a client span.
	// otelhttp records the method, URL, status and sizes, never the
	// request body, where the API key travels.
	tracing := newssearch.WithMiddleware(func(next http.RoundTripper) http.RoundTripper {
		return otelhttp.NewTransport(next,
			otelhttp.WithTracerProvider(tp),
			otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string {
				return r.Method + " " + r.URL.Path
			}))
	})
	client := srv.Client(tracing)

	ctx, root := tp.Tracer("examples/otel").Start(ctx, "weekly digest")
	var resp newssearch.Response
	job, err := client.SubmitQuery(ctx, newssearch.AsyncSearchParams{
		SearchParams: newssearch.SearchParams{
			Query:     "election",
			StartDate: time.Now().AddDate(0, -3, 0),
			EndDate:   time.Now(),
		},
	})
	var page *newssearch.Page
	if err == nil {
		page, err = client.Poll(ctx, job.QueryID, newssearch.WithResponseInto(&resp))
	}
	root.End()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d articles; last response %d after %d attempt(s)\n", page.TotalResults, resp.StatusCode, resp.Attempts)

	// One line per endpoint: how many spans, with which statuses.
	counts := map[string][]string{}
	for _, s := range spans.Ended() {
		if s.Parent().SpanID() != root.SpanContext().SpanID() {
			continue
		}
		status := ""
		for _, kv := range s.Attributes() {
			if kv.Key == attribute.Key("http.response.status_code") {
				status = kv.Value.String()
			}
		}
		counts[s.Name()] = append(counts[s.Name()], status)
	}
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		statuses := slices.Compact(slices.Sorted(slices.Values(counts[name])))
		fmt.Fprintf(w, "span %q, child of %q, status %s\n", name, "weekly digest", strings.Join(statuses, ","))
	}
	return nil
}
