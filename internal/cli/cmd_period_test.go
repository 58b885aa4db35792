package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"toolscope/core/catalog"
	"toolscope/fixtures"
)

func TestPeriodCommand(t *testing.T) {
	const now = "--now=2026-03-02T10:00:00Z"
	cases := []struct {
		name string
		args []string
		code int
		out  string // the whole of stdout
		err  string // a substring of stderr
	}{
		{"lookback", []string{"lookback", "24h", now, "--zone", "UTC"}, 0,
			"\"24h\" (lookback): ok\ncovers 2026-03-01T10:00:00Z .. 2026-03-02T10:00:00Z (1d)\n", ""},
		{"signed lookback needs no --", []string{"signed-lookback", "-30m", now, "--zone", "Europe/Paris"}, 0,
			"\"-30m\" (signed-lookback): ok\ncovers 2026-03-02T09:30:00Z .. 2026-03-02T10:00:00Z (30m)\n" +
				"in Europe/Paris: 2026-03-02T10:30:00+01:00 .. 2026-03-02T11:00:00+01:00\n", ""},
		{"flags first, value after --", []string{"--zone", "UTC", now, "signed-lookback", "--", "-2w"}, 0,
			"\"-2w\" (signed-lookback): ok\ncovers 2026-02-16T10:00:00Z .. 2026-03-02T10:00:00Z (14d)\n", ""},
		{"does not parse", []string{"lookback", "2 hours"}, 1,
			"\"2 hours\" (lookback): not a lookback (30m, 24h, 7d, 2w)\ndid you mean \"2h\"? a whole count and one unit letter: m, h, d or w\n", ""},
		{"a single instant is suggested a range up to now", []string{"iso-range", "2026-03-01T09:00:00+01:00", now, "--zone", "UTC"}, 1,
			"\"2026-03-01T09:00:00+01:00\" (iso-range): no \"..\" joining two instants\n" +
				"did you mean \"2026-03-01T08:00:00Z..2026-03-02T10:00:00Z\"? one instant is no range: from it up to now\n", ""},
		{"no suggestion where none is clear", []string{"lookback", "last week"}, 1,
			"\"last week\" (lookback): not a lookback (30m, 24h, 7d, 2w)\n", ""},
		{"a day that does not exist", []string{"iso-range", "2026-02-30T00:00:00Z..2026-03-01T00:00:00Z"}, 1,
			"\"2026-02-30T00:00:00Z..2026-03-01T00:00:00Z\" (iso-range): from: 2026-02-30 does not exist (February 2026 has 28 days)\n", ""},
		{"wall range in a zone", []string{"wall-range", "2026-07-01T09:00..2026-07-01T17:30", "--zone", "America/New_York"}, 0,
			"\"2026-07-01T09:00..2026-07-01T17:30\" (wall-range): ok\ncovers 2026-07-01T13:00:00Z .. 2026-07-01T21:30:00Z (8h30m)\n" +
				"in America/New_York: 2026-07-01T09:00:00-04:00 .. 2026-07-01T17:30:00-04:00\n", ""},
		{"wall time the zone skips", []string{"wall-range", "2026-03-08T02:30..2026-03-08T05:00", "--zone", "America/New_York"}, 0,
			"\"2026-03-08T02:30..2026-03-08T05:00\" (wall-range): ok\nno window: 2026-03-08T02:30 does not exist in America/New_York (the clocks skip it)\n", ""},
		{"a window past 292 years", []string{"iso-range", "1000-01-01T00:00:00Z..2000-01-01T00:00:00Z"}, 1,
			"\"1000-01-01T00:00:00Z..2000-01-01T00:00:00Z\" (iso-range): spans more than 292 years, longer than a window can be measured\n", ""},
		{"unknown spelling", []string{"relative", "24h"}, 2, "", `unknown spelling "relative" (want one of lookback, signed-lookback, iso-range, wall-range)`},
		{"bad now", []string{"lookback", "24h", "--now", "yesterday"}, 2, "", `--now "yesterday": want an RFC 3339 instant`},
		{"bad zone", []string{"lookback", "24h", "--zone", "Mars/Olympus"}, 2, "", `--zone "Mars/Olympus": not an IANA zone name`},
		{"Local is no zone name", []string{"lookback", "24h", "--zone", "Local"}, 2, "", `--zone "Local": not an IANA zone name`},
		{"bad format", []string{"lookback", "24h", "--format", "yaml"}, 2, "", `--format "yaml": want text or json`},
		{"unknown flag", []string{"lookback", "24h", "--strict"}, 2, "", "flag provided but not defined: --strict"},
		{"one argument", []string{"lookback"}, 2, "", "want two arguments, SPELLING VALUE; got 1"},
		{"three arguments", []string{"lookback", "24h", "7d"}, 2, "", "got 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCmd("", append([]string{"period"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
			if out != c.out {
				t.Errorf("stdout\n got %q\nwant %q", out, c.out)
			}
			if !strings.Contains(errOut, c.err) || (c.err == "") != (errOut == "") {
				t.Errorf("stderr %q, want it to hold %q", errOut, c.err)
			}
			if c.code == 2 && strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("a usage error should be one line:\n%s", errOut)
			}
		})
	}
}

func TestPeriodHelp(t *testing.T) {
	code, out, _ := runCmd("", "period", "--help")
	for _, s := range []string{"Usage: toolscope period [flags] SPELLING VALUE", "signed-lookback", "wall-range", "Exit codes: 0", "--zone ZONE", "--now INSTANT"} {
		if !strings.Contains(out, s) {
			t.Errorf("help lacks %q:\n%s", s, out)
		}
	}
	if code != 0 {
		t.Errorf("--help exits %d", code)
	}
}

func TestPeriodJSON(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"lookback", "90m", "--now", "2026-03-02T10:00:00+01:00", "--zone", "Europe/Paris"}, 0,
			`{"spelling":"lookback","value":"90m","ok":true,"window":{"from":"2026-03-02T07:30:00Z","to":"2026-03-02T09:00:00Z","duration":"1h30m"},"zone":"Europe/Paris"}`},
		{[]string{"iso-range", "2026-03-01T09:00:00.25+05:30..2026-03-01T10:00:00Z", "--zone", "UTC"}, 0,
			`{"spelling":"iso-range","value":"2026-03-01T09:00:00.25+05:30..2026-03-01T10:00:00Z","ok":true,"window":{"from":"2026-03-01T03:30:00.25Z","to":"2026-03-01T10:00:00Z","duration":"6h29m59s750ms"},"zone":"UTC"}`},
		{[]string{"signed-lookback", "24h", "--zone", "UTC"}, 1,
			`{"spelling":"signed-lookback","value":"24h","ok":false,"reason":"no leading minus (a signed-lookback is like -24h)","suggestion":{"value":"-24h","why":"a signed-lookback starts with a minus"},"zone":"UTC"}`},
		{[]string{"iso-range", "2026-03-01T09:00..2026-03-01T10:00", "--zone", "Europe/Paris"}, 1,
			`{"spelling":"iso-range","value":"2026-03-01T09:00..2026-03-01T10:00","ok":false,"reason":"from: no zone (end it with Z or ±hh:mm)","suggestion":{"value":"2026-03-01T09:00:00+01:00..2026-03-01T10:00:00+01:00","why":"each end with Europe/Paris's offset"},"zone":"Europe/Paris"}`},
		{[]string{"iso-range", "2026-03-01T09:00..2026-03-01T10:00"}, 1,
			`{"spelling":"iso-range","value":"2026-03-01T09:00..2026-03-01T10:00","ok":false,"reason":"from: no zone (end it with Z or ±hh:mm)","suggestion":{"value":"2026-03-01T09:00:00Z..2026-03-01T10:00:00Z","why":"each end with a zone: Z for UTC"},"zone":"Local"}`},
		{[]string{"lookback", "90m", "--now", "2026-03-02T10:00:00.987654321Z", "--zone", "UTC"}, 0,
			`{"spelling":"lookback","value":"90m","ok":true,"window":{"from":"2026-03-02T08:30:00Z","to":"2026-03-02T10:00:00Z","duration":"1h30m"},"zone":"UTC"}`},
		{[]string{"wall-range", "2026-03-29T02:30..2026-03-29T05:00", "--zone", "Europe/Paris"}, 0,
			`{"spelling":"wall-range","value":"2026-03-29T02:30..2026-03-29T05:00","ok":true,"zone":"Europe/Paris","unplaced":"2026-03-29T02:30 does not exist in Europe/Paris (the clocks skip it)"}`},
	}
	for _, c := range cases {
		code, out, errOut := runCmd("", append([]string{"period", "--format", "json"}, c.args...)...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, c.code, errOut)
		}
		var compact strings.Builder
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, out)
		}
		if err := json.NewEncoder(&compact).Encode(json.RawMessage(out)); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(compact.String()); got != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.args, got, c.want)
		}
	}
}

func TestSignedValuesLast(t *testing.T) {
	cases := []struct{ in, want []string }{
		{[]string{"signed-lookback", "-24h"}, []string{"--", "signed-lookback", "-24h"}},
		{[]string{"--zone", "UTC", "lookback", "24h", "--format=json"}, []string{"--zone", "UTC", "--format=json", "--", "lookback", "24h"}},
		{[]string{"-now", "2026-03-02T10:00:00Z", "signed-lookback", "-5m"}, []string{"-now", "2026-03-02T10:00:00Z", "--", "signed-lookback", "-5m"}},
		{[]string{"lookback", "--", "--help"}, []string{"--", "lookback", "--help"}},
		{[]string{"--help"}, []string{"--help", "--"}},
		{[]string{"lookback", "-"}, []string{"--", "lookback", "-"}},
	}
	for _, c := range cases {
		if got := signedValuesLast(c.in, "zone", "now", "format"); !slices.Equal(got, c.want) {
			t.Errorf("signedValuesLast(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCheckArgsDeclarations(t *testing.T) {
	cases := []struct {
		name string
		args []string
		out  []string
	}{
		{"fates", []string{"get_volume_status", `{"volume_id":"vol-0a1b2c3d"}`},
			[]string{"Declarations:\n", `  pool: assumed "gold" (recorded as default)`, `  region: asked "Which region?" ["eu", "us"]`,
				"  asked in one batch, before anything runs: region"}},
		{"a period value that does not parse", []string{"hist_volume_status", `{"volume_id":"vol-0a1b2c3d","window":"2 hours"}`},
			[]string{`  window "2 hours" (lookback): not a lookback (30m, 24h, 7d, 2w)`, `  window: did you mean "2h"? a whole count and one unit letter: m, h, d or w`}},
		{"the declaration's own phrase", []string{"hist_volume_status", `{"volume_id":"vol-0a1b2c3d","window":"Past week"}`},
			[]string{`  window "Past week": read as 7d, the declaration's own phrase for that choice`, "  covers ", " (7d)\n"}},
		{"a slip of the declaration's phrase", []string{"hist_volume_status", `{"volume_id":"vol-0a1b2c3d","window":"past fortnite"}`},
			[]string{`  window: did you mean "past fortnight"? the declaration's own phrase for 2w`}},
		{"a refused declaration", []string{"get_request_latency", `{}`},
			[]string{`Declarations refused: tool get_request_latency: askOrAssume.unit: assume "minutes" is not one of "ms", "s"`}},
		{"shown under a rejection too", []string{"schedule_maintenance", `{"window":"2099-03-01T09:00:00Z..2099-03-01T10:30:00Z"}`},
			[]string{"The model gets", "  covers 2099-03-01T09:00:00Z .. 2099-03-01T10:30:00Z (1h30m)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, out, errOut := runCmd("", append([]string{"check-args", demoPath}, c.args...)...)
			for _, s := range c.out {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s%s", s, out, errOut)
				}
			}
		})
	}
	_, out, _ := runCmd("", "check-args", demoPath, "get_incident", `{"incident_id": "INC-20417"}`)
	if strings.Contains(out, "Declarations") {
		t.Errorf("a tool with no declarations shows some:\n%s", out)
	}
}

func TestCheckArgsDeclarationsJSON(t *testing.T) {
	_, out, _ := runCmd("", "check-args", "--format", "json", demoPath, "get_request_latency", `{}`)
	var r struct {
		Declarations struct{ Refused string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Declarations.Refused, "tool get_request_latency: askOrAssume.unit:") {
		t.Errorf("refusal in JSON: %q", r.Declarations.Refused)
	}
	for _, c := range []struct{ window, suggestion, readAs string }{{"7 days", "7d", ""}, {"last week", "", "7d"}} {
		_, out, _ = runCmd("", "check-args", "--format", "json", demoPath, "hist_volume_status", `{"volume_id":"vol-0a1b2c3d","window":"`+c.window+`"}`)
		var sug struct {
			Declarations struct {
				Period struct {
					Values []struct {
						Suggestion *struct{ Value, Why string }
						ReadAs     any
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &sug); err != nil {
			t.Fatal(err)
		}
		v := sug.Declarations.Period.Values
		if len(v) != 1 || (v[0].Suggestion == nil) != (c.suggestion == "") || (c.suggestion != "" && v[0].Suggestion.Value != c.suggestion) || (v[0].ReadAs == nil) != (c.readAs == "") || (c.readAs != "" && v[0].ReadAs != c.readAs) {
			t.Errorf("window %q: period values in JSON: %s", c.window, out)
		}
	}
}

func TestResolveDeclarations(t *testing.T) {
	cat, err := catalog.Parse(fixtures.DemoName, fixtures.Demo())
	if err != nil {
		t.Fatal(err)
	}
	tool, _ := cat.Lookup("list_deploys")
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	d := resolveDeclarations(tool, `{"service": "checkout"}`, now, time.UTC)
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"arguments":[{"argument":"since","fate":"untaken"},{"argument":"until","fate":"untaken"},{"argument":"days","fate":"assumed","value":3}],` +
		`"period":{"forms":["bounds since (iso) .. until (iso, exclusive)","lookback days (d)"],"taken":-1,"owed":1,"untaken":["since","until"],` +
		`"values":[{"argument":"days","as":"count","source":"assumed","value":3,"ok":true}],"zone":"UTC",` +
		`"window":{"from":"2026-02-27T10:00:00Z","to":"2026-03-02T10:00:00Z","duration":"3d"}}}`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
	if resolveDeclarations(tool, `{"service": `, now, time.UTC) != nil {
		t.Error("arguments that do not parse still resolved")
	}
	plain, _ := cat.Lookup("get_incident")
	if resolveDeclarations(plain, `{}`, now, time.UTC) != nil {
		t.Error("a tool with no declarations resolved something")
	}
}

// TestTextReportToFullDisk: a text report that cannot be written is an
// error (one line, exit 2), not a silent success.
func TestTextReportToFullDisk(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full here: %v", err)
	}
	defer full.Close()
	const report = "writing the report: "
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"period", []string{"period", "lookback", "24h", "--zone", "UTC"}, report},
		{"period, a value that does not parse", []string{"period", "lookback", "2 hours"}, report},
		{"check-args", []string{"check-args", demoPath, "get_incident", `{"incident_id": "INC-20417"}`}, report},
		{"check-args, rejected", []string{"check-args", demoPath, "get_volume_status", `{"volume_id": "yes please"}`}, report},
		{"lint", []string{"lint", "--no-similarity", demoPath}, report},
		{"diff", []string{"diff", "--no-similarity", demoPath, demoPath}, report},
		{"init to stdout", []string{"init", "-"}, "writing the config: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var errb bytes.Buffer
			code := run(c.args, stdio{in: strings.NewReader(""), out: full, err: &errb})
			msg := strings.Join(withoutProgress(errb.String()), "\n") + "\n"
			if code != 2 || !strings.Contains(msg, c.want) || !strings.Contains(msg, "no space left on device") || strings.Count(msg, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line saying the write failed", code, msg)
			}
		})
	}
}
