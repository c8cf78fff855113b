package mockserver

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"net/http"
	"path"
	"strings"
	"time"
)

// UIPath is where the server serves the inspector, a page that shows its
// requests, jobs and fault rules live.
const UIPath = "/_mock/ui"

//go:embed ui
var uiFS embed.FS

// uiAsset is one embedded file, ready to serve.
type uiAsset struct {
	contentType string
	etag        string
	body        []byte
}

// uiAssets maps request paths to the embedded files: the page at UIPath,
// the rest under UIPath + "/".
var uiAssets = loadUIAssets()

func loadUIAssets() map[string]uiAsset {
	types := map[string]string{
		".html": "text/html; charset=utf-8",
		".css":  "text/css; charset=utf-8",
		".js":   "text/javascript; charset=utf-8",
	}
	entries, err := uiFS.ReadDir("ui")
	if err != nil {
		panic("mockserver: the embedded inspector is missing: " + err.Error())
	}
	assets := make(map[string]uiAsset, len(entries))
	for _, e := range entries {
		b, err := uiFS.ReadFile("ui/" + e.Name())
		if err != nil {
			panic("mockserver: the embedded inspector is unreadable: " + err.Error())
		}
		ct, ok := types[path.Ext(e.Name())]
		if !ok {
			continue
		}
		sum := sha256.Sum256(b)
		a := uiAsset{contentType: ct, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, body: b}
		if e.Name() == "index.html" {
			assets[UIPath] = a
		} else {
			assets[UIPath+"/"+e.Name()] = a
		}
	}
	return assets
}

// uiCSP allows the page nothing beyond its own origin: no inline script, no
// remote script, style, font or image, no framing.
const uiCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// isUIPath reports whether p belongs to the inspector.
func isUIPath(p string) bool { return p == UIPath || strings.HasPrefix(p, UIPath+"/") }

// serveUI answers the inspector's page and files.
func (s *Server) serveUI(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		b := failureBody(fmt.Sprintf("%s does not accept %s: open it in a browser (GET)", r.URL.Path, quoteShort(r.Method)))
		writeAnswer(w, http.StatusMethodNotAllowed, 0, len(b), b)
		return
	}
	if r.URL.Path == UIPath+"/" {
		// A relative target keeps working under a mount prefix.
		h.Set("Location", "../ui")
		b := failureBody("the inspector is at " + UIPath + " (without the trailing slash)")
		writeAnswer(w, http.StatusMovedPermanently, 0, len(b), b)
		return
	}
	a, ok := uiAssets[r.URL.Path]
	if !ok {
		b := failureBody(fmt.Sprintf("there is no inspector file at %s: open %s", quoteShort(r.URL.Path), UIPath))
		writeAnswer(w, http.StatusNotFound, 0, len(b), b)
		return
	}
	h.Set("Content-Type", a.contentType)
	h.Set("Content-Security-Policy", uiCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", a.etag)
	// ServeContent answers If-None-Match with 304 and HEAD without a body.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}
