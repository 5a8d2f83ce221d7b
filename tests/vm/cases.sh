#!/bin/sh
# The boots of make check-vm, one a line: NAME SUITE ARCH KERNEL-FLAVOUR CASE. Each case is
# the hstest.case= of the boot (tests/vm/guest/report.sh says what the guest does for it):
#   defaults  case 1, then case 8 (the package's life) in the running guest
#   smbios    case 2, SMBIOS says Microsoft, no TCG CPUID signature; then case 7 (broken
#             configuration files: binary at coldplug, then a bad line, then a huge file)
#   nohv      case 2, the same with the CPUID hypervisor bit off
#   always    cases 3, 4 and 5: mode = always for vd*, sd*, sr*, then a hot-added disk
#   readme    cases 3, 4 and 5 with hyperv_scheduler=always on the kernel command line and the
#             package's config, as the README's CI recipe boots; then case 10 (the README's
#             CI lines, as written: --check passes, the journal names the changes) and case 11
#             (vdb set back to mq-deadline: --check fails, naming it). The defaults boots also
#             run those lines (case 12: --check passes, the journal names no change)
#   off       case 6: hyperv_scheduler=off on the kernel command line, mode = always in the file
#   arm64     case 9: mode = always for vd* on arm64, the verdict from DMI
# Every boot also records what the kernel itself chose for each disk, so the generic kernels
# need only the "always" boot for the table. nohv and off boot Debian 13 only: they test the
# helper's own decision, which the release does not change (smbios boots both: its case 7
# is what each release's udev and journal make of broken configs). Ordered so that the slow arm64 boot starts as soon as
# its image is there.
cat <<'LIST'
bookworm-cloud-defaults bookworm amd64 cloud defaults
bookworm-cloud-readme bookworm amd64 cloud readme
bookworm-cloud-smbios bookworm amd64 cloud smbios
bookworm-generic-always bookworm amd64 generic always
bookworm-arm64-always bookworm arm64 cloud arm64
trixie-cloud-defaults trixie amd64 cloud defaults
trixie-cloud-always trixie amd64 cloud always
trixie-cloud-smbios trixie amd64 cloud smbios
trixie-cloud-nohv trixie amd64 cloud nohv
trixie-cloud-off trixie amd64 cloud off
trixie-generic-always trixie amd64 generic always
LIST
