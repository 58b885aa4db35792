package catalog

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestApplyPatchKeepsEveryOtherByte(t *testing.T) {
	indented := "{\n  \"tools\": [\n    {\n      \"name\": \"a.b\",\n      \"inputSchema\": {\n        \"properties\": {\n          \"m\": {\n            \"type\": \"string\"\n          }\n        }\n      }\n    }\n  ]\n}\n"
	for _, tc := range []struct {
		name, doc string
		ops       string
		want      string // the document after, or "error: words"
	}{
		{"replace a string, escapes elsewhere kept", `{"tools": [{"name": "a.b", "description": "x\u00e9 <b>"}]}`,
			`[{"op":"replace","path":"/tools/0/name","value":"a_b"}]`,
			`{"tools": [{"name": "a_b", "description": "x\u00e9 <b>"}]}`},
		{"add a member on a line of its own, as indented", indented,
			`[{"op":"add","path":"/tools/0/inputSchema/properties/m/enum","value":["x", "y"]}]`,
			strings.Replace(indented, `"type": "string"`, "\"type\": \"string\",\n            \"enum\": [\"x\",\"y\"]", 1)},
		{"add a member to a one-line object", `[{"name":"a","parameters":{"type":"object"}}]`,
			`[{"op":"add","path":"/0/parameters/x","value":1}]`,
			`[{"name":"a","parameters":{"type":"object", "x": 1}}]`},
		{"add to an empty object", `[{"name":"a","parameters":{}}]`,
			`[{"op":"add","path":"/0/parameters/x","value":true}]`,
			`[{"name":"a","parameters":{"x": true}}]`},
		{"add over a present member replaces it", `[{"name":"a","enum":[1, 2]}]`,
			`[{"op":"add","path":"/0/enum","value":[3]}]`,
			`[{"name":"a","enum":[3]}]`},
		{"an escaped pointer", `{"tools":[{"name":"a","p":{"a/b~c":{}}}]}`,
			`[{"op":"add","path":"/tools/0/p/a~1b~0c/enum","value":["v"]}]`,
			`{"tools":[{"name":"a","p":{"a/b~c":{"enum": ["v"]}}}]}`},
		{"test then replace", `[{"name":"a.b"}]`,
			`[{"op":"test","path":"/0/name","value":"a.b"},{"op":"replace","path":"/0/name","value":"a_b"}]`,
			`[{"name":"a_b"}]`},
		{"a failing test changes nothing", `[{"name":"a.c"}]`,
			`[{"op":"test","path":"/0/name","value":"a.b"},{"op":"replace","path":"/0/name","value":"a_b"}]`,
			`error: it changed since the lint`},
		{"a path that is not there", `[{"name":"a"}]`,
			`[{"op":"replace","path":"/1/name","value":"b"}]`,
			`error: no value at /1`},
		{"an operation toolscope does not apply", `[{"name":"a"}]`,
			`[{"op":"move","path":"/0/name","value":"b"}]`,
			`error: does not apply "move"`},
		{"two operations on one value", `[{"name":"a"}]`,
			`[{"op":"replace","path":"/0/name","value":"b"},{"op":"replace","path":"/0/name","value":"c"}]`,
			`error: the same value`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ops []PatchOp
			if err := json.Unmarshal([]byte(tc.ops), &ops); err != nil {
				t.Fatal(err)
			}
			got, err := ApplyPatch([]byte(tc.doc), ops)
			if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("err %v, want one saying %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestToolPointers(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string // each tool's pointer, then its name's
	}{
		{"a bare array", `[{"name":"a"},{"name":"b"}]`, []string{"/0", "/0/name", "/1", "/1/name"}},
		{"MCP tools", `{"tools":[{"name":"a"}]}`, []string{"/tools/0", "/tools/0/name"}},
		{"a tools/list response", `{"result":{"tools":[{"name":"a"}]}}`, []string{"/result/tools/0", "/result/tools/0/name"}},
		{"OpenAI chat", `[{"type":"function","function":{"name":"a"}}]`, []string{"/0", "/0/function/name"}},
		{"one tool alone", `{"name":"a"}`, []string{"", "/name"}},
		{"Gemini", `[{"functionDeclarations":[{"name":"a"},{"name":"b"}]}]`, []string{"/0/functionDeclarations/0", "/0/functionDeclarations/0/name", "/0/functionDeclarations/1", "/0/functionDeclarations/1/name"}},
		{"one Gemini tool object alone", `{"function_declarations":[{"name":"a"}]}`, []string{"/function_declarations/0", "/function_declarations/0/name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, err := Parse("t.json", []byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tool := range cat.Tools {
				p, ok := tool.PointerTo(tool.NameValue())
				if !ok {
					t.Fatalf("%s: its name is not in its entry", tool.Name)
				}
				got = append(got, tool.Pointer, p)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("pointers %q, want %q", got, tc.want)
			}
		})
	}
}
