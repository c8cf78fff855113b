// Command image writes newsmock's container image without a daemon or a
// registry (tools/dist/build runs it): one docker-archive per platform,
// which docker load and podman load accept, tagged newssearch/newsmock:
// <version> and :latest, and an OCI image layout with the multi-platform
// index, for pushing with any OCI tool (crane push, skopeo copy oci:...).
//
// The image is one layer on an empty base: the static newsmock binary at
// /usr/local/bin/newsmock, /etc/passwd and /etc/group naming its user
// (65532, newsmock) and the LICENSE. Its configuration is in the docker
// format, which has a HEALTHCHECK (newsmock health). Every time in it is
// -created (the commit's time) and every file is written in one order, so
// two runs on the same binaries give the same digests.
//
//	go run . -version 0.1.0 -revision $(git rev-parse HEAD) -created $(git log -1 --format=%ct) \
//	  -license ../../../LICENSE -out ../../../dist/image amd64=path/to/newsmock arm64=path/to/newsmock
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// repository is the image's name, without a tag, in full: podman load
// names an image of a short name localhost/..., where neither its compat
// API (Testcontainers) nor a docker.io pull would find it; docker load
// shows it as newssearch/newsmock.
const repository = "docker.io/newssearch/newsmock"

// The image's user: not root, and numeric, so that a runtime's
// runAsNonRoot check can tell.
const (
	uid  = 65532
	user = "65532:65532"
)

// port is the port newsmock listens on in the image.
const port = "8080"

func main() {
	version := flag.String("version", "", "the release `version`, e.g. 0.1.0")
	revision := flag.String("revision", "", "the git `commit` the image is built from")
	created := flag.Int64("created", 0, "the image's time, in `seconds` since 1970 (the commit's)")
	license := flag.String("license", "", "the LICENSE `file` to put in the image")
	source := flag.String("source", "https://github.com/newssearch/newssearch-go", "the source repository's `URL`")
	out := flag.String("out", "", "the `directory` to write into (created)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: image -version V -revision C -created S -license F -out DIR ARCH=BINARY...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *version == "" || *revision == "" || *created == 0 || *license == "" || *out == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	b := builder{version: *version, revision: *revision, created: time.Unix(*created, 0).UTC(), source: *source}
	if err := b.run(*license, *out, flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "image: %v\n", err)
		os.Exit(1)
	}
}

type builder struct {
	version, revision, source string
	created                   time.Time
}

// run builds an image of each ARCH=BINARY of args and writes them to out.
func (b builder) run(license, out string, args []string) error {
	lic, err := os.ReadFile(license)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	index := mutate.IndexMediaType(empty.Index, types.DockerManifestList)
	for _, arg := range args {
		arch, bin, ok := strings.Cut(arg, "=")
		if !ok {
			return fmt.Errorf("argument %q: want ARCH=BINARY, e.g. amd64=dist/linux-amd64/newsmock", arg)
		}
		exe, err := os.ReadFile(bin)
		if err != nil {
			return err
		}
		img, err := b.image(arch, exe, lic)
		if err != nil {
			return fmt.Errorf("%s: %w", arch, err)
		}
		name := filepath.Join(out, fmt.Sprintf("newsmock-%s-linux-%s-image.tar", b.version, arch))
		if err := b.writeArchive(name, img); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		digest, err := img.Digest()
		if err != nil {
			return err
		}
		fmt.Printf("image: linux/%s %s in %s\n", arch, digest, name)
		platform := &v1.Platform{OS: "linux", Architecture: arch}
		if arch == "arm64" {
			platform.Variant = "v8"
		}
		index = mutate.AppendManifests(index, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: platform}})
	}
	dir := filepath.Join(out, "newsmock-"+b.version+"-oci")
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	ref := map[string]string{"org.opencontainers.image.ref.name": b.version}
	if err := p.AppendIndex(index, layout.WithAnnotations(ref)); err != nil {
		return err
	}
	digest, err := index.Digest()
	if err != nil {
		return err
	}
	fmt.Printf("image: index %s in %s\n", digest, dir)
	return nil
}

// image is the image of one architecture.
func (b builder) image(arch string, exe, license []byte) (v1.Image, error) {
	layer, err := b.layer(exe, license)
	if err != nil {
		return nil, err
	}
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.DockerManifestSchema2), types.DockerConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{Layer: layer, History: v1.History{
		Created: v1.Time{Time: b.created}, CreatedBy: "tools/dist/build", Comment: "newsmock " + b.version,
	}})
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.Architecture, cf.OS, cf.Created = arch, "linux", v1.Time{Time: b.created}
	if arch == "arm64" {
		cf.Variant = "v8"
	}
	cf.Config = v1.Config{
		User:       user,
		WorkingDir: "/",
		Entrypoint: []string{"/usr/local/bin/newsmock"},
		Env: []string{
			"PATH=/usr/local/bin",
			// Every interface, so that a published port reaches it; who can
			// connect is decided by the publishing (-p 127.0.0.1:8080:8080).
			"NEWSMOCK_ADDR=0.0.0.0:" + port,
			"NEWSMOCK_ALLOW_REMOTE=true",
		},
		ExposedPorts: map[string]struct{}{port + "/tcp": {}},
		StopSignal:   "SIGTERM",
		Healthcheck: &v1.HealthConfig{
			Test:        []string{"CMD", "/usr/local/bin/newsmock", "health"},
			Interval:    2 * time.Second,
			Timeout:     5 * time.Second,
			StartPeriod: 10 * time.Second,
			Retries:     3,
		},
		Labels: map[string]string{
			"org.opencontainers.image.title":         "newsmock",
			"org.opencontainers.image.description":   "Mock of the news search service, for tests in any language",
			"org.opencontainers.image.version":       b.version,
			"org.opencontainers.image.revision":      b.revision,
			"org.opencontainers.image.created":       b.created.Format(time.RFC3339),
			"org.opencontainers.image.source":        b.source,
			"org.opencontainers.image.url":           b.source,
			"org.opencontainers.image.documentation": b.source + "/blob/main/docs/container.md",
			"org.opencontainers.image.licenses":      "MIT",
		},
	}
	return mutate.ConfigFile(img, cf)
}

// layer is the image's one layer, gzipped.
func (b builder) layer(exe, license []byte) (v1.Layer, error) {
	raw, err := b.tarFiles([]file{
		{"etc/", 0o755, nil},
		{"etc/group", 0o644, fmt.Appendf(nil, "root:x:0:\nnewsmock:x:%d:\n", uid)},
		{"etc/passwd", 0o644, fmt.Appendf(nil, "root:x:0:0:root:/:/sbin/nologin\nnewsmock:x:%d:%d:newsmock:/:/sbin/nologin\n", uid, uid)},
		{"usr/", 0o755, nil},
		{"usr/local/", 0o755, nil},
		{"usr/local/bin/", 0o755, nil},
		{"usr/local/bin/newsmock", 0o555, exe},
		{"usr/share/", 0o755, nil},
		{"usr/share/doc/", 0o755, nil},
		{"usr/share/doc/newsmock/", 0o755, nil},
		{"usr/share/doc/newsmock/LICENSE", 0o444, license},
	})
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression) // no name, no time in its header
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(gz.Bytes())), nil },
		tarball.WithMediaType(types.DockerLayer))
}

// file is a file of a tar archive; a name ending in / is a directory.
type file struct {
	name string
	mode int64
	body []byte
}

// tarFiles is a tar archive of files, in their order, each of time
// b.created and owned by root.
func (b builder) tarFiles(files []file) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Mode: f.mode, ModTime: b.created, Format: tar.FormatUSTAR, Typeflag: tar.TypeReg, Size: int64(len(f.body))}
		if strings.HasSuffix(f.name, "/") {
			h.Typeflag = tar.TypeDir
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.body); err != nil {
			return nil, err
		}
	}
	err := tw.Close()
	return buf.Bytes(), err
}

// writeArchive writes img as a docker-archive (what docker save writes and
// docker load and podman load read) tagged with the version and latest.
// It is written here rather than by go-containerregistry's tarball
// package, which lists an image's tags in map order.
func (b builder) writeArchive(name string, img v1.Image) error {
	config, err := img.RawConfigFile()
	if err != nil {
		return err
	}
	configName, err := img.ConfigName()
	if err != nil {
		return err
	}
	layers, err := img.Layers()
	if err != nil {
		return err
	}
	files := []file{{configName.Hex + ".json", 0o644, config}}
	var layerNames []string
	for _, l := range layers {
		d, err := l.Digest()
		if err != nil {
			return err
		}
		rc, err := l.Compressed()
		if err != nil {
			return err
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		layerNames = append(layerNames, d.Hex+".tar.gz")
		files = append(files, file{d.Hex + ".tar.gz", 0o644, body})
	}
	manifest, err := json.Marshal([]map[string]any{{
		"Config":   configName.Hex + ".json",
		"RepoTags": []string{repository + ":" + b.version, repository + ":latest"},
		"Layers":   layerNames,
	}})
	if err != nil {
		return err
	}
	archive, err := b.tarFiles(append(files, file{"manifest.json", 0o644, manifest}))
	if err != nil {
		return err
	}
	return os.WriteFile(name, archive, 0o644)
}
