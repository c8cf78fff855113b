package mockserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
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
	return rt.s.roundTrip(req)
}

func (s *Server) roundTrip(req *http.Request) (*http.Response, error) {
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
	w := &memWriter{header: http.Header{}}
	if aborted := w.serve(s.handler, in); aborted {
		if !w.wroteHeader {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return nil, ErrDropped
		}
		return w.response(req, &cutBody{r: bytes.NewReader(w.body.Bytes())}), nil
	}
	return w.response(req, io.NopCloser(bytes.NewReader(w.body.Bytes()))), nil
}

// memWriter is an in-memory http.ResponseWriter.
type memWriter struct {
	header      http.Header
	status      int
	wroteHeader bool
	body        bytes.Buffer
}

func (w *memWriter) Header() http.Header { return w.header }

func (w *memWriter) WriteHeader(status int) {
	if w.wroteHeader {
		return
	}
	w.status, w.wroteHeader = status, true
}

func (w *memWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

// Flush does nothing: the body is handed over whole. It exists so truncate
// faults flush as they do on a socket.
func (w *memWriter) Flush() {}

// serve runs h and reports whether it aborted with http.ErrAbortHandler.
// Other panics cannot reach here: the handler turns them into a 500.
func (w *memWriter) serve(h http.Handler, r *http.Request) (aborted bool) {
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

func (w *memWriter) response(req *http.Request, body io.ReadCloser) *http.Response {
	status := w.status
	if !w.wroteHeader {
		status = http.StatusOK
	}
	length := int64(w.body.Len())
	if cl, err := strconv.ParseInt(w.header.Get("Content-Length"), 10, 64); err == nil {
		length = cl
	}
	return &http.Response{
		Status:        strconv.Itoa(status) + " " + http.StatusText(status),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.header,
		Body:          body,
		ContentLength: length,
		Request:       req,
	}
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
