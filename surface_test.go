package newssearch

import (
	"slices"
	"strings"
	"testing"

	"github.com/newssearch/newssearch-go/internal/apisurface"
)

// Targets for the package's exported surface (issue 27, "one way to do each
// thing"), counted as go/doc counts them over the non-test files. Issue 35
// added the second option type, CallOption, so that the compiler tells
// which options a call takes, and issue 42 the four that scope the options
// structs to the calls they tune, and CheckKeyPhrases (the names they cost).
const (
	maxExportedNames = 132 // types + funcs + methods + consts + vars
	maxClientMethods = 11
	maxErrorTypes    = 5
)

// wantOptionTypes are the option types: NewClient's and the calls'.
var wantOptionTypes = []string{"CallOption", "Option", "PageOption", "PollOption", "RangeOption", "ResultsOption"}

// TestSurface keeps the exported API within the targets of issues 27 and
// 35: at most 132 names, 11 Client methods, the six option types and five
// error types, every name with a doc comment that starts with it. Raising
// a target is a design decision: make it in the issue, not here.
func TestSurface(t *testing.T) {
	t.Parallel()
	s, err := apisurface.Read(".", "github.com/newssearch/newssearch-go")
	if err != nil {
		t.Fatal(err)
	}
	var optionTypes []string
	for _, typ := range s.Types {
		if strings.HasSuffix(typ, "Option") {
			optionTypes = append(optionTypes, typ)
		}
	}
	clientMethods := s.MethodsOf["Client"]
	t.Logf("%d exported names: %d types, %d funcs, %d methods, %d consts, %d vars; Client methods %v; error types %v; option types %v",
		s.Total(), len(s.Types), len(s.Funcs), len(s.Methods), len(s.Consts), len(s.Vars), clientMethods, s.ErrorTypes, optionTypes)
	if n := s.Total(); n > maxExportedNames {
		t.Errorf("%d exported names, more than %d: types %v, funcs %v, methods %v, consts %v, vars %v",
			n, maxExportedNames, s.Types, s.Funcs, s.Methods, s.Consts, s.Vars)
	}
	if n := len(clientMethods); n > maxClientMethods {
		t.Errorf("Client has %d methods, more than %d: %v", n, maxClientMethods, clientMethods)
	}
	if !slices.Equal(optionTypes, wantOptionTypes) {
		t.Errorf("option types %v, want only %v", optionTypes, wantOptionTypes)
	}
	if n := len(s.ErrorTypes); n > maxErrorTypes {
		t.Errorf("%d error types, more than %d: %v", n, maxErrorTypes, s.ErrorTypes)
	}
	if len(s.Undocumented) > 0 {
		t.Errorf("exported names whose doc comment does not start with the name: %v", s.Undocumented)
	}
}
