#!/usr/bin/env bash
# The at-a-million-rules target: `gatehouse check` on a configuration whose rules file holds
# 1,000,000 rules (about 45 MB, the shapes of gatehouse-bench's scale-rules cases) peaks at
# <= 350 MB resident and takes <= 3 s. Writes the files into .build/million-rules and measures
# with /usr/bin/time -v. Not run by CI. Usage: Benchmarks/million-rules.sh [RULES]
set -euo pipefail
cd "$(dirname "$0")/.."
rules="${1:-1000000}"
dir=.build/million-rules
mkdir -p "$dir"

swift build -c release --product gatehouse >/dev/null

awk -v n="$rules" 'BEGIN {
    print "deny * * avatars/*/private-*"
    for (u = 0; u < n - 2; u++) printf "allow user-%d read avatars/user-%d/*\n", u, u
    print "allow * read avatars/*"
}' > "$dir/rules.rules"
cat > "$dir/gatehouse.json" <<'JSON'
{ "services": { "avatars": {
  "loader": { "type": "memory", "resources": {} },
  "gatekeepers": [ { "type": "file", "name": "rules", "path": "rules.rules" } ] } } }
JSON

user=$((rules / 2))
/usr/bin/time -v .build/release/gatehouse check --config "$dir/gatehouse.json" --subject "user-$user" \
    "avatars/user-$user/photo.png" 2> "$dir/time.txt"
bytes=$(wc -c < "$dir/rules.rules")
seconds=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$dir/time.txt")
kilobytes=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$dir/time.txt")
megabytes=$((kilobytes / 1024))
processor=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$dir/time.txt")
echo "$rules rules ($(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB): ${seconds} s (${processor} s of processor time), peak ${megabytes} MB resident"
if awk -v s="$seconds" -v m="$megabytes" 'BEGIN { exit !(s <= 3 && m <= 350) }'; then
    echo "target (<= 3 s, <= 350 MB): PASS"
else
    echo "target (<= 3 s, <= 350 MB): FAIL"
fi
