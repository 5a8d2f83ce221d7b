/* The record of a change: what this program wrote to a disk this boot, kept under RECORD_DIR (a
 * tmpfs: it lasts exactly as long as the change does), one file per disk, so that a report can
 * tell a disk we changed from one the kernel started on its target, and --undo can put it back.
 * record.c holds the pure part (the file's text), recordfile.c the files. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#include "devname.h"
#include "schedlist.h"

#define RECORD_DIR "/run/hyperv-scheduler"
/* A record is a few short lines; anything longer is no record of ours. */
#define RECORD_FILE_MAX 1024
#define RECORD_DEVPATH_MAX 512
#define RECORD_BOOT_ID_LEN 36 /* a UUID as the kernel prints it */
/* The last second RFC 3339 can write: 9999-12-31T23:59:59Z. */
#define RECORD_AT_MAX 253402300799LL
#define RECORD_BOOT_ID "/proc/sys/kernel/random/boot_id"

struct record {
        char name[KERNEL_NAME_MAX];
        /* The disk's identity: the kernel's diskseq (Linux 5.15 and later), unique per boot;
         * where the kernel has none, "" and the DEVPATH and device number stand for it. */
        char diskseq[24];
        char devpath[RECORD_DEVPATH_MAX];
        char devnum[24]; /* "MAJOR:MINOR" */
        char from[SCHED_NAME_MAX], to[SCHED_NAME_MAX];
        long long at;  /* seconds since the epoch */
        char by[16];   /* "udev", "hand" or "install" */
        /* The boot it was made in, /proc/sys/kernel/random/boot_id: a /run that outlives a
         * boot (a container's, a misconfigured image's) keeps records of disks that diskseq,
         * which starts again at 1 each boot, would take for this boot's. */
        char boot[RECORD_BOOT_ID_LEN + 1];
};

/* Parses a record's text: one "key=value" a line, every key once (diskseq may be absent), a
 * kernel name, scheduler names, a known run, a time RFC 3339 can write and a boot id.
 * Returns 0, or -EINVAL for anything else. */
int record_parse(const char *text, size_t len, struct record *r);

/* The text of r in buf. Returns its length, or -ENOBUFS when it does not fit. */
int record_format(const struct record *r, char *buf, size_t size);

/* Whether a and b name the same disk: the same diskseq where both have one, else the same
 * DEVPATH and device number. */
bool record_same_disk(const struct record *a, const struct record *b);

/* What a record r is to the disk whose identity, read now, is now (record_identity()), in
 * the boot boot ("" where it cannot be read, which only a record of no boot is of): */
enum record_match {
        RECORD_THIS_DISK,   /* this disk's, this boot */
        RECORD_OTHER_DISK,  /* another disk's of that name */
        RECORD_OTHER_BOOT,  /* made in another boot */
        RECORD_NO_DISKSEQ,  /* without diskseq, where the disk has one: no record of ours */
};
enum record_match record_match(const struct record *r, const struct record *now, const char *boot);

/* at as RFC 3339 in UTC, "2026-12-04T18:35:01Z". */
void record_time(long long at, char *buf, size_t size);

/* The I/O (recordfile.c). Every function returns 0 or a negative errno. */

/* The identity of the disk at syspath named name, read from its sysfs directory; where that
 * fails, the attribute that could not be read in *attr. */
int record_identity(const char *syspath, const char *name, struct record *r, const char **attr);

/* This boot's id in buf (RECORD_BOOT_ID_LEN + 1 bytes): 0, or a negative errno. */
int record_boot_id(char *buf, size_t size);
/* record_boot_id(), read once a run; "" where it cannot be read. */
const char *record_boot(void);

/* RECORD_DIR, opened without following a symbolic link: refused unless a directory (-ENOTDIR,
 * a symbolic link too) owned by root (-EPERM) and writable by root alone (-EACCES). create:
 * made where it does not exist, mode 0755 whatever the umask. Returns the descriptor, or a
 * negative errno (-ENOENT: none, and !create). */
int record_dir_open(bool create);
/* record_dir_open(), once a run (again with create after -ENOENT): its refusal is said in one
 * warning, the first time. */
int record_dir(bool create);

/* Reads name in the record directory dir, checked and read through one open file: refused
 * unless a regular file (-EBADFD, its st_mode in *type, a symbolic link too), owned by root
 * (-EPERM), writable by root alone (-EACCES), of one name (-EMLINK), the file looked at
 * (-ESTALE), of at most RECORD_FILE_MAX bytes (-EFBIG), that parses and names the disk name
 * (-EINVAL); -ENOENT when there is none. With kept, the file stays open there, for
 * record_remove(): open, its inode is not another file's. */
int record_load(int dir, const char *name, struct record *r, unsigned *type, int *kept);

/* Writes r as r->name in dir atomically: a new file, mode 0644 whatever the umask, root's
 * (the caller's), renamed over the old one. */
int record_save(int dir, const struct record *r);

/* Whether this run keeps records: only a run as root does, since record_load() trusts only
 * root's. */
bool record_keeper(void);

/* Removes name from dir where it is still the file record_load() read and kept open; -ESTALE
 * and the record kept where another has been written since. */
int record_remove(int dir, const char *name, int kept);

/* Logs, as a warning, why record_load() refused the record of name (nothing for -ENOENT). */
void record_warn(const char *name, int e, unsigned type);
