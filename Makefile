# hyperv-scheduler: sets the "none" I/O scheduler on the disks Hyper-V provides.
# The distro's flags win: CFLAGS, CPPFLAGS and LDFLAGS are only added to, never replaced.

VERSION := $(shell cat VERSION)

PREFIX     ?= /usr
SBINDIR    ?= $(PREFIX)/sbin
MANDIR     ?= $(PREFIX)/share/man
DATADIR    ?= $(PREFIX)/share
SYSCONFDIR ?= /etc
PKG_CONFIG ?= pkg-config
UDEVDIR    ?= $(shell $(PKG_CONFIG) --variable=udevdir udev 2>/dev/null || echo /lib/udev)
INSTALL    ?= install
SCDOC      ?= scdoc

CC     ?= cc
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
          -Wformat=2 -Werror=format-security -fstack-protector-strong -fPIE
CPPFLAGS += -D_GNU_SOURCE -DVERSION='"$(VERSION)"' \
            -DDEFAULT_CONFIG='"$(SYSCONFDIR)/hyperv-scheduler.conf"'
# Distros pass their own _FORTIFY_SOURCE level; add one only when none is given.
ifeq ($(findstring _FORTIFY_SOURCE,$(CPPFLAGS) $(CFLAGS)),)
CPPFLAGS += -D_FORTIFY_SOURCE=2
endif
LDFLAGS += -pie -Wl,-z,relro -Wl,-z,now -Wl,--as-needed
ifeq ($(WERROR),1)
CFLAGS += -Werror
endif
ifeq ($(SANITIZE),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif

UDEV_CFLAGS  := $(shell $(PKG_CONFIG) --cflags libudev)
# libc first: the dynamic loader looks every symbol of every library up in NEEDED order, and
# libc holds nearly all of them, libudev's own imports included. About 9,000 fewer user-space
# instructions per event (BENCHMARKS.md).
UDEV_LIBS    := -lc $(shell $(PKG_CONFIG) --libs libudev)
# The helper itself opens libudev only when it needs it (src/udevlib.c): dlopen() is in libc
# from glibc 2.34 on, in libdl before (--as-needed drops libdl where libc has it).
HELPER_LIBS  := -lc -ldl
CHECK_CFLAGS  = $(shell $(PKG_CONFIG) --cflags check)
CHECK_LIBS    = $(shell $(PKG_CONFIG) --libs check)

# Pure modules: functions of plain data (src/types.h), no I/O, so that the unit tests and the
# fuzz targets can hand them anything. The report writes to a stream it is given.
PURE_OBJS := src/verdict.o src/schedlist.o src/policy.o src/config.o src/report.o \
             src/devname.o src/json.o src/util.o src/record.o
# The files the helper reads and the sysfs paths it walks and writes itself: no libudev, so the
# unit tests link them too.
FILE_OBJS := src/files.o src/sysfs.o
IO_OBJS   := $(FILE_OBJS) src/recordfile.o src/cpuregs.o src/facts.o src/disk.o src/log.o src/run.o src/undo.o src/udevlib.o
OBJS      := $(PURE_OBJS) $(IO_OBJS) src/main.o
TEST_OBJS := tests/unit.o tests/cpuid-file.o tests/test-cpuid-file.o tests/test-verdict.o tests/test-policy.o tests/test-schedlist.o \
             tests/test-config.o tests/test-devname.o tests/test-json.o tests/test-util.o \
             tests/test-report.o tests/test-record.o tests/test-sysfs.o

MANPAGES := man/hyperv-scheduler.8 man/hyperv-scheduler.conf.5

all: hyperv-scheduler rules/60-hyperv-scheduler.rules.out

hyperv-scheduler: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(HELPER_LIBS)

src/%.o: src/%.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(UDEV_CFLAGS) -MMD -MP -c -o $@ $<

tests/%.o: tests/%.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CHECK_CFLAGS) -Isrc -MMD -MP -c -o $@ $<

tests/unit: $(TEST_OBJS) $(PURE_OBJS) $(FILE_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS)

# The helper with CPUID read from the file named by HYPERV_SCHEDULER_TEST_CPUID (tests/README.md):
# with a fake sysfs tree it stands for any machine. Never installed.
TESTFACTS_OBJS := tests/testfacts.o tests/cpuid-file.o

# The fault points (the scheduler write, through libudev or not, its read-back, the report,
# libudev's loading, the syslog connection) are link-time seams (tests/testfacts.c).
tests/hyperv-scheduler-testfacts: $(TESTFACTS_OBJS) $(filter-out src/cpuregs.o,$(OBJS))
	$(CC) $(CFLAGS) $(LDFLAGS) -Wl,--wrap=read_file_typed -Wl,--wrap=udev_device_set_sysattr_value \
		-Wl,--wrap=sysfs_write_attr -Wl,--wrap=open_memstream -Wl,--wrap=dlopen -Wl,--wrap=dlsym \
		-Wl,--wrap=connect -o $@ $^ $(HELPER_LIBS)

# The rule names the helper by the path it is installed at.
rules/60-hyperv-scheduler.rules.out: rules/60-hyperv-scheduler.rules
	sed 's|@SBINDIR@|$(SBINDIR)|g' $< > $@

man/%: man/%.scd VERSION
	sed 's|@VERSION@|$(VERSION)|g' $< | $(SCDOC) > $@

man: $(MANPAGES)

# The JSON writer's fuzz target run once on its seeds by any compiler, so that make check
# validates the reports it writes (tests/integration/schema.sh).
tests/fuzz-json-replay: tests/fuzz/replay.c tests/fuzz/fuzz-json.c tests/fuzz/invariants.c $(PURE_OBJS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc -Itests $(LDFLAGS) -o $@ $^

check: all tests/unit tests/hyperv-scheduler-testfacts tests/fuzz-json-replay
	tests/run-tests.sh

install: all man
	$(INSTALL) -D -m 0755 hyperv-scheduler $(DESTDIR)$(SBINDIR)/hyperv-scheduler
	$(INSTALL) -D -m 0644 rules/60-hyperv-scheduler.rules.out \
		$(DESTDIR)$(UDEVDIR)/rules.d/60-hyperv-scheduler.rules
	$(INSTALL) -D -m 0644 hyperv-scheduler.conf $(DESTDIR)$(SYSCONFDIR)/hyperv-scheduler.conf
	$(INSTALL) -D -m 0644 man/hyperv-scheduler.8 $(DESTDIR)$(MANDIR)/man8/hyperv-scheduler.8
	$(INSTALL) -D -m 0644 man/hyperv-scheduler.conf.5 \
		$(DESTDIR)$(MANDIR)/man5/hyperv-scheduler.conf.5
	$(INSTALL) -D -m 0644 report.schema.json \
		$(DESTDIR)$(DATADIR)/hyperv-scheduler/report.schema.json

clean:
	rm -f hyperv-scheduler tests/unit tests/hyperv-scheduler-testfacts tests/fuzz-json-replay bench/udev-floor src/*.o src/*.d tests/*.o tests/*.d \
		rules/60-hyperv-scheduler.rules.out $(MANPAGES)

.PHONY: all check install clean man dist distcheck

# Packages
# `make deb` builds the Debian package for the release this machine runs, `make rpm` the RPM
# where rpmbuild is installed, from this checkout into build/ (packaging/build-package.sh). They
# install nothing; a missing build dependency is named, with the command that installs it.
deb:
	packaging/build-package.sh deb

rpm:
	packaging/build-package.sh rpm

.PHONY: deb rpm

# Samples in the documents
# Every sample of the helper's output in DOCS is what a run prints: `make docs-check` (root,
# a few seconds) runs each one again on the fake Azure guest (tests/docs-samples.sh) and fails
# with a diff where a document differs; `make docs-update` writes the runs' output into them.
# It also checks that every link between the Markdown documents (MDDOCS) leads somewhere
# (tests/docs-links.py): they link to each other instead of saying a fact twice.
DOCS := README.md man/hyperv-scheduler.8.scd man/hyperv-scheduler.conf.5.scd
MDDOCS = $(shell git ls-files '*.md' 2>/dev/null || ls *.md */*.md)

docs-check docs-update: hyperv-scheduler tests/hyperv-scheduler-testfacts
	@tests/docs-links.py $(MDDOCS)
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && tests/docs-samples.sh "$$d" && \
	tests/docs-check.py $(if $(filter docs-update,$@),--update) "$$d" $(DOCS)

.PHONY: docs-check docs-update

# Release tarball
# `make dist` packs the files git tracks, as they are in the working tree, into
# hyperv-scheduler-VERSION.tar.gz under hyperv-scheduler-VERSION/ (the RPM's Source0, and as
# hyperv-scheduler_VERSION.orig.tar.gz Debian's; debian/ is left out, since the Debian source
# package carries it beside the tarball: .ci/source-package.sh). Owners,
# order and times are fixed (times: the last commit's), so the same tree gives the same bytes.
# Building from the tarball needs no git. `make distcheck` unpacks it, builds, runs the suite,
# installs into a scratch DESTDIR and checks that `make clean` gives back what was unpacked.
# The unpacked tree is readable by all: the suite runs the helper as nobody on its fixtures.
# DISTCHECK_CHECK= (empty) leaves the suite out, where something else runs it from the same
# tarball (.ci/run: the package builds).
DIST := hyperv-scheduler-$(VERSION)
DISTCHECK_CHECK ?= check
# Where the tarball goes: scripts that run at the same time give each their own.
DIST_TARBALL ?= $(DIST).tar.gz

dist:
	@git rev-parse --git-dir >/dev/null 2>&1 || \
		{ echo "make dist: needs a git checkout (it packs the files git tracks)" >&2; exit 1; }
	git ls-files -z -- . ':!debian' | \
		xargs -0 sh -c 'for f; do [ ! -e "$$f" ] || printf "%s\0" "$$f"; done' sh | \
		tar --null -T - --sort=name --owner=0 --group=0 --numeric-owner \
			--mtime=@$$(git log -1 --format=%ct) --transform='flags=r;s,^,$(DIST)/,' -cf - | \
		gzip -9n >$(DIST_TARBALL).tmp
	mv $(DIST_TARBALL).tmp $(DIST_TARBALL)

distcheck: dist
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && set -e && chmod 0755 "$$d" && \
	tar -C "$$d" -xzf $(DIST_TARBALL) && \
	(cd "$$d" && find $(DIST) | sort) >"$$d/unpacked" && \
	$(MAKE) -C "$$d/$(DIST)" all man $(DISTCHECK_CHECK) && \
	$(MAKE) -C "$$d/$(DIST)" install DESTDIR="$$d/destdir" && \
	test -x "$$d/destdir$(SBINDIR)/hyperv-scheduler" && \
	$(MAKE) -C "$$d/$(DIST)" clean && \
	(cd "$$d" && find $(DIST) | sort) | diff -u "$$d/unpacked" - && \
	echo "distcheck: $(DIST).tar.gz builds, $(if $(DISTCHECK_CHECK),passes make $(DISTCHECK_CHECK),the suite left out (DISTCHECK_CHECK=)), installs and cleans up"

-include $(OBJS:.o=.d) $(TEST_OBJS:.o=.d) tests/testfacts.d

# Fuzzing
# libFuzzer targets for every parser of outside input (tests/fuzz/), built with clang whatever
# CC is. `make fuzz` runs each for FUZZ_SECONDS on its seeds and saved regressions and fails on
# any crash; `make fuzz-replay` only runs those inputs once. New inputs stay out of the tree.
FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 60
FUZZ_CFLAGS   ?= -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS   += -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
# Fortified string functions would bypass ASan's checks.
FUZZ_CPPFLAGS  = $(CPPFLAGS) -U_FORTIFY_SOURCE
FUZZ_BUILD    := tests/fuzz/build
FUZZ_TARGETS  := config schedlist dmi devname json cpuidfile fadt record
FUZZ_BINS     := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz-%)
FUZZ_OBJS     := $(PURE_OBJS:src/%=$(FUZZ_BUILD)/src/%) $(FUZZ_BUILD)/invariants.o \
                 $(FUZZ_BUILD)/cpuid-file.o

$(FUZZ_BUILD)/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/%.o: tests/fuzz/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) -Isrc -Itests $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/cpuid-file.o: tests/cpuid-file.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) -Isrc $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/fuzz-%: $(FUZZ_BUILD)/fuzz-%.o $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $^

fuzz: $(FUZZ_BINS)
	FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(FUZZ_TARGETS)

fuzz-replay: $(FUZZ_BINS)
	tests/fuzz/run.sh --replay $(FUZZ_TARGETS)

fuzz-clean:
	rm -rf $(FUZZ_BUILD)

clean: fuzz-clean

.PHONY: fuzz fuzz-replay fuzz-clean
.SECONDARY: $(FUZZ_OBJS) $(FUZZ_BINS:%=%.o)

-include $(wildcard $(FUZZ_BUILD)/*.d $(FUZZ_BUILD)/src/*.d)

# Benchmarks
# `make bench` (root; minutes, most of them fio's) answers with numbers from
# this machine: what one udev event costs per path next to the shell one-liner and
# systemd-detect-virt, and what a typical Azure VM's boot costs (bench/cost.sh), whether --all
# stays flat per disk from 1 to 1,000 disks (bench/scaling.sh), what the rule adds to a storm of
# 100 add events and to the coldplug of an Azure VM's 7 disks through a private udevd
# (bench/storm.sh, bench/storm.sh --azure-boot), and whether the scheduler changes 4k random I/O at
# all (bench/fio-scheduler.sh on a loop device). Not part of `make check`: it needs root, the
# tools bench/deps.sh lists, and minutes. bench/deps.sh checks for all of them first and prints the
# one apt-get command that installs what is missing;
# `make bench BENCH_INSTALL=1` (as root) runs it. BENCH_MD=FILE also writes the tables of
# cost, scaling and storm as Markdown.
# The floor beside the helper: its flags, linked with libudev, only udev_new() and udev_unref().
bench/udev-floor: bench/udev-floor.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(UDEV_CFLAGS) $(LDFLAGS) -o $@ $< $(UDEV_LIBS)

bench: hyperv-scheduler tests/hyperv-scheduler-testfacts bench/udev-floor
	BENCH_INSTALL='$(BENCH_INSTALL)' bench/deps.sh
	@if [ -n "$$BENCH_MD" ]; then : >"$$BENCH_MD"; fi
	bench/cost.sh
	BENCH_MACHINE_SHOWN=1 bench/scaling.sh
	BENCH_MACHINE_SHOWN=1 bench/storm.sh
	BENCH_MACHINE_SHOWN=1 bench/storm.sh --azure-boot
	@if [ -x bench/fio-scheduler.sh ]; then bench/fio-scheduler.sh loop; \
	else echo "bench/fio-scheduler.sh: not there, skipped"; fi

.PHONY: bench

# Whole guests
# `make check-vm` (root; mmdebstrap, qemu-system-x86, qemu-system-arm, qemu-efi-aarch64,
# qemu-user-static, jq and the Debian archive; 11 boots under TCG, two at a time, on images
# whose bases are kept for a week; the package builds too without VM_DEBS) boots the package in
# Debian 12 and 13 guest images under QEMU, each boot a first boot, and checks what coldplug,
# hot-add, the kernel command line, broken configs and the package's own install, upgrade and
# purge do to the guest's disks (tests/vm/). Not part of `make check`. VM_DEBS=DIR takes the
# packages from DIR/bookworm, DIR/trixie and DIR/arm64 instead of building them (the arm64 one
# is cross-built when DIR has none).
check-vm:
	VM_DEBS='$(VM_DEBS)' tests/vm/run.sh

.PHONY: check-vm

# Mutants and coverage (root, as `make check` in CI; each works in a copy of the tree, built there)
# `make mutants` applies each one-place break of src/ listed in tests/mutants.txt and fails when
# the unit tests and the one integration script named there all pass, or when a listed original
# is no longer in src/ exactly once (tests/mutants.sh; MUTANTS_JOBS=2 copies at once).
# `make coverage` runs the whole suite on a --coverage build and prints gcovr's line and branch
# coverage of src/ with the lines never run; it fails below tests/coverage-floor, which
# `make coverage COVERAGE_RAISE=1` raises to what was measured (tests/coverage.sh; gcovr).
mutants:
	tests/mutants.sh

coverage:
	tests/coverage.sh

.PHONY: mutants coverage

# Shell scripts
# Every shell script in the tree: the sourced *.sh and each file whose first line runs sh or
# bash (debian/'s maintainer scripts too), less build output. -x follows the `source` lines.
# Then shfmt's diff: one style (its default, tabs), which `make shfmt` writes.
SHELLCHECK ?= shellcheck
SHFMT ?= shfmt
shellcheck shfmt:
	@files=$$(find . \( -name .git -o -path ./tests/fuzz/build -o -path ./debian/hyperv-scheduler \
		-o -path ./debian/.debhelper -o -path ./debian/tmp \) -prune -o -type f -print | \
		LC_ALL=C sort | while read -r f; do \
			case $$f in \
			*.sh) echo "$$f" ;; \
			*) if head -n 1 "$$f" | grep -qE '^#! */(usr/)?bin/(env +)?(ba|da)?sh( |$$)'; then \
				echo "$$f"; fi ;; \
			esac; \
		done) && \
	if [ $@ = shfmt ]; then $(SHFMT) -w $$files; exit; fi && \
	echo "shellcheck: $$(echo $$files | wc -w) scripts" && \
	$(SHELLCHECK) -x $$files && \
	{ command -v $(SHFMT) >/dev/null || { echo "shellcheck: no $(SHFMT) (apt-get install shfmt)" >&2; exit 1; }; } && \
	$(SHFMT) -d $$files && echo "shfmt: one style"

.PHONY: shellcheck shfmt
