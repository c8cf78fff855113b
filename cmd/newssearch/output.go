package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/rivo/uniseg"
	"github.com/spf13/cobra"

	newssearch "github.com/newssearch/newssearch-go"
)

// field is one printable field of a kind of record.
type field struct {
	name string
	// value returns the field's value for JSON output.
	value func(rec any) any
	// text returns the field's value as table and CSV cells print it; nil
	// means textOf(value).
	text func(rec any) string
}

// kind describes a kind of record: its fields and default selections.
type kind struct {
	name    string
	fields  []field
	aliases map[string]string
	table   []string // default fields of a table
	csv     []string // default fields of CSV
	// full returns the record's JSON form when no --fields are given.
	full func(rec any) any
}

func (k *kind) field(name string) (field, bool) {
	if a, ok := k.aliases[name]; ok {
		name = a
	}
	for _, f := range k.fields {
		if f.name == name {
			return f, true
		}
	}
	return field{}, false
}

func (k *kind) names() []string {
	out := make([]string, len(k.fields))
	for i, f := range k.fields {
		out[i] = f.name
	}
	return out
}

// textOf renders a JSON value as a cell: strings as they are, numbers in
// their shortest form, lists of strings joined by ";", anything else as
// compact JSON.
func textOf(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []string:
		return strings.Join(x, ";")
	case newssearch.ImageList:
		return strings.Join(x, ";")
	case newssearch.Timestamp:
		return dateText(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if string(b) == "null" {
		return ""
	}
	return string(b)
}

// dateText prints a timestamp as every output but tables does: RFC 3339
// in UTC (with a fraction only when it has one), or as sent when it could
// not be parsed.
func dateText(ts newssearch.Timestamp) string { return machineDate(ts).Raw() }

// machineDate is ts as JSON, JSON Lines and CSV print it: Raw in RFC 3339
// (UTC), whatever form the service sent (RFC 1123 in search results,
// "YYYY-MM-DD HH:MM:SS" in headlines); one it could not parse stays as
// sent.
func machineDate(ts newssearch.Timestamp) newssearch.Timestamp {
	if ts.IsZero() {
		return ts
	}
	return newssearch.Timestamp{Time: ts.Time.UTC()}
}

func article(rec any) *newssearch.Article { return rec.(*newssearch.Article) }

var articleKind = &kind{
	name: "articles",
	fields: []field{
		{name: "_id", value: func(r any) any { return article(r).ID }},
		{name: "datePublished", value: func(r any) any { return article(r).DatePublished }},
		{name: "site", value: func(r any) any { return article(r).Site }},
		{name: "title", value: func(r any) any { return article(r).Title }},
		{name: "url", value: func(r any) any { return article(r).URL }},
		{name: "score", value: func(r any) any { return article(r).Score }},
		{name: "language", value: func(r any) any { return article(r).Language }},
		{name: "description", value: func(r any) any { return article(r).Description }},
		{name: "bodyText", value: func(r any) any { return article(r).BodyText }},
		{name: "image", value: func(r any) any { return article(r).Image }},
		{name: "favicon", value: func(r any) any { return article(r).Favicon }},
		{name: "category", value: func(r any) any { return article(r).Category }},
		{name: "topics", value: func(r any) any { return article(r).Topics }},
		{name: "sentiment", value: func(r any) any { return article(r).Sentiment }},
		{name: "entities", value: func(r any) any { return article(r).Entities }},
		{name: "entity_relationships", value: func(r any) any { return article(r).EntityRelationships }},
		{name: "embeddings", value: func(r any) any { return article(r).Embeddings }},
	},
	aliases: map[string]string{"id": "_id", "date": "datePublished", "body": "bodyText", "lang": "language"},
	table:   []string{"datePublished", "site", "score", "title"},
	csv:     []string{"_id", "datePublished", "site", "title", "url", "score", "language"},
	full: func(r any) any {
		a := *article(r)
		a.DatePublished = machineDate(a.DatePublished)
		return &a
	},
}

// headlineRow is one article of a headline cluster, with its cluster.
type headlineRow struct {
	cluster *newssearch.HeadlineCluster
	article *newssearch.HeadlineArticle
}

func hrow(rec any) headlineRow { return rec.(headlineRow) }

var headlineKind = &kind{
	name: "headlines",
	fields: []field{
		{name: "topic", value: func(r any) any { return hrow(r).cluster.Topic }},
		{name: "count", value: func(r any) any { return hrow(r).cluster.Count }},
		{name: "datePublished", value: func(r any) any { return hrow(r).article.DatePublished }},
		{name: "site", value: func(r any) any { return hrow(r).article.Site }},
		{name: "title", value: func(r any) any { return hrow(r).article.Title }},
		{name: "url", value: func(r any) any { return hrow(r).article.URL }},
		{name: "category", value: func(r any) any { return hrow(r).article.Category }},
		{name: "image", value: func(r any) any { return hrow(r).article.Image }},
		{name: "favicon", value: func(r any) any { return hrow(r).article.Favicon }},
	},
	aliases: map[string]string{"date": "datePublished"},
	table:   []string{"topic", "count", "datePublished", "site", "title"},
	csv:     []string{"topic", "count", "datePublished", "site", "title", "url", "category"},
}

// job is a submitted query, as async --no-wait prints it.
type job struct {
	QueryID string `json:"query_id"`
	State   string `json:"state"`
}

var jobKind = &kind{
	name: "job",
	fields: []field{
		{name: "query_id", value: func(r any) any { return r.(*job).QueryID }},
		{name: "state", value: func(r any) any { return r.(*job).State }},
	},
	table: []string{"query_id", "state"},
	csv:   []string{"query_id", "state"},
	full:  func(r any) any { return r },
}

// fieldNamesFor lists the fields of a command's records, for completion.
func fieldNamesFor(command string) []string {
	switch command {
	case "headlines":
		return headlineKind.names()
	case "check":
		return nil
	}
	return articleKind.names()
}

func fieldsHelpTopic() *cobra.Command {
	return &cobra.Command{
		Use:   "fields",
		Short: "The fields --fields can name",
		Long: `--fields name,name,... chooses and orders the printed fields.

Articles (search, async, results, range):
  ` + strings.Join(articleKind.names(), ", ") + `
  (aliases: id, date, body, lang)
  table default: ` + strings.Join(articleKind.table, ",") + `
  csv default:   ` + strings.Join(articleKind.csv, ",") + `
  json and jsonl print every field unless --fields is given.

Headlines (one record per article of a cluster):
  ` + strings.Join(headlineKind.names(), ", ") + `
  table default: ` + strings.Join(headlineKind.table, ",") + `
  csv default:   ` + strings.Join(headlineKind.csv, ",") + `
  json and jsonl print whole clusters unless --fields is given.

Lists print joined by ";" in tables and CSV; objects print as JSON.`,
	}
}

// printer writes records in one format.
type printer interface {
	write(rec any) error
	// close finishes the output (the closing bracket of JSON, the table).
	close() error
}

// newPrinter returns a printer of records of kind k in format, choosing the
// fields from --fields or the format's defaults. full, when not nil, is the
// JSON form of a whole record without --fields.
func (a *app) newPrinter(w io.Writer, k *kind) (printer, error) {
	format := a.outputFormat()
	var names []string
	switch {
	case len(a.fields) > 0:
		names = a.fields
	case format == "table":
		names = k.table
	case format == "csv":
		names = k.csv
	}
	var fs []field
	for _, n := range names {
		n = strings.TrimSpace(n)
		f, ok := k.field(n)
		if !ok {
			return nil, usagef("--fields: %q is not a field of %s: use any of %s", n, k.name, strings.Join(k.names(), ", "))
		}
		fs = append(fs, f)
	}
	bw := bufio.NewWriter(w)
	switch format {
	case "table":
		return &tablePrinter{w: bw, fields: fs, width: a.tableWidth()}, nil
	case "csv":
		return &csvPrinter{w: bw, cw: csv.NewWriter(bw), fields: fs}, nil
	case "json":
		return &jsonPrinter{w: bw, fields: fs, full: k.full, array: true}, nil
	default:
		return &jsonPrinter{w: bw, fields: fs, full: k.full}, nil
	}
}

// jsonPrinter writes a JSON array (array) or JSON Lines.
type jsonPrinter struct {
	w      *bufio.Writer
	fields []field
	full   func(any) any
	array  bool
	n      int
}

func (p *jsonPrinter) write(rec any) error {
	var b []byte
	var err error
	if len(p.fields) == 0 && p.full != nil {
		b, err = marshal(p.full(rec))
	} else {
		b, err = p.selected(rec)
	}
	if err != nil {
		return err
	}
	if p.array {
		if p.n == 0 {
			p.w.WriteString("[\n  ")
		} else {
			p.w.WriteString(",\n  ")
		}
	}
	p.n++
	p.w.Write(b)
	if !p.array {
		p.w.WriteByte('\n')
		return p.w.Flush() // a consumer such as jq sees every line at once
	}
	return nil
}

// selected encodes the chosen fields, in order, as one object.
func (p *jsonPrinter) selected(rec any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range p.fields {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(f.name)
		value := f.value(rec)
		if ts, ok := value.(newssearch.Timestamp); ok {
			value = machineDate(ts)
		}
		v, err := marshal(value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (p *jsonPrinter) close() error {
	if p.array {
		if p.n == 0 {
			p.w.WriteString("[]\n")
		} else {
			p.w.WriteString("\n]\n")
		}
	}
	return p.w.Flush()
}

// marshal encodes v without escaping <, > and & (the output is not HTML).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// csvPrinter writes a header row, then one row per record; no records, no
// header.
type csvPrinter struct {
	w      *bufio.Writer
	cw     *csv.Writer
	fields []field
	n      int
}

func (p *csvPrinter) write(rec any) error {
	if p.n == 0 {
		header := make([]string, len(p.fields))
		for i, f := range p.fields {
			header[i] = f.name
		}
		if err := p.cw.Write(header); err != nil {
			return err
		}
	}
	p.n++
	row := make([]string, len(p.fields))
	for i, f := range p.fields {
		row[i] = cellText(f, rec)
	}
	return p.cw.Write(row)
}

func (p *csvPrinter) close() error {
	p.cw.Flush()
	if err := p.cw.Error(); err != nil {
		return err
	}
	return p.w.Flush()
}

func cellText(f field, rec any) string {
	if f.text != nil {
		return f.text(rec)
	}
	return textOf(f.value(rec))
}

// tablePrinter aligns records in columns under upper-case headers. Cells are
// kept on one line and long ones shortened; with a width, rows are fitted
// to it (see fitColumns). A table of no records prints nothing, not even
// its header.
type tablePrinter struct {
	w      *bufio.Writer
	fields []field
	rows   [][]string
	width  int // the most columns a line may take; 0: no limit
}

// maxCell is the widest a table cell prints, in terminal columns.
const maxCell = 72

func (p *tablePrinter) write(rec any) error {
	row := make([]string, len(p.fields))
	for i, f := range p.fields {
		s := cellText(f, rec)
		if ts, ok := f.value(rec).(newssearch.Timestamp); ok && !ts.IsZero() {
			s = ts.Time.UTC().Format("2006-01-02 15:04")
		}
		if x, ok := f.value(rec).(float64); ok {
			s = strconv.FormatFloat(x, 'f', 3, 64)
		}
		row[i] = shorten(strings.Join(strings.Fields(s), " "), maxCell)
	}
	p.rows = append(p.rows, row)
	return nil
}

func (p *tablePrinter) close() error {
	if len(p.rows) > 0 {
		header := make([]string, len(p.fields))
		names := make([]string, len(p.fields))
		for i, f := range p.fields {
			header[i] = strings.ToUpper(f.name)
			names[i] = f.name
		}
		writeTable(p.w, header, p.rows, p.width, shrinkOrder(names))
	}
	return p.w.Flush()
}

// columnGap is the space between two columns of a table.
const columnGap = 2

// minColumn is the narrowest fitColumns makes a column it shrinks.
const minColumn = 8

// shrinkOrder returns the column shrunk first to fit a width: the title
// (or a check report's SEEN), else -1 for "the widest".
func shrinkOrder(names []string) int {
	for i, n := range names {
		if n == "title" || n == "SEEN" {
			return i
		}
	}
	return -1
}

// writeTable writes header and rows aligned in columns (by display width:
// an east-asian wide character takes two columns), fitted to width when it
// is positive. The last column is not padded.
func writeTable(w io.Writer, header []string, rows [][]string, width, first int) {
	widths := make([]int, len(header))
	all := append([][]string{header}, rows...)
	for _, r := range all {
		for i, c := range r {
			widths[i] = max(widths[i], uniseg.StringWidth(c))
		}
	}
	if width > 0 {
		fitColumns(widths, width, first)
	}
	var b strings.Builder
	for _, r := range all {
		b.Reset()
		for i, c := range r {
			c = shorten(c, widths[i])
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-uniseg.StringWidth(c)+columnGap))
			}
		}
		b.WriteByte('\n')
		io.WriteString(w, b.String())
	}
}

// fitColumns narrows widths until a row of them, with the gaps, fits in
// width, in phases: column first (the title; -1 for none) down to
// titleFloor, then the others, widest first, down to otherFloor, then all
// of them down to minColumn. Columns already narrow stay as they are, so a
// table of many columns may still be wider than width.
func fitColumns(widths []int, width, first int) {
	over := func() int {
		t := columnGap*(len(widths)-1) - width
		for _, w := range widths {
			t += w
		}
		return t
	}
	const titleFloor, otherFloor = 24, 12
	for _, ph := range []struct {
		col, floor int
		others     bool // widest first among the columns other than first
	}{{col: first, floor: titleFloor}, {col: -1, floor: otherFloor, others: true}, {col: first, floor: minColumn}, {col: -1, floor: minColumn}} {
		for o := over(); o > 0; o = over() {
			i := ph.col
			if i < 0 {
				for j, w := range widths {
					if w > ph.floor && (!ph.others || j != first) && (i < 0 || w > widths[i]) {
						i = j
					}
				}
			}
			if i < 0 || widths[i] <= ph.floor {
				break
			}
			widths[i] = max(ph.floor, widths[i]-o)
		}
	}
}

// shorten cuts s to at most n terminal columns, marking the cut with "…".
// It cuts between grapheme clusters (a letter and its accents, an emoji
// sequence, a flag stay whole) and counts an east-asian wide character as
// two columns.
func shorten(s string, n int) string {
	if uniseg.StringWidth(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	var b strings.Builder
	used, state := 0, -1
	rest := s
	for rest != "" {
		var cluster string
		var w int
		cluster, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if used+w > n-1 { // room for the ellipsis
			break
		}
		b.WriteString(cluster)
		used += w
	}
	return b.String() + "…"
}

// printArticles prints articles, at most limit of them (0: all).
func (a *app) printArticles(w io.Writer, articles []newssearch.Article, limit int) error {
	p, err := a.newPrinter(w, articleKind)
	if err != nil {
		return err
	}
	for i := range articles {
		if limit > 0 && i >= limit {
			break
		}
		if err := p.write(&articles[i]); err != nil {
			return err
		}
	}
	return p.close()
}

// clusterKind prints whole headline clusters (json and jsonl without
// --fields).
var clusterKind = &kind{
	name: "headlines",
	full: func(r any) any {
		c := *r.(*newssearch.HeadlineCluster)
		c.Articles = slices.Clone(c.Articles)
		for i := range c.Articles {
			c.Articles[i].DatePublished = machineDate(c.Articles[i].DatePublished)
		}
		return &c
	},
}
