package mockserver

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// clockOf reads a world's clock and clock setting over HTTP.
func clockOf(t *testing.T, s *Server, key string) (time.Time, bool, string) {
	t.Helper()
	c := decode[clockAnswer](t, call(t, s, http.MethodGet, "/_mock/clock", "", KeyHeader, key))
	st := decode[struct {
		Settings settingsJSON `json:"settings"`
	}](t, call(t, s, http.MethodGet, "/_mock/settings", "", KeyHeader, key))
	return c.Now, c.Manual, st.Settings.Clock
}

// TestClockPerWorldModel: seeded random runs of clock operations over HTTP
// on three worlds of a server whose clock is real (WithClock at t0) agree
// with a model in which each world has its own clock: PATCH
// /_mock/settings {"clock": ...} switches only the caller's world, POST
// /_mock/clock moves a manual one and is a 409 on a real one, and reset
// returns the world to the server's clock. A request's journal time
// follows its world's clock.
func TestClockPerWorldModel(t *testing.T) {
	t.Parallel()
	s := start(t, WithWorldPerKey())
	keys := []string{"w0", "w1", "w2"}
	type model struct {
		manual bool
		now    time.Time
	}
	m := map[string]*model{}
	for _, k := range keys {
		m[k] = &model{now: t0}
	}
	rng := rand.New(rand.NewPCG(45, 1))
	for step := range 400 {
		k := keys[rng.IntN(len(keys))]
		w := m[k]
		var r reply
		var op string
		switch rng.IntN(6) {
		case 0:
			op = `PATCH {"clock":"manual"}`
			r = call(t, s, http.MethodPatch, "/_mock/settings", `{"clock":"manual"}`, KeyHeader, k)
			w.manual = true
		case 1:
			at := t0.Add(time.Duration(rng.IntN(1000)-500) * time.Hour)
			op = fmt.Sprintf(`PATCH {"clock":"manual=%s"}`, at.Format(time.RFC3339))
			r = call(t, s, http.MethodPatch, "/_mock/settings", fmt.Sprintf(`{"clock":"manual=%s"}`, at.Format(time.RFC3339)), KeyHeader, k)
			w.manual, w.now = true, at
		case 2:
			op = `PATCH {"clock":"real"}`
			r = call(t, s, http.MethodPatch, "/_mock/settings", `{"clock":"real"}`, KeyHeader, k)
			*w = model{now: t0}
		case 3:
			d := time.Duration(1+rng.IntN(90)) * time.Minute
			op = "advance " + d.String()
			r = call(t, s, http.MethodPost, "/_mock/clock", fmt.Sprintf(`{"advance":%q}`, d), KeyHeader, k)
			if !w.manual {
				if r.Status != http.StatusConflict {
					t.Fatalf("step %d %s on %s, a real clock: %d %s, want 409", step, op, k, r.Status, r.Body)
				}
				continue
			}
			w.now = w.now.Add(d)
		case 4:
			op = "reset"
			r = call(t, s, http.MethodPost, "/_mock/reset", "", KeyHeader, k)
			*w = model{now: t0}
		case 5:
			op = "query"
			r = call(t, s, http.MethodPost, "/api/v2/query", fmt.Sprintf(`{"api_key":%q,"query":"election"}`, k))
			j := s.World(k).Journal()
			if got := j[len(j)-1].Time; r.Status == 200 && !got.Equal(w.now) {
				t.Fatalf("step %d: a request to %s is journaled at %v, want its world's clock %v", step, k, got, w.now)
			}
		}
		if r.Status != 200 {
			t.Fatalf("step %d %s on %s: %d %s", step, op, k, r.Status, r.Body)
		}
		for _, k := range keys {
			now, manual, setting := clockOf(t, s, k)
			want := map[bool]string{true: "manual", false: "real"}[m[k].manual]
			if !now.Equal(m[k].now) || manual != m[k].manual || setting != want {
				t.Fatalf("step %d (%s on %s): world %s reads %v manual=%v setting %q, want %v manual=%v %q",
					step, op, k, k, now, manual, setting, m[k].now, m[k].manual, want)
			}
		}
	}
	if now, manual, _ := clockOf(t, s, ""); !now.Equal(t0) || manual {
		t.Fatalf("the default world's clock moved: %v manual=%v", now, manual)
	}
}

// TestClockSwitchBackFromManualStart: on a server started with a manual
// clock, a world switched to the real clock reads the time now; reset
// returns it to the manual clock at its start. The Go API does the same.
func TestClockSwitchBackFromManualStart(t *testing.T) {
	t.Parallel()
	s := start(t, WithManualClock(t0))
	before := time.Now()
	if r := call(t, s, http.MethodPatch, "/_mock/settings", `{"clock": "real"}`); r.Status != 200 {
		t.Fatalf("PATCH real: %d %s", r.Status, r.Body)
	}
	if r := call(t, s, http.MethodDelete, "/_mock/settings", ""); r.Status != 200 || !s.Now().Equal(t0) || s.Settings().Clock != "manual" {
		t.Fatalf("DELETE /_mock/settings: %d %s; clock %v, want the server's manual clock at %v", r.Status, r.Body, s.Now(), t0)
	}
	if r := call(t, s, http.MethodPatch, "/_mock/settings", `{"clock": "real"}`); r.Status != 200 {
		t.Fatalf("PATCH real: %d %s", r.Status, r.Body)
	}
	if now := s.Now(); now.Before(before) || now.After(time.Now()) || s.Settings().Clock != "real" {
		t.Fatalf("after switching to real: %v (%s), want the time now", now, s.Settings().Clock)
	}
	if _, err := s.SetClock(t0); !errors.Is(err, ErrRealClock) {
		t.Fatalf("SetClock on the real clock: %v", err)
	}
	s.Reset()
	if _, err := s.SetClock(t0.Add(time.Hour)); err != nil || s.Settings().Clock != "manual" {
		t.Fatalf("after Reset: %v, clock %q", err, s.Settings().Clock)
	}
	s.Reset()
	st := s.Settings()
	st.Clock = "manual=2030-01-01T00:00:00Z"
	if err := s.SetSettings(st); err != nil || !s.Now().Equal(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("SetSettings manual=2030: %v, now %v", err, s.Now())
	}
	st.Clock = ""
	st.PendingPolls = 4
	if err := s.SetSettings(st); err != nil || s.Settings().Clock != "manual" || s.Settings().PendingPolls != 4 {
		t.Fatalf("SetSettings with Clock \"\" must keep the clock: %v %+v", err, s.Settings())
	}
}

// TestClockSettingRefused: a bad clock setting is a 400 that says what to
// write, and nothing changes, not even the other settings of the PATCH.
func TestClockSettingRefused(t *testing.T) {
	t.Parallel()
	s := start(t)
	const use = `write "real", "manual" (from the world's time now) or "manual=2026-01-15T12:00:00Z"`
	const rng = "the server clock runs from 1970-01-01T00:00:00Z to 9700-01-01T00:00:00Z"
	for _, tt := range []struct{ clock, want string }{
		{"fake", `clock "fake" is not a clock: ` + use},
		{"real=2026-01-15T12:00:00Z", `clock "real=2026-01-15T12:00:00Z" is not a clock: ` + use},
		{"manual=tomorrow", `clock "manual=tomorrow": the time is not an RFC 3339 time within range (` + rng + `): write e.g. "manual=2026-01-15T12:00:00Z"`},
		{"manual=9999-01-01T00:00:00Z", `clock "manual=9999-01-01T00:00:00Z": the time is not an RFC 3339 time within range (` + rng + `): write e.g. "manual=2026-01-15T12:00:00Z"`},
	} {
		r := call(t, s, http.MethodPatch, "/_mock/settings", fmt.Sprintf(`{"pending_polls": 7, "clock": %q}`, tt.clock))
		if got := decode[failure](t, r); r.Status != 400 || got.Message != "settings: "+tt.want {
			t.Errorf("clock %q: %d %q\nwant 400 %q", tt.clock, r.Status, got.Message, "settings: "+tt.want)
		}
	}
	if st := s.Settings(); st.PendingPolls != 1 || st.Clock != "real" {
		t.Fatalf("a refused PATCH changed the settings: %+v", st)
	}
}

// TestRealClockConflictNamesTheCallersWay: the 409 for moving a real clock
// names the way to switch in the language of the caller's User-Agent, and
// all of them when it cannot tell; never the key.
func TestRealClockConflictNamesTheCallersWay(t *testing.T) {
	t.Parallel()
	s := start(t, WithWorldPerKey())
	const curl = `curl -X PATCH http://mockserver.invalid/_mock/settings -H 'Content-Type: application/json'`
	for _, tt := range []struct{ agent, key, want, not string }{
		{"newsmock-python/0.1.0", "", "first with mock.use_manual_clock() (Python); or start", "useManualClock"},
		{"newsmock-node/0.1.0", "", "first with await mock.useManualClock() (Node); or start", "use_manual_clock"},
		{"curl/8.5.0", "", "first with " + curl + ` -d '{"clock": "manual"}'; or start`, "Python"},
		{"curl/8.5.0", "secret-key-1", "first with " + curl + ` -H 'X-Newsmock-Key: <the key>' -d '{"clock": "manual"}'; or start`, "secret-key-1"},
		{"Python-urllib/3.12", "secret-key-1", `(Python), or await mock.useManualClock() (Node), or st := srv.Settings(); st.Clock = "manual"; srv.SetSettings(st) (Go, package mockserver), or curl`, "secret-key-1"},
	} {
		headers := []string{"User-Agent", tt.agent}
		if tt.key != "" {
			headers = append(headers, KeyHeader, tt.key)
		}
		r := call(t, s, http.MethodPost, "/_mock/clock", `{"advance": "1h"}`, headers...)
		msg := decode[failure](t, r).Message
		if r.Status != http.StatusConflict || !strings.Contains(msg, tt.want) || strings.Contains(msg, tt.not) {
			t.Errorf("%s: %d %s\nwant it to hold %q and not %q", tt.agent, r.Status, msg, tt.want, tt.not)
		}
	}
}

// TestStrictIsAskedFor: expectations make a request none matches fail
// Verify only in a strict world (PATCH /_mock/settings {"strict": true},
// Settings.Strict, WithStrictExpectations); GET /_mock/verify lists it
// either way, and reset restores the server's strictness.
func TestStrictIsAskedFor(t *testing.T) {
	t.Parallel()
	for _, strictStart := range []bool{false, true} {
		var opts []Option
		if strictStart {
			opts = append(opts, WithStrictExpectations())
		}
		s := start(t, opts...)
		type verdict struct {
			Met             bool   `json:"met"`
			Strict          bool   `json:"strict"`
			Message         string `json:"message"`
			UnexpectedCount int    `json:"unexpected_count"`
			Unexpected      []struct {
				Path string `json:"path"`
			} `json:"unexpected"`
		}
		run := func(strict bool) {
			t.Helper()
			if r := call(t, s, http.MethodPost, "/_mock/expectations", `{"endpoint": "query", "body": {"query": "election"}}`); r.Status != 200 {
				t.Fatalf("expect: %d %s", r.Status, r.Body)
			}
			post(t, s, "/api/v2/query", map[string]any{"query": "election"})
			post(t, s, "/api/v2/headlines", map[string]any{})
			v := decode[verdict](t, call(t, s, http.MethodGet, "/_mock/verify", ""))
			if v.Met == strict || v.Strict != strict || v.UnexpectedCount != 1 || len(v.Unexpected) != 1 || v.Unexpected[0].Path != "/api/v2/headlines" {
				t.Fatalf("started strict %v, strict %v: verify %+v", strictStart, strict, v)
			}
			err := s.Verify()
			var ve *VerifyError
			if strict != (err != nil) || strict && (!errors.As(err, &ve) || !ve.Strict ||
				!strings.HasSuffix(err.Error(), "\n- unexpected request #2 /api/v2/headlines {\"api_key\":\"[redacted]\"}")) {
				t.Fatalf("started strict %v, strict %v: Verify() = %v", strictStart, strict, err)
			}
		}
		run(strictStart)
		s.Reset()
		if r := call(t, s, http.MethodPatch, "/_mock/settings", fmt.Sprintf(`{"strict": %v}`, !strictStart)); r.Status != 200 {
			t.Fatalf("PATCH strict: %d %s", r.Status, r.Body)
		}
		run(!strictStart)
		s.Reset()
		if s.Settings().Strict != strictStart {
			t.Fatalf("Reset left strict %v, want the server's %v", s.Settings().Strict, strictStart)
		}
	}
}

// TestClockSwitchConcurrent: switching a world's clock while its requests,
// clock moves and resets run is safe (under -race) and never a 500; every
// answer is one the calls allow.
func TestClockSwitchConcurrent(t *testing.T) {
	t.Parallel()
	s := start(t, WithWorldPerKey(), WithPendingPolls(0))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 100 {
				var r reply
				var err error
				switch (g + i) % 5 {
				case 0:
					r, err = tryCall(s, http.MethodPatch, "/_mock/settings", `{"clock": "manual"}`, KeyHeader, "shared")
				case 1:
					r, err = tryCall(s, http.MethodPatch, "/_mock/settings", `{"clock": "real"}`, KeyHeader, "shared")
				case 2:
					r, err = tryCall(s, http.MethodPost, "/_mock/clock", `{"advance": "1m"}`, KeyHeader, "shared")
				case 3:
					r, err = tryCall(s, http.MethodPost, "/_mock/reset", "", KeyHeader, "shared")
				default:
					r, err = tryCall(s, http.MethodPost, "/api/v2/query-async", `{"api_key": "shared", "query": "election"}`)
				}
				if err != nil { // t.Fatal may not run here, off the test's goroutine
					t.Errorf("goroutine %d call %d: %v", g, i, err)
					return
				}
				if r.Status != 200 && r.Status != http.StatusConflict {
					t.Errorf("goroutine %d call %d: %d %s", g, i, r.Status, r.Body)
				}
			}
		})
	}
	wg.Wait()
}
