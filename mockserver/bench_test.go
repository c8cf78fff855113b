package mockserver

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkQueryThroughput compares the mock's /api/v2/query over loopback
// with a bare net/http handler writing pre-encoded bytes of the same size,
// at 8, 16 and 32 concurrent connections. The ratio of their ns/op is the
// figure of merit (the mock must reach >= 0.7 of the bare throughput).
func BenchmarkQueryThroughput(b *testing.B) {
	s := New(WithClock(func() time.Time { return t0 }))
	defer s.Close()
	body := `{"api_key":"k","query":"` + commonWord(b, s) + `"}`
	sample := call(b, s, http.MethodPost, "/api/v2/query", body)
	if sample.Status != http.StatusOK {
		b.Fatalf("%d %s", sample.Status, sample.Body)
	}
	bare := bareServer(b, sample.Body)
	for _, conns := range []int{8, 16, 32} {
		for _, target := range []struct {
			name, url string
			client    *http.Client
		}{
			{"mock", s.URL(), s.HTTPClient()},
			{"bare", bare, &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}},
		} {
			b.Run(fmt.Sprintf("%s/conns=%d", target.name, conns), func(b *testing.B) {
				b.SetBytes(int64(len(sample.Body)))
				b.SetParallelism((conns + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						resp, err := target.client.Post(target.url+"/api/v2/query", "application/json", strings.NewReader(body))
						if err != nil {
							b.Error(err)
							return
						}
						n, _ := io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if n != int64(len(sample.Body)) {
							b.Errorf("read %d bytes, want %d", n, len(sample.Body))
							return
						}
					}
				})
			})
		}
	}
}

// bareServer serves body to every request, as fast as net/http allows.
func bareServer(b *testing.B, body []byte) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		_, _ = w.Write(body)
	})}
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// BenchmarkHandler measures the handler alone (no network) per endpoint.
func BenchmarkHandler(b *testing.B) {
	s := New(WithoutListener(), WithClock(func() time.Time { return t0 }), WithPendingPolls(0))
	defer s.Close()
	word := commonWord(b, s)
	for _, tc := range []struct {
		name, path, body string
	}{
		{"query", "/api/v2/query", `{"api_key":"k","query":"` + word + `"}`},
		{"query-embeddings", "/api/v2/query", `{"api_key":"k","query":"` + word + `","embeddings":true}`},
		{"query-all", "/api/v2/query", `{"api_key":"k","query":"*"}`},
		{"query-async", "/api/v2/query-async", `{"api_key":"k","query":"` + word + `"}`},
		// The job's owner asks, so this is a page of results, not a 404; the
		// job is submitted when this case starts (query-async's jobs would
		// have pushed an earlier one out).
		{"get-results", "/api/v2/get-results", `{"api_key":"` + s.APIKey() + `","query_id":"%s","page":2}`},
		{"headlines", "/api/v2/headlines", `{"api_key":"k"}`},
		{"bad-input", "/api/v2/query", `{"api_key":"k","query":"x","page":0}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			body := tc.body
			if tc.name == "get-results" {
				body = fmt.Sprintf(body, submit(b, s, map[string]any{"query": word}))
			}
			want := http.StatusOK
			if tc.name == "bad-input" {
				want = http.StatusBadRequest
			}
			w := &discardWriter{h: http.Header{}}
			r, _ := http.NewRequest(http.MethodPost, tc.path, strings.NewReader(body))
			if s.Handler().ServeHTTP(w, r); w.status != want { // measure the path meant, not an error
				b.Fatalf("%s answered %d, want %d", tc.name, w.status, want)
			}
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				w := &discardWriter{h: http.Header{}}
				for pb.Next() {
					r, _ := http.NewRequest(http.MethodPost, "/"+tc.path[1:], bytes.NewReader([]byte(body)))
					clear(w.h)
					s.Handler().ServeHTTP(w, r)
				}
			})
		})
	}
}

type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(status int)      { w.status = status }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkNewLater measures New and Close once the default corpus is
// built, with a loopback socket and without (the benchmark harness's row
// 7b times the same in a fresh process; see BENCHMARKS.md).
func BenchmarkNewLater(b *testing.B) {
	DefaultCorpus()
	for _, socket := range []bool{true, false} {
		name := "socket"
		var opts []Option
		if !socket {
			name, opts = "no-socket", []Option{WithoutListener()}
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				New(opts...).Close()
			}
		})
	}
}
