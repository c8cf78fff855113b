package contract_test

import "testing"

// TestContract holds the SDK and the mock server to openapi.yaml with the
// validator: every request the SDK sends for a table of calls covering
// every parameter (unset, zero and set) must validate, and every response
// the mock sends for a table of good and bad requests must validate as an
// answer of its operation with its status code. Both tables also check
// that no JSON answer carries a member the document does not declare.
func TestContract(t *testing.T) {
	t.Parallel()
	var sdk, mock *checker
	t.Run("tables", func(t *testing.T) {
		t.Run("SDKRequests", func(t *testing.T) {
			t.Parallel()
			sdk = testSDKRequests(t, loadContract(t))
		})
		t.Run("MockResponses", func(t *testing.T) {
			t.Parallel()
			mock = testMockResponses(t, loadContract(t))
		})
	})
	if sdk == nil || mock == nil {
		return // a table stopped early; its failure says why
	}
	sdkReq, sdkResp := sdk.counts()
	mockReq, mockResp := mock.counts()
	t.Logf("SDK table: %d requests validated, %d responses validated", sdkReq, sdkResp)
	t.Logf("mock table: %d requests checked against the document, %d responses validated", mockReq, mockResp)
	t.Logf("total: %d requests, %d responses", sdkReq+mockReq, sdkResp+mockResp)
}
