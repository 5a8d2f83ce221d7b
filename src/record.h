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
};

/* Parses a record's text: one "key=value" a line, every key once (diskseq may be absent).
 * Returns 0, or -EINVAL for anything else. */
int record_parse(const char *text, size_t len, struct record *r);

/* The text of r in buf. Returns its length, or -ENOBUFS when it does not fit. */
int record_format(const struct record *r, char *buf, size_t size);

/* Whether a and b name the same disk: the same diskseq where both have one, else the same
 * DEVPATH and device number. */
bool record_same_disk(const struct record *a, const struct record *b);

/* at as RFC 3339 in UTC, "2026-12-04T18:35:01Z". */
void record_time(long long at, char *buf, size_t size);

/* The I/O (recordfile.c). Every function returns 0 or a negative errno. */

/* The identity of the disk at syspath named name, read from its sysfs directory. */
int record_identity(const char *syspath, const char *name, struct record *r);

/* Reads dir/name: refused unless it is a regular file (-EBADFD, its st_mode in *type, a
 * symbolic link too), owned by root and writable by root alone (-EPERM), of at most
 * RECORD_FILE_MAX bytes (-EFBIG), that parses and names the disk name (-EINVAL); -ENOENT when
 * there is none. */
int record_load(const char *dir, const char *name, struct record *r, unsigned *type);

/* Writes r as dir/r->name atomically: a new file, then rename(); dir is made, mode 0755, where
 * it does not exist. The file is 0644, root's (the caller's). */
int record_save(const char *dir, const struct record *r);

/* Whether this run keeps records: only a run as root does, since record_load() trusts only
 * root's. */
bool record_keeper(void);

int record_remove(const char *dir, const char *name);

/* Logs, as a warning, why record_load() refused the record of name (nothing for -ENOENT). */
void record_warn(const char *name, int e, unsigned type);
