module github.com/newssearch/newssearch-go/tools/bench

go 1.25.0

// The harness always measures the checkout it sits in.
replace github.com/newssearch/newssearch-go => ../..

require github.com/newssearch/newssearch-go v0.0.0-00010101000000-000000000000

require (
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
)
