/* The files the helper reads itself, never blocking: the config, /proc/cmdline, the read-back
 * of a write, the ACPI FADT and a few more. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#include "config.h"

/* Reads a whole regular file of at most size-1 bytes into buf and terminates it. It never
 * blocks: a FIFO, a socket or a device is refused unopened (the null device reads as empty).
 * Returns the length, -EFBIG when the file is larger, -EISDIR for a directory, -EBADFD for
 * another kind of file, its st_mode then in *type when type is not NULL (read_error_text() says
 * what it is), or another negative errno. */
long read_file_typed(const char *path, char *buf, size_t size, unsigned *type);
long read_file_bounded(const char *path, char *buf, size_t size);
/* Reads the rest of the regular file open at fd as read_file_typed() does. */
long read_fd_bounded(int fd, char *buf, size_t size);

/* Loads path into c, defaults first. An absent file leaves the defaults and found false; one
 * that cannot be read as a whole (unreadable, not a regular file, oversized, binary, no
 * memory) is reported through warn and leaves the defaults with unreadable set. */
void config_load(struct config *c, const char *path, config_warn_fn warn, void *userdata);

/* /proc/cmdline: COMMAND_LINE_SIZE is 2048 bytes on x86 and arm64, but bootconfig appends
 * its parameters, rendered from up to 32 KiB of data (XBC_DATA_MAX) with each key's whole path.
 * What fits in small (size bytes, on the caller's stack) is read there; a longer one is read
 * again into *big (the caller frees it), up to CMDLINE_MAX bytes. NULL when there is none.
 * *cut is set when it is longer: then it ends before the parameter the bound splits. */
#define CMDLINE_SMALL 8192
#define CMDLINE_MAX   (1024 * 1024)
char *read_cmdline(char *small, size_t size, char **big, bool *cut);
