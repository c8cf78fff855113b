package mockserver

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
)

// ControlHeader lets a POST to /_mock/ carry a body that is not JSON, such as
// a -fault rule as text/plain; no web page can send it to another site.
const ControlHeader = "X-Newsmock-Control"

// inProcessRemoteAddr is the RemoteAddr of requests through Transport: they
// come from the same process, never from a socket.
const inProcessRemoteAddr = "in-process"

// Why a request is refused before it reaches an endpoint; the log says which.
const (
	refusedHost      = "host not allowed"
	refusedCrossSite = "request from another site"
)

// guard returns the status and message of a request a web page could have
// sent without the user's intent: from another site, or through a host name
// the mock does not know (DNS rebinding). It returns 0 for a request to
// serve; a refused one is not journaled, faulted or counted.
func (s *Server) guard(r *http.Request) (int, string) {
	status, why, msg := 0, "", ""
	if m := s.checkHost(r); m != "" {
		status, why, msg = http.StatusMisdirectedRequest, refusedHost, m
	} else if m := checkSite(r); m != "" {
		status, why, msg = http.StatusForbidden, refusedCrossSite, m
	} else {
		return 0, ""
	}
	s.logger.Warn("mockserver: refused a request", "reason", why, "method", r.Method, "path", r.URL.Path,
		"host", r.Host, "origin", r.Header.Get("Origin"), "sec_fetch_site", r.Header.Get("Sec-Fetch-Site"))
	return status, msg
}

// checkHost returns why the request's Host is refused, or "". Only a
// request that came on a socket has a Host a browser chose. Allowed: an IP
// address (it cannot be rebound), localhost and *.localhost (browsers
// resolve them to loopback), the host of WithAddr, and WithAllowedHosts.
func (s *Server) checkHost(r *http.Request) string {
	if r.RemoteAddr == inProcessRemoteAddr || r.Context().Value(http.LocalAddrContextKey) == nil {
		return ""
	}
	name := hostName(r.Host)
	if name == "" || s.hostAllowed(name) {
		return ""
	}
	return fmt.Sprintf("the Host header %s is not a name this mock answers to: it answers to localhost, *.localhost, "+
		"IP addresses and the names given to newsmock -allow-host (mockserver.WithAllowedHosts in Go), so that a web page "+
		"whose domain is made to resolve to this machine (DNS rebinding) cannot reach it; if you reach the mock by this "+
		"name on purpose, start newsmock with -allow-host %s", quoteShort(r.Host), name)
}

// hostName is the lower-case host of a Host header, without port,
// brackets or trailing dot.
func hostName(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), ".")
	return strings.ToLower(host)
}

// hostAllowed reports whether name (from hostName) may reach the server.
func (s *Server) hostAllowed(name string) bool {
	if _, err := netip.ParseAddr(name); err == nil {
		return true
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true
	}
	for _, a := range s.allowedHosts {
		switch {
		case a == "*", a == name:
			return true
		case strings.HasPrefix(a, "*.") && strings.HasSuffix(name, a[1:]):
			return true
		}
	}
	return false
}

// checkHostPattern reports what is wrong with an allowed-host entry (of
// WithAllowedHosts or newsmock -allow-host), or "".
func checkHostPattern(p string) string {
	name := strings.TrimPrefix(p, "*.")
	switch {
	case p == "*":
		return ""
	case strings.TrimSpace(p) == "":
		return "is blank"
	case strings.Contains(p, "://") || strings.Contains(p, "/"):
		return "is a URL, not a host name"
	case strings.ContainsRune(name, ':'):
		if _, err := netip.ParseAddr(strings.Trim(name, "[]")); err == nil {
			return "" // an IP address, allowed anyway
		}
		return "has a port: give the name alone (every port is allowed)"
	case strings.ContainsAny(name, "* \t,"):
		return `is not a host name: give a name such as "mock.internal", "*.example.test" for every name under it, or "*" for any`
	}
	return ""
}

// checkSite returns why a request from a web page of another site is
// refused, or "". As net/http.CrossOriginProtection, it trusts
// Sec-Fetch-Site, else Origin against Host, and passes requests with
// neither (programs). Unlike it, it refuses reads too, except of the
// inspector and the OpenAPI document.
func checkSite(r *http.Request) string {
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && (isUIPath(r.URL.Path) || r.URL.Path == OpenAPIPath) {
		return ""
	}
	var from string
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "same-origin", "none":
		return ""
	case "":
		origin := r.Header.Get("Origin")
		if origin == "" {
			return ""
		}
		u, err := url.Parse(origin)
		if err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host) {
			return ""
		}
		from = fmt.Sprintf("Origin: %s, not this server's %s", quoteShort(origin), quoteShort(r.Host))
		if origin == "null" {
			from = "Origin: null, a page whose origin is hidden"
		}
	default:
		from = "Sec-Fetch-Site: " + quoteShort(site)
	}
	return fmt.Sprintf("the mock takes no request from a web page of another site (this one has %s), so that a page "+
		"open in your browser cannot change its faults, jobs, clock or articles, nor use its API: send requests from a "+
		"program or a test (curl, your test suite), which send neither header, or use the inspector the mock serves at %s; "+
		"a proxy between a browser and the mock must pass on the browser's Host header", from, UIPath)
}

// jsonTypes are the media types a control POST may carry without
// ControlHeader: JSON, and JSON Lines for POST /_mock/articles. None is one
// a browser may send to another site without a preflight.
var jsonTypes = []string{"application/json", "application/x-ndjson", "application/jsonl", "application/x-jsonlines"}

// checkControlBody returns why a control POST is refused for its
// Content-Type, or "": a web page can send the simple types (text/plain,
// forms, none) to any site without asking first.
func checkControlBody(r *http.Request, pattern string) string {
	for _, h := range []string{ControlHeader, KeyHeader, worldHeader} {
		if _, ok := r.Header[h]; ok {
			return "" // a header of its own: a web page cannot send it to another site without asking first
		}
	}
	values := r.Header["Content-Type"]
	got := "no Content-Type"
	if len(values) == 1 {
		mt, _, err := mime.ParseMediaType(values[0])
		if err == nil && (strings.HasSuffix(mt, "+json") || slices.Contains(jsonTypes, mt)) && !strings.Contains(values[0], ",") {
			return ""
		}
		got = "Content-Type " + quoteShort(values[0])
	} else if len(values) > 1 {
		got = fmt.Sprintf("%d Content-Type headers", len(values))
	}
	msg := fmt.Sprintf("POST %s needs Content-Type: application/json (this request has %s): the mock takes control "+
		"requests only in a form that a web page cannot send it, so that a page open in your browser cannot change it; "+
		"with curl add -H 'Content-Type: application/json'", r.URL.Path, got)
	switch pattern {
	case controlPrefix + "faults":
		msg += "; to send a rule in newsmock's -fault text syntax, send the header " + ControlHeader + ": 1 with it"
	case controlPrefix + "articles":
		msg += " (or application/x-ndjson for JSON Lines)"
	}
	return msg
}

// maybeLoopback reports whether host, of a listening address, may name this
// machine only: a loopback IP, or a name (listen checks what it resolves to).
func maybeLoopback(host string) bool {
	name := hostName(host)
	if ip, err := netip.ParseAddr(name); err == nil {
		return ip.Unmap().IsLoopback()
	}
	return name != ""
}
