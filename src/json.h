/* Writing JSON strings: the one piece of the JSON report that sees outside text. */
#pragma once
#include <stddef.h>
#include <stdio.h>

/* Writes s as a JSON string with quotes, or null for NULL. Control characters are escaped and
 * bytes that are not valid UTF-8 become U+FFFD, so any input gives valid JSON. */
void json_string(FILE *f, const char *s);

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when s[0] does not start one. */
size_t utf8_sequence_length(const unsigned char *s, size_t avail);
