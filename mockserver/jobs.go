package mockserver

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/newssearch/newssearch-go/mockserver/internal/jobs"
)

// JobInfo describes a live job.
type JobInfo struct {
	QueryID string
	// Owner is KeyFingerprint of the key that submitted the job.
	Owner string
	State JobState
	// Query is the query text; Body the submitted body, its api_key
	// redacted.
	Query string
	Body  string
	// Message is ForceJob's failure message.
	Message string
	Created time.Time // server clock
	// LastUsed is the submission or last poll; the job expires at Expires.
	LastUsed time.Time
	Expires  time.Time
	Polls    int
}

// KeyFingerprint returns how the mock shows an API key: "sha256:" and 16 hex
// digits of its SHA-256.
func KeyFingerprint(key string) string {
	return fingerprint(sha256.Sum256([]byte(key)))
}

func fingerprint(owner jobs.Owner) string {
	return "sha256:" + hex.EncodeToString(owner[:8])
}

// Jobs returns the live jobs in submission order, whoever owns them.
func (s *Server) Jobs() []JobInfo {
	list := s.jobs.List(s.clock())
	out := make([]JobInfo, len(list))
	for i, j := range list {
		out[i] = jobInfo(j)
	}
	return out
}

// JobState is a job's state, as get-results reports it.
type JobState string

// JobPending, JobSuccess and JobFailed are the states of a job.
const (
	JobPending JobState = "PENDING"
	JobSuccess JobState = "SUCCESS"
	JobFailed  JobState = "FAILED"
)

func jobInfo(j jobs.Info[jobQuery]) JobInfo {
	state := JobPending
	switch j.State {
	case jobs.Succeeded:
		state = JobSuccess
	case jobs.Failed:
		state = JobFailed
	}
	return JobInfo{QueryID: j.ID, Owner: fingerprint(j.Owner), State: state, Query: j.Query.query.Text, Body: string(redactBody(j.Query.body)),
		Message: j.Message, Created: j.Created, LastUsed: j.Used, Expires: j.Expires, Polls: j.Polls}
}

// ErrUnknownJob is the error ForceJob and ExpireJob return for a query id that
// is not live.
var ErrUnknownJob = errors.New("mockserver: no live job has this query_id: Jobs (GET /_mock/jobs) lists the live ones")

// ForceJob sets the state of job id: JobSuccess, JobFailed with message (a
// default one if blank), or JobPending until forced again or expired.
func (s *Server) ForceJob(id string, state JobState, message string) (JobInfo, error) {
	var st jobs.State
	switch state {
	case JobPending:
		st = jobs.Pending
	case JobSuccess:
		st = jobs.Succeeded
	case JobFailed:
		st = jobs.Failed
	default:
		return JobInfo{}, fmt.Errorf("mockserver: job state %s is unknown: use %q, %q or %q", quoteShort(string(state)), JobSuccess, JobFailed, JobPending)
	}
	if state != JobFailed && message != "" {
		return JobInfo{}, fmt.Errorf("mockserver: a message goes only with state %q: drop it, or force %q", JobFailed, JobFailed)
	}
	if state == JobFailed && strings.TrimSpace(message) == "" {
		message = "the query job failed because the mock server was told to fail it (POST /_mock/jobs/{id} or ForceJob): submit the query again"
	}
	info, ok := s.jobs.Force(id, st, message, s.clock())
	if !ok {
		return JobInfo{}, ErrUnknownJob
	}
	return jobInfo(info), nil
}

// ExpireJob forgets job id: its next get-results is a 404.
func (s *Server) ExpireJob(id string) error {
	if !s.jobs.Remove(id, s.clock()) {
		return ErrUnknownJob
	}
	return nil
}

// jobJSON is a JobInfo on the wire.
type jobJSON struct {
	QueryID  string    `json:"query_id"`
	Owner    string    `json:"owner"`
	State    JobState  `json:"state"`
	Query    string    `json:"query"`
	Body     string    `json:"body"`
	Message  string    `json:"message,omitempty"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used"`
	Expires  time.Time `json:"expires"`
	Polls    int       `json:"polls"`
}

type jobAnswer struct {
	State string  `json:"state"`
	Job   jobJSON `json:"job"`
}

func (s *Server) adminJobs(*adminCall) (any, *apiError) {
	list := s.Jobs()
	out := make([]jobJSON, len(list))
	for i, j := range list {
		out[i] = jobJSON(j)
	}
	return struct {
		State string    `json:"state"`
		Jobs  []jobJSON `json:"jobs"`
	}{"SUCCESS", out}, nil
}

func unknownJob(id string) *apiError {
	return &apiError{status: http.StatusNotFound, msg: fmt.Sprintf(
		"no live job has query_id %s (never issued, expired or removed): GET /_mock/jobs lists the live ones", quoteShort(id))}
}

func (s *Server) adminJob(c *adminCall) (any, *apiError) {
	for _, j := range s.Jobs() {
		if j.QueryID == c.id {
			return jobAnswer{"SUCCESS", jobJSON(j)}, nil
		}
	}
	return nil, unknownJob(c.id)
}

func (s *Server) adminForceJob(c *adminCall) (any, *apiError) {
	var in struct {
		State   string `json:"state"`
		Message string `json:"message"`
	}
	const example = `{"state": "FAILED", "message": "upstream timeout"}`
	if aerr := decodeStrict(c.body, &in, example, "state and message"); aerr != nil {
		return nil, aerr
	}
	if in.State == "" {
		return nil, badRequest("state is missing: send %s; state is SUCCESS, FAILED or PENDING", example)
	}
	info, err := s.ForceJob(c.id, JobState(strings.ToUpper(in.State)), in.Message)
	switch {
	case errors.Is(err, ErrUnknownJob):
		return nil, unknownJob(c.id)
	case err != nil:
		return nil, controlError(err)
	}
	return jobAnswer{"SUCCESS", jobJSON(info)}, nil
}

func (s *Server) adminExpireJob(c *adminCall) (any, *apiError) {
	if err := s.ExpireJob(c.id); err != nil {
		return nil, unknownJob(c.id)
	}
	return success, nil
}
