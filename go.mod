module github.com/newssearch/newssearch-go

go 1.25

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/jarcoal/httpmock v1.4.2 // indirect
	go.uber.org/goleak v1.3.0 // indirect
)
