/* Writing JSON: a small writer that places the commas and colons itself, and the string
 * escaping, the one piece of the JSON report that sees outside text. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define JSON_DEPTH_MAX 8 /* objects and arrays open at once */

struct json {
        FILE *f;
        unsigned depth;
        bool after_key;                 /* the next value completes a member */
        bool has_items[JSON_DEPTH_MAX]; /* per open object or array: a comma before the next */
        bool lines[JSON_DEPTH_MAX];     /* per open array: one item a line */
};

void json_begin(struct json *j, FILE *f);
/* Ends the document with a newline. */
void json_end(struct json *j);

void json_object_begin(struct json *j);
void json_object_end(struct json *j);
/* one_per_line puts each item on a line of its own, for long lists a person reads. */
void json_array_begin(struct json *j, bool one_per_line);
void json_array_end(struct json *j);

/* A member's name; the next value is its value. */
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s); /* null for NULL */
void json_int(struct json *j, long v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

/* Writes s as a JSON string with quotes, or null for NULL. Control characters are escaped and
 * bytes that are not valid UTF-8 become U+FFFD, so any input gives valid JSON. */
void json_string(FILE *f, const char *s);

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when s[0] does not start one. */
size_t utf8_sequence_length(const unsigned char *s, size_t avail);
