package cache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"toolscope/embed"
)

// fake embeds deterministically and records what it was asked.
type fake struct {
	id   string
	dims int
	fail error

	mu    sync.Mutex
	calls [][]string
}

func (f *fake) ID() string      { return f.id }
func (f *fake) Dimensions() int { return f.dims }
func (f *fake) Calibration(string) (embed.Calibration, bool) {
	return embed.Calibration{Threshold: 0.9, WatchBand: 0.03}, true
}

func (f *fake) Embed(_ context.Context, texts []string) ([][]float32, error) {
	f.mu.Lock()
	f.calls = append(f.calls, append([]string(nil), texts...))
	f.mu.Unlock()
	if f.fail != nil {
		return nil, f.fail
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = vectorOf(t, f.dims)
	}
	return out, nil
}

func (f *fake) embedded() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var all []string
	for _, c := range f.calls {
		all = append(all, c...)
	}
	return all
}

// vectorOf derives a vector from the text, with awkward float values mixed
// in (negative zero, a subnormal, an infinity, a NaN payload) so that exact
// storage is tested.
func vectorOf(text string, dims int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(text))
	seed := h.Sum64()
	v := make([]float32, dims)
	for i := range v {
		seed = seed*6364136223846793005 + 1442695040888963407
		v[i] = float32(int32(seed>>32)) / (1 << 31)
	}
	special := []float32{float32(math.Copysign(0, -1)), math.Float32frombits(1), float32(math.Inf(1)), math.Float32frombits(0x7fc00123)}
	for i := 0; i < len(special) && i < dims; i++ {
		v[(int(seed%uint64(dims))+i)%dims] = special[i]
	}
	return v
}

func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func texts(n int, prefix string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s tool_%d: does thing number %d for the caller", prefix, i, i)
	}
	return out
}

func mustEmbed(t *testing.T, e embed.Embedder, in []string) [][]float32 {
	t.Helper()
	got, err := e.Embed(context.Background(), in)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if len(got) != len(in) {
		t.Fatalf("Embed returned %d vectors for %d texts", len(got), len(in))
	}
	for i := range in {
		if want := vectorOf(in[i], len(got[i])); !sameBits(got[i], want) {
			t.Fatalf("vector %d (%q) differs from the embedder's", i, in[i])
		}
	}
	return got
}

func statsOf(t *testing.T, e embed.Embedder) Stats {
	t.Helper()
	c, ok := e.(*Cache)
	if !ok {
		t.Fatalf("Wrap returned %T, want *Cache", e)
	}
	return c.Stats()
}

// storeRecords reads every intact entry of a bucket of the store in dir.
func storeRecords(t *testing.T, dir string, id byte) map[key][]float32 {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, StoreName), 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("open the store: %v", err)
	}
	defer db.Close()
	recs := map[key][]float32{}
	err = db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketName(id))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			vec, ok := decodeValue(v)
			if !ok || len(k) != keySize {
				t.Errorf("a damaged entry %x", k)
				return nil
			}
			recs[key(k)] = vec
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestWarmRunEmbedsNothing(t *testing.T) {
	dir := t.TempDir()
	in := texts(50, "warm")
	cold := &fake{id: "fake", dims: 16}
	mustEmbed(t, Wrap(cold, Options{Dir: dir}), in)
	if got := len(cold.embedded()); got != len(in) {
		t.Fatalf("cold run embedded %d texts, want %d", got, len(in))
	}

	warm := &fake{id: "fake", dims: 16}
	e := Wrap(warm, Options{Dir: dir})
	mustEmbed(t, e, in)
	if got := warm.embedded(); len(got) != 0 {
		t.Fatalf("warm run embedded %d texts, want 0", len(got))
	}
	if s := statsOf(t, e); s.Hits != len(in) || s.Misses != 0 || s.DiskErr != nil {
		t.Fatalf("warm stats = %+v, want %d hits, 0 misses, no disk error", s, len(in))
	}
}

func TestChangedTextReembedsOnlyIt(t *testing.T) {
	dir := t.TempDir()
	in := texts(10, "edit")
	mustEmbed(t, Wrap(&fake{id: "fake", dims: 8}, Options{Dir: dir}), in)

	in[3] = "edit tool_3: now says WHEN to pick it"
	next := &fake{id: "fake", dims: 8}
	mustEmbed(t, Wrap(next, Options{Dir: dir}), in)
	if got := next.embedded(); len(got) != 1 || got[0] != in[3] {
		t.Fatalf("re-lint embedded %q, want only the changed text", got)
	}
}

func TestMemoryServesRepeatsWithinAProcess(t *testing.T) {
	f := &fake{id: "fake", dims: 8}
	e := Wrap(f, Options{Dir: t.TempDir()})
	in := []string{"a", "b", "a", "c", "b"}
	mustEmbed(t, e, in)
	mustEmbed(t, e, in)
	if got := f.embedded(); len(got) != 3 {
		t.Fatalf("embedded %q, want each distinct text once", got)
	}
	if s := statsOf(t, e); s.Hits != 5 || s.Misses != 3 {
		t.Fatalf("stats = %+v, want 5 hits and 3 misses", s)
	}
}

func TestReturnedVectorsAreTheCallers(t *testing.T) {
	e := Wrap(&fake{id: "fake", dims: 4}, Options{Dir: t.TempDir()})
	first := mustEmbed(t, e, []string{"x"})
	for i := range first[0] {
		first[0][i] = 42
	}
	mustEmbed(t, e, []string{"x"}) // checks the bits against the embedder's
}

func TestIdentitiesDoNotShare(t *testing.T) {
	dir := t.TempDir()
	mustEmbed(t, Wrap(&fake{id: "one", dims: 4}, Options{Dir: dir}), []string{"x"})
	other := &fake{id: "two", dims: 4}
	mustEmbed(t, Wrap(other, Options{Dir: dir}), []string{"x"})
	if len(other.embedded()) != 1 {
		t.Fatal("a second embedder was served the first one's vector")
	}
	remote := &identified{fake: fake{id: "one", dims: 4}, cacheID: "one@http://elsewhere"}
	mustEmbed(t, Wrap(remote, Options{Dir: dir}), []string{"x"})
	if len(remote.embedded()) != 1 {
		t.Fatal("an embedder with its own CacheID was served another identity's vector")
	}
}

type identified struct {
	fake
	cacheID string
}

func (i *identified) CacheID() string { return i.cacheID }

func TestDisabledReturnsTheEmbedder(t *testing.T) {
	f := &fake{id: "fake", dims: 4}
	if e := Wrap(f, Options{Disabled: true}); e != embed.Embedder(f) {
		t.Fatalf("Wrap with Disabled returned %T, want the embedder itself", e)
	}
}

func TestPassesThroughTheEmbedder(t *testing.T) {
	f := &fake{id: "fake", dims: 4}
	e := Wrap(f, Options{Dir: t.TempDir()})
	if e.ID() != "fake" || e.Dimensions() != 4 {
		t.Fatalf("ID, Dimensions = %q, %d; want the wrapped embedder's", e.ID(), e.Dimensions())
	}
	if c, ok := e.Calibration("cosine"); !ok || c.Threshold != 0.9 {
		t.Fatalf("Calibration = %v, %v; want the wrapped embedder's", c, ok)
	}
	if e.(*Cache).Unwrap() != embed.Embedder(f) {
		t.Fatal("Unwrap does not return the wrapped embedder")
	}
}

func TestEmbedderErrorStoresNothing(t *testing.T) {
	dir := t.TempDir()
	boom := errors.New("endpoint down")
	e := Wrap(&fake{id: "fake", dims: 4, fail: boom}, Options{Dir: dir})
	if _, err := e.Embed(context.Background(), []string{"x"}); !errors.Is(err, boom) {
		t.Fatalf("Embed error = %v, want the embedder's", err)
	}
	if _, err := os.Stat(statsOf(t, e).Path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("cache file written after a failed embed (stat: %v)", err)
	}
}

// lateDims knows its vector length only after answering once, like a
// remote endpoint.
type lateDims struct {
	fake
	known bool
}

func (l *lateDims) Dimensions() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.known {
		return l.dims
	}
	return 0
}

func (l *lateDims) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	v, err := l.fake.Embed(ctx, texts)
	l.mu.Lock()
	l.known = true
	l.mu.Unlock()
	return v, err
}

func TestDimensionsFromCacheBeforeTheEmbedderKnows(t *testing.T) {
	dir := t.TempDir()
	mustEmbed(t, Wrap(&lateDims{fake: fake{id: "late", dims: 6}}, Options{Dir: dir}), []string{"x"})
	e := Wrap(&lateDims{fake: fake{id: "late", dims: 6}}, Options{Dir: dir})
	if d := e.Dimensions(); d != 0 {
		t.Fatalf("Dimensions before any embed = %d, want 0 (unknown)", d)
	}
	mustEmbed(t, e, []string{"x"})
	if d := e.Dimensions(); d != 6 {
		t.Fatalf("Dimensions after a cache hit = %d, want 6", d)
	}
}

func TestWrongLengthEntriesAreMisses(t *testing.T) {
	dir := t.TempDir()
	// The same identity with another length (a model re-pulled, say).
	mustEmbed(t, Wrap(&fake{id: "fake", dims: 4}, Options{Dir: dir}), []string{"x"})
	f := &fake{id: "fake", dims: 8}
	got := mustEmbed(t, Wrap(f, Options{Dir: dir}), []string{"x"})
	if len(f.embedded()) != 1 || len(got[0]) != 8 {
		t.Fatal("a cached vector of the wrong length was served")
	}
}

func TestDamagedStoreIsStartedAfresh(t *testing.T) {
	in := texts(20, "damage")
	cases := []struct {
		name   string
		damage func(data []byte) []byte
	}{
		{"truncated", func(d []byte) []byte { return d[:len(d)/2] }},
		{"garbage", func(d []byte) []byte { return bytes.Repeat([]byte("not a database "), 1000) }},
		{"zeroed meta pages", func(d []byte) []byte { clear(d[:8192]); return d }},
		{"empty", func([]byte) []byte { return nil }},
		{"an old cache file's bytes", func([]byte) []byte { return appendRecord(nil, keyOf("fake", "x"), []float32{1}) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			first := Wrap(&fake{id: "fake", dims: 8}, Options{Dir: dir})
			mustEmbed(t, first, in)
			path := statsOf(t, first).Path
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, tc.damage(data), 0o600); err != nil {
				t.Fatal(err)
			}

			f := &fake{id: "fake", dims: 8}
			got := mustEmbed(t, Wrap(f, Options{Dir: dir}), in)
			for i, v := range got {
				if !sameBits(v, vectorOf(in[i], 8)) {
					t.Fatalf("vector %d is wrong after damage", i)
				}
			}
			// The next run has the store back whole.
			again := &fake{id: "fake", dims: 8}
			e := Wrap(again, Options{Dir: dir})
			mustEmbed(t, e, in)
			if n := len(again.embedded()); n != 0 {
				t.Fatalf("the run after the damaged one embedded %d texts, want 0", n)
			}
			if s := statsOf(t, e); s.DiskErr != nil {
				t.Fatalf("disk error after starting afresh: %v", s.DiskErr)
			}
			if recs := storeRecords(t, dir, idVectors); len(recs) != len(in) {
				t.Fatalf("the store holds %d entries, want %d", len(recs), len(in))
			}
		})
	}
}

// A damaged entry (its checksum fails) is a miss, embedded again and
// rewritten; the others are served.
func TestDamagedEntryIsAMiss(t *testing.T) {
	dir := t.TempDir()
	in := texts(5, "entry")
	mustEmbed(t, Wrap(&fake{id: "fake", dims: 8}, Options{Dir: dir}), in)
	db, err := bolt.Open(filepath.Join(dir, StoreName), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := keyOf("fake", in[2])
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketVectors)
		v := append([]byte(nil), b.Get(k[:])...)
		v[9] ^= 0x10
		return b.Put(k[:], v)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{id: "fake", dims: 8}
	got := mustEmbed(t, Wrap(f, Options{Dir: dir}), in)
	if e := f.embedded(); len(e) != 1 || e[0] != in[2] {
		t.Fatalf("embedded %q, want only the damaged entry's text", e)
	}
	if !sameBits(got[2], vectorOf(in[2], 8)) {
		t.Fatal("the damaged entry's vector was served")
	}
	if recs := storeRecords(t, dir, idVectors); !sameBits(recs[k], vectorOf(in[2], 8)) {
		t.Fatal("the damaged entry was not rewritten")
	}
}

// Past its cap the store drops the least recently used entries, down to
// three quarters of the cap, and its file stops growing.
func TestCapEvictsLeastRecentlyUsed(t *testing.T) {
	clock := time.Unix(1_800_000_000, 0)
	defer func(n func() time.Time) { now = n }(now)
	now = func() time.Time { return clock }
	dir := t.TempDir()
	const dims = 64
	per := int64(4+4*dims) + entryOverhead
	maxBytes := 100 * per // room for 100 entries
	wrap := func(f *fake) embed.Embedder { return Wrap(f, Options{Dir: dir, MaxBytes: maxBytes}) }

	old, kept := texts(40, "old"), texts(40, "kept")
	mustEmbed(t, wrap(&fake{id: "fake", dims: dims}), old)
	clock = clock.Add(time.Minute)
	mustEmbed(t, wrap(&fake{id: "fake", dims: dims}), kept)
	// Two hours on, "old" is used again and so becomes the recent one.
	clock = clock.Add(2 * time.Hour)
	mustEmbed(t, wrap(&fake{id: "fake", dims: dims}), old)
	clock = clock.Add(time.Minute)
	fresh := texts(30, "fresh") // 110 entries: over the cap
	mustEmbed(t, wrap(&fake{id: "fake", dims: dims}), fresh)

	recs := storeRecords(t, dir, idVectors)
	if int64(len(recs))*per > maxBytes*3/4 {
		t.Fatalf("%d entries left, want at most three quarters of the cap (%d)", len(recs), maxBytes*3/4/per)
	}
	for _, set := range [][]string{old, fresh} {
		for _, s := range set {
			if _, ok := recs[keyOf("fake", s)]; !ok {
				t.Fatalf("recently used %q was evicted", s)
			}
		}
	}
	evicted := 0
	for _, s := range kept {
		if _, ok := recs[keyOf("fake", s)]; !ok {
			evicted++
		}
	}
	if evicted == 0 {
		t.Fatal("no least recently used entry was evicted")
	}

	// Many more rounds, each over the cap: the file stops growing, its
	// freed pages used again.
	size := func() int64 {
		info, err := os.Stat(filepath.Join(dir, StoreName))
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	var settled int64
	for round := range 60 {
		clock = clock.Add(time.Minute)
		mustEmbed(t, wrap(&fake{id: "fake", dims: dims}), texts(50, fmt.Sprintf("round%d", round)))
		if round == 19 {
			settled = size()
		}
	}
	if got := size(); got > settled {
		t.Fatalf("the store's file grew from %d to %d bytes with its entries capped", settled, got)
	}
	if n := len(storeRecords(t, dir, idVectors)); int64(n)*per > maxBytes {
		t.Fatalf("%d entries kept, over the cap", n)
	}
}

// A warm run within the hour of the last writes nothing; one later marks
// its entries used.
func TestWarmRunWritesOnlyStaleUses(t *testing.T) {
	clock := time.Unix(1_800_000_000, 0)
	defer func(n func() time.Time) { now = n }(now)
	now = func() time.Time { return clock }
	dir := t.TempDir()
	in := texts(10, "touch")
	mustEmbed(t, Wrap(&fake{id: "fake", dims: 8}, Options{Dir: dir}), in)
	txid := func() int {
		db, err := bolt.Open(filepath.Join(dir, StoreName), 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		tx, err := db.Begin(false)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		return int(tx.ID())
	}
	before := txid()
	clock = clock.Add(30 * time.Minute)
	mustEmbed(t, Wrap(&fake{id: "fake", dims: 8}, Options{Dir: dir}), in)
	if txid() != before {
		t.Fatal("a warm run within the hour wrote to the store")
	}
	clock = clock.Add(time.Hour)
	mustEmbed(t, Wrap(&fake{id: "fake", dims: 8}, Options{Dir: dir}), in)
	if txid() == before {
		t.Fatal("a warm run an hour and a half later did not mark its entries used")
	}
}

// The append-only files of the version before are moved into the store on
// first use, and removed: the first run after an upgrade is warm.
func TestOldFilesAreMigrated(t *testing.T) {
	dir := t.TempDir()
	in := texts(12, "old")
	var vecs, counts []byte
	for _, s := range in {
		vecs = appendRecord(vecs, keyOf("fake", s), vectorOf(s, 16))
		counts = appendRecord(counts, keyOf("tok", s), []float32{float32(len(s))})
	}
	vecs = append(vecs, "torn tail"...)
	vfile := filepath.Join(dir, fileName("fake"))
	tfile := filepath.Join(dir, "tokens-"+strings.TrimPrefix(fileName("tok"), "vectors-"))
	if err := os.WriteFile(vfile, vecs, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tfile, counts, 0o600); err != nil {
		t.Fatal(err)
	}
	f := &fake{id: "fake", dims: 16}
	got := mustEmbed(t, Wrap(f, Options{Dir: dir}), in)
	if n := len(f.embedded()); n != 0 {
		t.Fatalf("the first run after the upgrade embedded %d texts, want 0", n)
	}
	for i, v := range got {
		if !sameBits(v, vectorOf(in[i], 16)) {
			t.Fatalf("migrated vector %d differs", i)
		}
	}
	c := NewCounts(Options{Dir: dir})
	for i, n := range c.LookupCounts("tok", in) {
		if n != len(in[i]) {
			t.Fatalf("migrated count of %q = %d, want %d", in[i], n, len(in[i]))
		}
	}
	for _, p := range []string{vfile, tfile} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("old file %s left behind (%v)", filepath.Base(p), err)
		}
	}
}

func TestUnwritableDirectoryKeepsWorking(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f := &fake{id: "fake", dims: 4}
	e := Wrap(f, Options{Dir: filepath.Join(blocker, "sub")}) // a directory under a file
	mustEmbed(t, e, []string{"x"})
	mustEmbed(t, e, []string{"x"})
	s := statsOf(t, e)
	if s.DiskErr == nil {
		t.Fatal("no disk error reported for an unusable directory")
	}
	if len(f.embedded()) != 1 {
		t.Fatal("memory cache did not serve the repeat")
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvDir, "/tmp/elsewhere")
	if d, err := DefaultDir(); err != nil || d != "/tmp/elsewhere" {
		t.Fatalf("DefaultDir = %q, %v; want $%s", d, err, EnvDir)
	}
	t.Setenv(EnvDir, "")
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg")
	if d, err := DefaultDir(); err != nil || d != "/tmp/xdg/toolscope" {
		t.Fatalf("DefaultDir = %q, %v; want the user cache directory", d, err)
	}
}

func TestOldFileNamesKeepIdentitiesApart(t *testing.T) {
	a, b := fileName("openai:m@http://a/v1"), fileName("openai:m@http://b/v1")
	if a == b {
		t.Fatalf("two identities share the file %q", a)
	}
	if filepath.Base(a) != a {
		t.Fatalf("file name %q has a path separator", a)
	}
}

// TestConcurrentWriters has several caches on one directory (separate
// handles, as separate runs would be) embed overlapping texts at once: the
// store must end up intact and complete.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	const writers = 6
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := Wrap(&fake{id: "fake", dims: 32}, Options{Dir: dir})
			for round := range 10 {
				in := texts(20, fmt.Sprintf("w%d r%d", w%3, round))
				if _, err := e.Embed(context.Background(), in); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	recs := storeRecords(t, dir, idVectors)
	if len(recs) != 3*10*20 {
		t.Fatalf("cache file holds %d distinct records, want %d", len(recs), 3*10*20)
	}
}

const helperEnv = "TOOLSCOPE_CACHE_TEST_WRITER"

// TestHelperWriter is the body of the subprocess in TestConcurrentProcesses.
func TestHelperWriter(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("runs only as a subprocess of TestConcurrentProcesses")
	}
	dir, who := filepath.Dir(spec), filepath.Base(spec)
	e := Wrap(&fake{id: "fake", dims: 64}, Options{Dir: dir})
	for round := range 40 {
		if _, err := e.Embed(context.Background(), texts(25, who+" "+strconv.Itoa(round))); err != nil {
			t.Fatal(err)
		}
	}
}

func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip("no test executable to re-run:", err)
	}
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for _, who := range []string{"p1", "p2", "p3"} {
		cmd := exec.Command(exe, "-test.run=^TestHelperWriter$")
		cmd.Env = append(os.Environ(), helperEnv+"="+filepath.Join(dir, who))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer process: %v", err)
		}
	}
	recs := storeRecords(t, dir, idVectors)
	if len(recs) != 3*40*25 {
		t.Fatalf("cache file holds %d records, want %d", len(recs), 3*40*25)
	}
}

func TestRecordRoundTrip(t *testing.T) {
	k := keyOf("id", "text")
	vec := vectorOf("text", 300)
	var got []float32
	damaged := decode(appendRecord(nil, k, vec), func(gk key, v []float32) {
		if gk == k {
			got = v
		}
	})
	if damaged || !sameBits(got, vec) {
		t.Fatalf("round trip: damaged=%v, bits equal=%v", damaged, sameBits(got, vec))
	}
}

func FuzzDecode(f *testing.F) {
	valid := appendRecord(nil, keyOf("id", "a"), []float32{1, 2, 3})
	f.Add([]byte{})
	f.Add(valid)
	f.Add(valid[:len(valid)-1])
	f.Add(append(append([]byte{}, valid...), valid[:9]...))
	f.Add([]byte("\x89TV1\xff\xff\xff\xff"))
	probe := appendRecord(nil, keyOf("probe", "p"), []float32{4, 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		decode(data, func(key, []float32) {})
		// Whatever precedes it, an intact record is found.
		found := false
		decode(append(append([]byte{}, data...), probe...), func(k key, v []float32) {
			if k == keyOf("probe", "p") && len(v) == 2 && v[0] == 4 && v[1] == 5 {
				found = true
			}
		})
		if !found {
			t.Fatal("an intact record after arbitrary bytes was not read")
		}
	})
}

// BenchmarkCatalog1000 embeds a 1,000-tool catalog through the cache: cold
// (empty directory, every text handed to the embedder and appended) and
// warm (a new cache, as a new run would make, reading the file the cold run
// wrote), for the built-in model's 512 dims and a remote model's 1,536.
func BenchmarkCatalog1000(b *testing.B) {
	in := texts(1000, "bench")
	for _, dims := range []int{512, 1536} {
		b.Run(fmt.Sprintf("cold-%dd", dims), func(b *testing.B) {
			for b.Loop() {
				e := Wrap(&fake{id: "fake", dims: dims}, Options{Dir: b.TempDir()})
				if _, err := e.Embed(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("warm-%dd", dims), func(b *testing.B) {
			dir := b.TempDir()
			if _, err := Wrap(&fake{id: "fake", dims: dims}, Options{Dir: dir}).Embed(context.Background(), in); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				f := &fake{id: "fake", dims: dims}
				if _, err := Wrap(f, Options{Dir: dir}).Embed(context.Background(), in); err != nil {
					b.Fatal(err)
				}
				if len(f.calls) != 0 {
					b.Fatal("warm run called the embedder")
				}
			}
		})
	}
}
