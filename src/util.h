/* Small string and file helpers shared by every module. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

/* Copies at most size-1 bytes and always terminates; returns false when src did not fit. */
bool copy_string(char *dst, const char *src, size_t size);

/* Reads a whole file of at most size-1 bytes into buf and terminates it.
 * Returns the length, -EFBIG when the file is larger, or another negative errno. */
long read_file_bounded(const char *path, char *buf, size_t size);

/* Makes untrusted text safe to print in one line: printable ASCII stays, everything else
 * becomes \n, \t, \r or \xNN, and text longer than the buffer ends in "...". */
void escape_text(const char *in, size_t len, char *out, size_t size);

/* Removes leading and trailing white space in place; returns s. */
char *strip(char *s);

bool streq(const char *a, const char *b);
