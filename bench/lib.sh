# shellcheck shell=bash
# Shared by bench/cost.sh, bench/scaling.sh and bench/storm.sh, on top of tests/lib.sh (work directory,
# loop devices, fake trees, private namespaces): the tools they need, the three meters
# (instructions, system calls, wall time), and tables printed as text and, when BENCH_MD=FILE
# is set, appended to FILE as Markdown.
set -euo pipefail

prog=bench/${0##*/}
lib_name=bench
# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../tests/lib.sh"
BENCH_RUNS=${BENCH_RUNS:-50}
if [ -n "${BENCH_MD:-}" ]; then
	case $BENCH_MD in /*) ;; *) BENCH_MD=$PWD/$BENCH_MD ;; esac
fi
# CPUID for the testfacts build (HYPERV_SCHEDULER_TEST_CPUID): with a fake tree, a Hyper-V guest.
# shellcheck disable=SC2034 # for the scripts that source this
GUEST_CPUID=$FIXTURES/cpuid/hyperv-guest

# need COMMAND:PACKAGE...: stops with the one apt-get line that installs what is missing.
need() {
	local t missing=() pkgs=()
	for t; do
		command -v "${t%%:*}" >/dev/null || {
			missing+=("${t%%:*}")
			pkgs+=("${t#*:}")
		}
	done
	[ ${#missing[@]} = 0 ] ||
		die "${missing[*]} missing; on Debian or Ubuntu: apt-get install -y ${pkgs[*]}"
}

need_root() {
	[ "$(id -u)" = 0 ] || die "needs root (loop devices, private mount namespaces)"
}

need_built() {
	local f
	for f; do
		[ -x "$f" ] || die "no $f: run 'make hyperv-scheduler tests/hyperv-scheduler-testfacts bench/udev-floor' first"
	done
}

bench_done() { [ "$lib_status" != 0 ] || echo "$prog: done in ${SECONDS} s" >&2; }
at_exit+=(bench_done)
trap 'exit 130' INT
trap 'exit 143' TERM

# set_scheduler DEVICE NAME: a write to queue/scheduler can take tens of milliseconds even
# when it names the scheduler in use, so NAME is written only when it is not the current one.
# Also a script, $set_scheduler, for hyperfine's --prepare.
set_scheduler=$work/set-scheduler
cat >"$set_scheduler" <<'EOF'
#!/bin/sh
f=/sys/block/$1/queue/scheduler
case $(cat "$f") in *"[$2]"*) ;; *) echo "$2" >"$f" ;; esac
EOF
chmod 0755 "$set_scheduler"
set_scheduler() {
	"$set_scheduler" "$1" "$2" || die "cannot write '$2' to '/sys/block/$1/queue/scheduler'"
}

current_scheduler() {
	local s
	s=$(<"/sys/block/$1/queue/scheduler")
	s=${s#*[}
	echo "${s%%]*}"
}

# The meters run "${wrap[@]}" env -i "${event_env[@]}" METER COMMAND: wrap is empty on this
# machine's /sys, or in_tree TREE for a fake guest; event_env is what udev puts in a RUN
# program's environment (set by event_env_for), or empty for a command run by hand.
wrap=()
event_env=()
# any_status=1: a command's exit status is not checked (systemd-detect-virt exits 1 on "none").
any_status=0

# event_env_for DEVICE [DEVPATH [UEVENT-FILE]]: the environment udev gives a RUN program for
# DEVICE's add event when no other rule added properties: the kernel's uevent variables and
# udev's own, as systemd-udevd 252 passes them (less SYNTH_UUID, which only udevadm trigger
# adds). DEVPATH and UEVENT-FILE default to the device's on this machine's /sys.
event_env_for() {
	local devpath=${2:-$(cd -P "/sys/class/block/$1" && pwd)} line
	devpath=${devpath#/sys}
	event_env=(ACTION=add "DEVPATH=$devpath" SUBSYSTEM=block)
	while IFS= read -r line; do
		case $line in DEVNAME=*) line=DEVNAME=/dev/${line#DEVNAME=} ;; esac
		event_env+=("$line")
	done <"${3:-/sys/class/block/$1/uevent}"
	event_env+=(SEQNUM=4242 USEC_INITIALIZED=4242424 UDEV_DATABASE_VERSION=1)
}

# instructions [-k FILE] COMMAND...: user-space instructions of COMMAND, not of its children
# (callgrind's total Ir); -k keeps callgrind's profile in FILE for breakdown.
instructions() {
	local out=$work/callgrind.out
	if [ "$1" = -k ]; then
		out=$2
		shift 2
	fi
	rm -f "$out"
	"${wrap[@]}" env -i "${event_env[@]}" "$(command -v valgrind)" --tool=callgrind \
		--callgrind-out-file="$out" "$@" </dev/null >/dev/null 2>"$work/valgrind.err" ||
		[ "$any_status" = 1 ] || die "under callgrind, '$*' failed: $(tail -3 "$work/valgrind.err")"
	sed -n 's/^summary: //p' "$out"
}

# syscalls COMMAND...: system calls made by COMMAND and its children (strace -c -f).
syscalls() {
	local out=$work/strace.out
	"${wrap[@]}" env -i "${event_env[@]}" "$(command -v strace)" -f -c -o "$out" "$@" \
		</dev/null >/dev/null 2>&1 || [ "$any_status" = 1 ] || die "under strace, '$*' failed"
	awk '$NF == "total" { print $4 }' "$out"
}

# forks: the processes (clone, fork, vfork) the command of the last syscalls call started.
forks() {
	awk '$NF ~ /^(clone|clone3|fork|vfork)$/ { n += $4 } END { print n + 0 }' "$work/strace.out"
}

# wall [-p PREPARE] COMMAND...: "median min max" wall time in ms over BENCH_RUNS runs, each
# after PREPARE (not timed). hyperfine starts COMMAND itself, without a shell in between.
wall() {
	local prepare=() cmd='' a
	if [ "$1" = -p ]; then
		prepare=(--prepare "$2")
		shift 2
	fi
	[ "$any_status" = 0 ] || prepare+=(--ignore-failure)
	for a; do cmd+="'${a//\'/\'\\\'\'}' "; done
	"${wrap[@]}" env -i "${event_env[@]}" "$(command -v hyperfine)" -N --style none --warmup 3 \
		--runs "$BENCH_RUNS" "${prepare[@]}" --export-json "$work/hyperfine.json" -- "$cmd" \
		</dev/null >/dev/null 2>"$work/hyperfine.err" ||
		die "under hyperfine, '$*' failed: $(cat "$work/hyperfine.err")"
	jq -r '.results[0] | [.median, .min, .max] | map(. * 1000) | @tsv' "$work/hyperfine.json"
}

# inclusive PROFILE FUNCTION...: instructions spent in each FUNCTION and what it called, one a
# line, 0 for a function the run never entered. A function inlined into several source files
# is listed once per file: the largest count, the outermost, wins.
inclusive() {
	local profile=$1 IFS='|'
	shift
	(cd "$work" && callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$profile") |
		awk -v want="$*" '
			BEGIN { n = split(want, w, "|"); for (i = 1; i <= n; i++) v[w[i]] = 0 }
			/file:function/ { body = 1; next }
			/^-- / { body = 0 }
			body && /^ *[0-9,]+ +\( *[0-9.]+%\) +[^ ]/ {
				ir = $1; gsub(/,/, "", ir)
				fn = $0; sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", fn); sub(/ \[[^]]*\]$/, "", fn)
				sub(/^[^:]*:/, "", fn)
				if (fn in v && ir + 0 > v[fn]) v[fn] = ir + 0
			}
			END { for (i = 1; i <= n; i++) print v[w[i]] }'
}

# Numbers for people: 1234567 -> 1,234,567; ratio A B -> A/B with two decimals.
commas() {
	local sign='' n=$1 out=''
	case $n in -*) sign=- n=${n#-} ;; esac
	while [ ${#n} -gt 3 ]; do
		out=,${n: -3}$out
		n=${n:0:${#n}-3}
	done
	echo "$sign$n$out"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}

ms() {
	awk -v m="$1" -v lo="$2" -v hi="$3" 'BEGIN {
		f = m < 10 ? "%.2f" : "%.1f"
		printf f " (" f "–" f ")", m, lo, hi }'
}

# heading TEXT: a question's title, on screen and as a Markdown heading.
heading() {
	printf '\n%s\n%s\n' "$1" "$(printf '%s' "$1" | LC_ALL=C sed 's/[\x80-\xbf]//g; s/./=/g')"
	[ -z "${BENCH_MD:-}" ] || printf '\n### %s\n\n' "$1" >>"$BENCH_MD"
}

# A line for people and, with BENCH_MD, the same paragraph in the Markdown file.
say() {
	printf '%s\n' "$*"
	[ -z "${BENCH_MD:-}" ] || printf '%s\n' "$*" >>"$BENCH_MD"
}

# table TITLE: rows on stdin, fields separated by tabs, the first row the header. Printed
# aligned, and as Markdown: a column with a number at the start of any cell goes right.
table() {
	local rows
	rows=$(cat)
	printf '\n%s\n\n' "$1"
	# Widths count characters, not bytes: UTF-8 continuation bytes are left out.
	printf '%s\n' "$rows" | LC_ALL=C awk -F'\t' '
		function width(s) { gsub(/[\200-\277]/, "", s); return length(s) }
		function pad(n) { return n > 0 ? sprintf("%" n "s", "") : "" }
		{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; l = width($i); if (l > w[i]) w[i] = l }
		  if (NF > nf) nf = NF }
		NR > 1 { for (i = 1; i <= NF; i++) if ($i ~ /^[-+(]?[0-9]/) num[i] = 1 }
		END {
			for (r = 1; r <= NR; r++) {
				line = ""
				for (i = 1; i <= nf; i++) {
					f = pad(w[i] - width(c[r, i]))
					line = line (i > 1 ? "  " : "") (num[i] ? f c[r, i] : c[r, i] f)
				}
				sub(/ +$/, "", line)
				print line
				if (r > 1)
					continue
				line = ""
				for (i = 1; i <= nf; i++) {
					d = pad(w[i]); gsub(/ /, "-", d)
					line = line (i > 1 ? "  " : "") d
				}
				print line
			}
		}'
	echo
	[ -n "${BENCH_MD:-}" ] || return 0
	{
		printf '\n#### %s\n\n' "$1"
		printf '%s\n' "$rows" | awk -F'\t' '
			{ r[NR] = $0; for (i = 1; i <= NF; i++) if (NR > 1 && $i ~ /^[-+(]?[0-9]/) num[i] = 1
			  if (NF > nf) nf = NF }
			END {
				for (k = 1; k <= NR; k++) {
					m = split(r[k], f, "\t"); line = "|"
					for (i = 1; i <= m; i++) line = line " " f[i] " |"
					print line
					if (k > 1)
						continue
					line = "|"
					for (i = 1; i <= nf; i++) line = line (num[i] ? " ---: |" : " --- |")
					print line
				}
			}'
		echo
	} >>"$BENCH_MD"
}

# The machine, once per `make bench` (the Makefile sets BENCH_MACHINE_SHOWN for the later
# scripts), or at the top of a script run on its own.
describe_machine() {
	[ "${BENCH_MACHINE_SHOWN:-}" != 1 ] || return 0
	local cpu virt='systemd-detect-virt missing' load tools=() list
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	if command -v systemd-detect-virt >/dev/null; then
		virt="$(systemd-detect-virt || true); VM only (--vm): $(systemd-detect-virt --vm || true)"
	fi
	read -r load _ </proc/loadavg
	! command -v valgrind >/dev/null || tools+=("$(valgrind --version)")
	! command -v strace >/dev/null || tools+=("strace $(strace -V | sed -n '1s/.* //p')")
	! command -v hyperfine >/dev/null || tools+=("$(hyperfine --version)")
	! command -v udevadm >/dev/null || tools+=("udev $(udevadm --version)")
	say "## Machine"
	say ""
	say "- kernel $(uname -r), $(nproc) CPUs (${cpu:-unknown model}), load average $load at the start"
	say "- virtualization (systemd-detect-virt): $virt"
	list=$(
		IFS=,
		echo "${tools[*]}"
	)
	say "- ${list//,/, }"
	say ""
}
