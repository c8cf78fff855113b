module github.com/newssearch/newssearch-go/tools/vulndb

go 1.25.0

require golang.org/x/mod v0.38.0
