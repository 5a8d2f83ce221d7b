/* Small string and file helpers shared by every module. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

/* Copies at most size-1 bytes and always terminates; returns false when src did not fit. */
bool copy_string(char *dst, const char *src, size_t size);

/* "a FIFO, not a regular file", ... for an st_mode. */
const char *file_type_name(unsigned mode);
/* What a read failed on, for a message: for a file that is not a regular one (type, its st_mode,
 * not 0) what it is, else strerror(-error). */
const char *read_error_text(int error, unsigned type);

/* Makes untrusted text safe to print in one line: printable ASCII stays, everything else
 * becomes \n, \t, \r or \xNN, and text longer than the buffer ends in "...". */
void escape_text(const char *in, size_t len, char *out, size_t size);

/* Removes leading and trailing white space in place; returns s. */
char *strip(char *s);

bool streq(const char *a, const char *b);

/* Text built in buf (size bytes) from its first len, without snprintf(), whose formatting
 * costs more than the rest of the per-event path's own work (BENCHMARKS.md): s, or v in
 * decimal, appended and terminated. Each returns the new length, or size where it does not
 * fit, and then every later one too: a caller checks the last. */
size_t str_append(char *buf, size_t size, size_t len, const char *s);
size_t str_append_number(char *buf, size_t size, size_t len, long long v);

/* dir/name in buf (size bytes); false when that does not fit. */
bool path_join(char *buf, size_t size, const char *dir, const char *name);
