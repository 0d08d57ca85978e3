# SPDX-License-Identifier: GPL-2.0
#
# Reads the bench's table, bench.tsv (its format is in its header), for
# bash on the host and busybox sh in the guest. Sourced; BENCH_TABLE names
# the table (default: trace-scripts/bench/bench.tsv, from the top of the
# checkout on the host or from /sip in the guest).
#
#	bench_field KIND NAME N   field N of the row (1 is the kind); "-" reads
#	                          as empty; status 1 when there is no such row
#	bench_names KIND [SET]    the names of the rows of KIND, in the table's
#	                          order, on one line; with SET, only the rows
#	                          whose third field lists it (workload sets)

: "${BENCH_TABLE:=trace-scripts/bench/bench.tsv}"

bench_field() {
	awk -F'\t' -v k="$1" -v n="$2" -v f="$3" '
		$1 == k && $2 == n { found = 1; print ($f == "-" ? "" : $f); exit }
		END { exit !found }' "$BENCH_TABLE"
}

bench_names() {
	awk -F'\t' -v k="$1" -v s="${2:-}" '
		$1 == k && (s == "" || index("," $3 ",", "," s ",")) { printf "%s%s", sep, $2; sep = " " }
		END { print "" }' "$BENCH_TABLE"
}
