# shellcheck shell=bash
# Every kind of machine, through the binary: the testfacts build reads CPUID from a file
# (tests/fixtures/cpuid/), and a private mount namespace gives it the machine's /sys (a fake
# tree with that machine's DMI, VMBus or none) and kernel release. The report must give the
# verdict, the hypervisor and the flavour, and say what happens to the VMBus disk sda; on a
# machine that is no Hyper-V guest a real run must leave every file of the tree as it was.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

# DMI as sys_vendor|product_name|bios_vendor|chassis_asset_tag.
declare -A dmi_of=(
        [azure]="Microsoft Corporation|Virtual Machine|Microsoft Corporation|7783-7084-3265-9085-8269-3286-77"
        [hyperv]="Microsoft Corporation|Virtual Machine|Microsoft Corporation|4316-9423-5217-1742-6321-4498-72"
        [nutanix]="Nutanix|NX-3060-G7|American Megatrends Inc.|"
        [amazon]="Amazon EC2|m5.metal|Amazon EC2|Amazon EC2"
        [qemu]="QEMU|Standard PC (Q35 + ICH9, 2009)|EDK II|"
        [xen]="Xen|HVM domU|Xen|"
)

# machine_tree NAME BASE DMI VMBUS: a copy of fixture tree BASE with DMI (as in dmi_of; "-"
# leaves the tree's, "none" removes DMI, as WSL2 has none) and, when VMBUS is "no", no
# /sys/bus/vmbus. Prints its root.
machine_tree() {
        local dir=$work/machine-$1 base dmi=$3 id
        base=$(make_tree "$2") || return 1
        cp -a "$base" "$dir" || return 1
        id=$dir/sys/devices/virtual/dmi/id
        case $dmi in
        -) ;;
        none) rm -rf "$id" "$dir/sys/class/dmi" ;;
        *)
                IFS='|' read -r sys_vendor product_name bios_vendor asset_tag <<<"$dmi"
                printf '%s\n' "$sys_vendor" >"$id/sys_vendor"
                printf '%s\n' "$product_name" >"$id/product_name"
                printf '%s\n' "$bios_vendor" >"$id/bios_vendor"
                printf '%s\n' "$asset_tag" >"$id/chassis_asset_tag"
                ;;
        esac
        [ "$4" != no ] || rm -rf "$dir/sys/bus/vmbus"
        echo "$dir"
}

if need_mounts "machines"; then
        if [ ! -x "$TESTFACTS" ]; then
                fail "machines" "$TESTFACTS is not built (make tests/hyperv-scheduler-testfacts)"
                finish
                exit
        fi
        conf=$(config "mode = auto")
        wsl=$work/osrelease-wsl
        echo 5.15.167.4-microsoft-standard-WSL2 >"$wsl"
        generic=$work/osrelease-debian
        echo 6.1.0-28-cloud-amd64 >"$generic"

        # machine | CPUID file | tree | DMI | VMBus | kernel release | verdict hypervisor flavour | sda
        while IFS='|' read -r name cpuid base dmi vmbus osrelease want sda; do
                [ -n "$name" ] || continue
                case $dmi in -| none) ;; *) dmi=${dmi_of[$dmi]} ;; esac
                tree=$(machine_tree "$name" "$base" "$dmi" "$vmbus") ||
                        { fail "$name" "cannot build its tree"; continue; }
                run=(in_ns --sys "$tree" --osrelease "$work/osrelease-$osrelease" --
                        env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/$cpuid" "$TESTFACTS" -c "$conf")
                check "$name: the report exits 0" -- exits 0 "${run[@]}" --dry-run --json sda
                check "$name: $want" -- json_is \
                        "' '.join([d['machine']['verdict'], str(d['machine']['hypervisor'])] + d['machine']['flavour'])" "$want"
                check "$name: sda is $sda" -- disk_is sda "$sda"
                if [ "${want%% *}" != hyperv-guest ]; then
                        before=$(tree_sum "$tree")
                        check "$name: a real run on every disk exits 0" -- exits 0 "${run[@]}" --all
                        check "$name: and writes nothing" -- is "the tree's checksum" "$(tree_sum "$tree")" "$before"
                fi
        done <<'TABLE'
hyper-v gen1|hyperv-guest|legacy|-|yes|debian|hyperv-guest microsoft gen1|would-change/None
hyper-v gen2|hyperv-guest|azure|hyperv|yes|debian|hyperv-guest microsoft gen2|would-change/None
azure|hyperv-guest|azure|azure|yes|debian|hyperv-guest microsoft azure gen2|would-change/None
azure l1vh|hyperv-l1vh|azure|azure|yes|debian|hyperv-guest microsoft l1vh azure gen2|would-change/None
hyper-v root|hyperv-root|azure|hyperv|yes|debian|hyperv-root microsoft|skipped/not-hyperv
hyper-v root on nutanix hardware|hyperv-root|azure|nutanix|no|debian|hyperv-root microsoft|skipped/not-hyperv
hyper-v root on amazon hardware|hyperv-root|azure|amazon|no|debian|hyperv-root microsoft|skipped/not-hyperv
azure confidential|hyperv-confidential|azure|azure|yes|debian|hyperv-guest microsoft azure gen2|would-change/None
wsl2|hyperv-guest|azure|none|yes|wsl|hyperv-guest microsoft wsl2|would-change/None
kvm with hyper-v enlightenments|kvm-hyperv|azure|qemu|no|debian|other-hypervisor kvm|skipped/not-hyperv
xen with viridian|xen-viridian|azure|xen|no|debian|other-hypervisor xen|skipped/not-hyperv
qemu kvm=off with hyper-v enlightenments|qemu-kvm-off|azure|qemu|no|debian|other-hypervisor qemu|skipped/not-hyperv
plain kvm|kvm|azure|qemu|no|debian|other-hypervisor kvm|skipped/not-hyperv
kvm over a tree with vmbus and azure dmi|kvm|azure|azure|yes|debian|other-hypervisor kvm|skipped/not-hyperv
bare metal with microsoft dmi|bare-metal|azure|hyperv|no|debian|bare-metal None|skipped/not-hyperv
arm64 hyper-v guest|none|azure|azure|yes|debian|hyperv-guest microsoft azure gen2|would-change/None
arm64 qemu|none|azure|qemu|no|debian|other-hypervisor qemu|skipped/not-hyperv
TABLE
fi

finish
