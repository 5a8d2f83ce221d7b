/* What every fuzz target checks beyond the sanitizers: printable text and strict JSON. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

/* Aborts, so that libFuzzer saves the input, when an invariant does not hold. */
#define FUZZ_CHECK(cond, ...) ((cond) ? (void) 0 : fuzz_fail(__FILE__, __LINE__, __VA_ARGS__))

__attribute__((noreturn, format(printf, 3, 4)))
void fuzz_fail(const char *file, int line, const char *fmt, ...);

/* A NUL within the first size bytes of s, and only printable ASCII (0x20-0x7e) before it. */
bool printable_within(const char *s, size_t size);

/* Length of the UTF-8 sequence at s that RFC 3629 allows (no overlong forms, no surrogates,
 * nothing above U+10FFFF), or 0. Written apart from json.c so that each checks the other. */
size_t utf8_valid_length(const unsigned char *s, size_t avail);

/* Decodes s[0..len) when it is exactly one JSON string token as a strict RFC 8259 parser takes
 * it: quotes, the eight short escapes and \uXXXX (surrogates only as a high-low pair), no raw
 * control character, valid UTF-8. Writes the text as UTF-8 to out (len bytes always suffice)
 * and returns its length, or returns -1 and sets *why. */
long json_string_decode(const char *s, size_t len, unsigned char *out, const char **why);

/* Where HYPERV_SCHEDULER_TEST_JSON_DIR names a directory (the replay of tests/fuzz/replay.c,
 * never libFuzzer's runs), writes the JSON report text to a new file there, for
 * tests/integration/schema.sh to validate against report.schema.json. */
void fuzz_keep_json(const char *text, size_t len);

/* Writes json_string(s) to memory and aborts unless it is a strict JSON string whose text is s
 * with every byte outside a valid UTF-8 sequence replaced by U+FFFD. */
void check_json_string(const char *s);
