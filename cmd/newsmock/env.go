package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
)

// envPrefix starts the environment variables that set flags: every flag
// -some-name has NEWSMOCK_SOME_NAME.
const envPrefix = "NEWSMOCK_"

// envNotFlags are the NEWSMOCK_ variables of the npm and Python packages,
// whose environment newsmock inherits, left alone: NEWSMOCK_BINARY names
// the binary they start, NEWSMOCK_URL a mock already running that they use
// instead.
var envNotFlags = []string{"NEWSMOCK_BINARY", "NEWSMOCK_URL"}

// envName is the variable of the flag name.
func envName(name string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// setFromEnv sets every flag of fs that the command line left out from its
// NEWSMOCK_ variable in environ ("NAME=value" strings, as os.Environ). An
// empty variable counts as unset. A NEWSMOCK_ variable that names no flag,
// or whose value the flag refuses, is an error that names it. It returns
// the variable of each flag it set, by flag name.
func setFromEnv(fs *flag.FlagSet, environ []string) (map[string]string, error) {
	onCommandLine := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { onCommandLine[f.Name] = true })
	flags := map[string]*flag.Flag{}
	fs.VisitAll(func(f *flag.Flag) { flags[envName(f.Name)] = f })

	environ = slices.Sorted(slices.Values(environ)) // the same error first, whatever the order
	set := map[string]string{}
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, envPrefix) || slices.Contains(envNotFlags, name) {
			continue
		}
		f := flags[name]
		if f == nil {
			return nil, fmt.Errorf("unknown environment variable %s: newsmock reads NEWSMOCK_<FLAG> for each of its flags "+
				"(upper case, '-' as '_', e.g. NEWSMOCK_WORLD_PER_KEY for -world-per-key); fix its name or unset it", name)
		}
		if value == "" || onCommandLine[f.Name] {
			continue
		}
		if err := fs.Set(f.Name, value); err != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				err = fmt.Errorf("want true or false")
			}
			return nil, fmt.Errorf("invalid value %q for environment variable %s (flag -%s): %v", value, name, f.Name, err)
		}
		set[f.Name] = name
	}
	return set, nil
}

// envNote adds to err, an error about flags, which of the flags it names
// were set by a variable (fromEnv, from setFromEnv).
func envNote(err error, fromEnv map[string]string) error {
	var notes []string
	words := strings.FieldsFunc(err.Error(), func(r rune) bool { return (r < 'a' || r > 'z') && r != '-' })
	for _, w := range words {
		if name, ok := strings.CutPrefix(w, "-"); ok && fromEnv[name] != "" {
			note := "-" + name + " came from " + fromEnv[name]
			if !slices.Contains(notes, note) {
				notes = append(notes, note)
			}
		}
	}
	if len(notes) == 0 {
		return err
	}
	return fmt.Errorf("%w (%s)", err, strings.Join(notes, ", "))
}
