package mockserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
)

// ErrDropped is the error of a request through Transport that a drop fault
// cut; it wraps io.EOF.
var ErrDropped = fmt.Errorf("mockserver: connection closed without a response (injected drop fault): %w", io.EOF)

// errClosed is returned by Transport after Close.
var errClosed = errors.New("mockserver: the server is closed: start a new one with mockserver.New")

// Transport returns an http.RoundTripper that serves every request in process,
// whatever its host.
func (s *Server) Transport() http.RoundTripper { return roundTripper{s} }

type roundTripper struct{ s *Server }

// RoundTrip runs the request through the server's handler.
func (rt roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	s := rt.s
	if req.Body != nil {
		defer req.Body.Close()
	}
	if s.baseCtx.Err() != nil {
		return nil, errClosed
	}
	if in := inSynctestBubble(); in != s.bubble {
		if in {
			return nil, errRequestIntoBubble
		}
		return nil, errRequestOutOfBubble
	}
	ctx, cancel := context.WithCancel(req.Context())
	defer cancel()
	stop := context.AfterFunc(s.baseCtx, cancel) // Close cancels requests in flight
	defer stop()
	in := req.Clone(ctx)
	if in.Body == nil {
		in.Body = http.NoBody
	}
	in.RequestURI = req.URL.RequestURI()
	in.RemoteAddr = inProcessRemoteAddr
	if in.Proto == "" {
		in.Proto, in.ProtoMajor, in.ProtoMinor = "HTTP/1.1", 1, 1
	}
	rec := httptest.NewRecorder()
	if aborted := serveCatching(s.handler, rec, in); aborted {
		if !rec.Flushed && rec.Body.Len() == 0 { // nothing was sent: a dropped connection
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return nil, ErrDropped
		}
		resp := rec.Result()
		resp.Body, resp.Request = &cutBody{r: bytes.NewReader(rec.Body.Bytes())}, req
		return resp, nil
	}
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

// serveCatching runs h and reports whether it aborted with
// http.ErrAbortHandler (a drop or truncate fault); h recovers other panics.
func serveCatching(h http.Handler, w http.ResponseWriter, r *http.Request) (aborted bool) {
	defer func() {
		if p := recover(); p != nil {
			if p != http.ErrAbortHandler {
				panic(p)
			}
			aborted = true
		}
	}()
	h.ServeHTTP(w, r)
	return false
}

// cutBody yields the bytes written before a truncate fault, then fails as
// a connection closed mid-body does.
type cutBody struct{ r *bytes.Reader }

func (b *cutBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if errors.Is(err, io.EOF) {
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

func (b *cutBody) Close() error { return nil }
