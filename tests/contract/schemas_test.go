package contract_test

import (
	"encoding/json"
	"testing"

	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/schema_validation"
)

// TestSchemaShapes holds the schemas that code generators made us write in
// a plainer form (see tests/codegen) to what they must still mean: a date
// is one of its forms and nothing else, an image is a URL, a list of URLs or
// null, and an answer with articles carries totalResults, totalArticles or
// both, never neither; and the mock's own schemas of issue 38 to what the
// mock accepts and sends.
func TestSchemaShapes(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	sv := schema_validation.NewSchemaValidator(config.WithFormatAssertions())
	for _, tc := range []struct {
		schema string
		value  string
		valid  bool
	}{
		{"RequestDate", `"2025-03-01T00:00:00.000Z"`, true},
		{"RequestDate", `"2025-03-01T01:00:00.123456+01:00"`, true},
		{"RequestDate", `"2025-03-03t00:00:00.5z"`, true},
		{"RequestDate", `"2025-03-01"`, true},
		{"RequestDate", `"2025-03-01T00:00:00"`, false}, // no zone
		{"RequestDate", `"2025-13-45"`, false},
		{"RequestDate", `"2025-03-01T24:00:00Z"`, false},
		{"RequestDate", `"yesterday"`, false},
		{"RequestDate", `" 2025-03-01"`, false},

		{"DatePublished", `"Wed, 13 Nov 2024 01:44:17 GMT"`, true},
		{"DatePublished", `"2025-01-19 01:04:00"`, true},
		{"DatePublished", `"2025-01-19T01:04:00Z"`, true},
		{"DatePublished", `"2025-01-19T01:04:00.123+02:00"`, true},
		{"DatePublished", `"2025-01-19"`, true},
		{"DatePublished", `"Wed, 13 Nov 2024 01:44:17 UTC"`, false},
		{"DatePublished", `"2025-01-19 01:04"`, false},
		{"DatePublished", `"last week"`, false},

		{"Image", `"https://example.com/a.jpg"`, true},
		{"Image", `["https://example.com/a.jpg", "https://example.com/b.jpg"]`, true},
		{"Image", `[]`, true},
		{"Image", `null`, true},
		{"Image", `42`, false},
		{"Image", `[42]`, false},

		{"SearchResults", `{"totalResults": 3, "articles": []}`, true},
		{"SearchResults", `{"totalArticles": 3, "articles": []}`, true},
		{"SearchResults", `{"totalResults": 3, "totalArticles": 3, "articles": []}`, true},
		{"SearchResults", `{"articles": []}`, false},
		{"SearchAnswer", `{"results": {"totalResults": 0, "articles": []}, "state": "SUCCESS"}`, true},
		{"SearchAnswer", `{"totalArticles": 0, "articles": [], "state": "SUCCESS"}`, true},
		{"SearchAnswer", `{"articles": [], "state": "SUCCESS"}`, false},
		{"SearchAnswer", `{"results": {"articles": []}, "state": "SUCCESS"}`, false},
		{"GetResultsAnswer", `{"query_id": "q", "page": 1, "totalResults": 0, "totalArticles": 0, "articles": [], "state": "SUCCESS"}`, true},
		{"GetResultsAnswer", `{"query_id": "q", "page": 1, "totalArticles": 0, "articles": [], "state": "SUCCESS"}`, true},
		{"GetResultsAnswer", `{"query_id": "q", "page": 1, "articles": [], "state": "SUCCESS"}`, false},
		{"GetResultsAnswer", `{"query_id": "q", "page": 1, "totalResults": 0, "articles": [], "state": "SUCCESS"}`, true},
		{"GetResultsAnswer", `{"query_id": "q", "state": "PENDING"}`, true},
		{"SearchAnswer", `{"totalResults": 0, "articles": [], "state": "SUCCESS"}`, true},
		{"SearchAnswer", `{"results": {"totalArticles": 0, "articles": []}, "state": "SUCCESS"}`, true},

		// The mock's journal echoes any request body; expectations take one value a member.
		{"MockJournalEntry", `{"seq": 1, "time": "2026-01-15T12:00:00Z", "request_id": "r", "method": "POST", "path": "/api/v2/query", "status": 400, "world": "default", "body": {"query": {"deep": [1]}}}`, true},
		{"MockJournalEntry", `{"seq": 1, "time": "2026-01-15T12:00:00Z", "request_id": "r", "method": "POST", "path": "/api/v2/query", "status": 400, "world": "default", "body": "(12 bytes, not JSON)"}`, true},
		{"MockJournalEntry", `{"seq": 1, "time": "2026-01-15T12:00:00Z", "request_id": "r", "method": "POST", "path": "/api/v2/query", "status": 400, "world": "default", "body": ["million"]}`, true},
		{"MockJournalEntry", `{"seq": 1, "time": "2026-01-15T12:00:00Z", "request_id": "r", "method": "POST", "path": "/api/v2/query", "status": 400, "world": "default"}`, true},
		{"MockExpectationInputs", `{"endpoint": "query", "body": {"query": "election", "page": 2, "embeddings": true}, "times": 1}`, true},
		{"MockExpectationInputs", `[{"endpoint": "headlines", "min": 1, "max": -1}, {"times": 0}]`, true},
		{"MockExpectationInputs", `{"body": {"sites": ["a"]}}`, false},
		{"MockExpectationInputs", `{"times": -1}`, false},
		{"MockExpectationInputs", `{"path": "query"}`, false},
		{"MockSettingsPatch", `{}`, true},
		{"MockSettingsPatch", `{"shape": {"totals": "totalArticles"}}`, true},
		{"MockSettingsPatch", `{"shape": {"results": "flat"}}`, false},
		{"MockSettingsPatch", `{"max_jobs": 0}`, false},
	} {
		var v any
		if err := json.Unmarshal([]byte(tc.value), &v); err != nil {
			t.Fatalf("%s %s: %v", tc.schema, tc.value, err)
		}
		ok, errs := sv.ValidateSchemaObject(c.componentSchema(t, tc.schema), v)
		if ok != tc.valid {
			t.Errorf("components/schemas/%s accepts %s: %v, want %v%s", tc.schema, tc.value, ok, tc.valid, formatErrors(errs))
		}
	}
}
