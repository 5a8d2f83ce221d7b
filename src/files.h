/* The files the helper reads itself, never blocking: the config, /proc/cmdline, the read-back
 * of a write, the ACPI FADT and a few more. */
#pragma once
#include <stddef.h>

#include "config.h"

/* Reads a whole regular file of at most size-1 bytes into buf and terminates it. It never
 * blocks: a FIFO, a socket or a device is refused unread (the null device reads as empty).
 * Returns the length, -EFBIG when the file is larger, -EISDIR for a directory, -READ_NOT_REGULAR for
 * another kind of file (its st_mode in *type when type is not NULL), or another negative
 * errno. */
long read_file_typed(const char *path, char *buf, size_t size, unsigned *type);
long read_file_bounded(const char *path, char *buf, size_t size);

/* Loads path into c, defaults first. An absent file leaves the defaults and found false; one
 * that cannot be read as a whole (unreadable, not a regular file, oversized, binary, no
 * memory) is reported through warn and leaves the defaults with unreadable set. */
void config_load(struct config *c, const char *path, config_warn_fn warn, void *userdata);
