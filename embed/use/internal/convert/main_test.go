package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestVocabText(t *testing.T) {
	got, err := vocabText([]byte(`[["\uFFFD", 0], [":", null], [":30", 30], ["▁the", -3.28450870514], ["x", -1e-7]]`))
	if err != nil {
		t.Fatal(err)
	}
	want := "\uFFFD\t0\n:\t0\n:30\t30\n▁the\t-3.28450870514\nx\t-1e-7\n"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, bad := range []string{`[["a\tb", 0]]`, `[[1, 0]]`, `[["a", "0"]]`, `{}`} {
		if _, err := vocabText([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestSqueeze(t *testing.T) {
	tests := []struct{ in, want []int }{
		{[]int{1, 1, 256, 768}, []int{256, 768}},
		{[]int{1, 128}, []int{1, 128}},
		{[]int{512}, []int{512}},
		{[]int{8002, 256}, []int{8002, 256}},
	}
	for _, tt := range tests {
		if got := squeeze(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("squeeze(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func floats(v ...float32) []byte {
	var b []byte
	for _, f := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

// A manifest whose float tensors sit around an int32 constant, split over
// two shards, as in the real package.
func TestReadTensorsWalksTheManifest(t *testing.T) {
	files := map[string][]byte{
		"package/dist/model.json": []byte(`{"weightsManifest":[{"paths":["s1","s2"],"weights":[
			{"name":"a","shape":[1,1,2,16],"dtype":"float32"},
			{"name":"const","shape":[3],"dtype":"int32"},
			{"name":"b","shape":[2],"dtype":"float32"}]}]}`),
	}
	var all []byte
	for i := range 32 {
		all = append(all, floats(float32(i))...)
	}
	all = append(all, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0)
	all = append(all, floats(7, 8)...)
	files["package/dist/s1"], files["package/dist/s2"] = all[:50], all[50:]

	byName, err := readManifest(files)
	if err != nil {
		t.Fatal(err)
	}
	if a := byName["a"]; !slices.Equal(a.Shape, []int{2, 16}) || a.Data[31] != 31 {
		t.Errorf("a = %v %v", a.Shape, a.Data)
	}
	if b := byName["b"]; !slices.Equal(b.Data, []float32{7, 8}) {
		t.Errorf("b = %v", b.Data)
	}
	if _, ok := byName["const"]; ok {
		t.Error("int32 constants are skipped, not kept")
	}

	files["package/dist/s2"] = all[50 : len(all)-4]
	if _, err := readManifest(files); err == nil || !strings.Contains(err.Error(), "runs past") {
		t.Errorf("short shards: %v", err)
	}
	delete(files, "package/dist/s2")
	if _, err := readManifest(files); err == nil || !strings.Contains(err.Error(), "lacks") {
		t.Errorf("missing shard: %v", err)
	}
}

func TestRunRefusesAnotherTarball(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	body := []byte("{}")
	_ = tw.WriteHeader(&tar.Header{Name: "package/dist/model.json", Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
	_, _ = tw.Write(body)
	_ = tw.Close()
	_ = zw.Close()
	files, err := untar(b.Bytes())
	if err != nil || string(files["package/dist/model.json"]) != "{}" {
		t.Fatalf("untar: %v %v", files, err)
	}

	dir := t.TempDir()
	tgz := filepath.Join(dir, "other.tgz")
	if err := os.WriteFile(tgz, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	err = run(tgz, filepath.Join(dir, "out"), "f16")
	if err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("a tarball with another checksum: %v", err)
	}
	if _, statErr := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(statErr) {
		t.Error("wrote output for a refused tarball")
	}
	if err := run(tgz, dir, "int4"); err == nil || !strings.Contains(err.Error(), "-encoding") {
		t.Errorf("unknown encoding: %v", err)
	}
}
