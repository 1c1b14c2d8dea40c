/* text.h — small text helpers shared by the REPL and the evaluator. */
#ifndef NN_TEXT_H
#define NN_TEXT_H
#include <stddef.h>

/* Levenshtein distance between a[0..la) and b[0..lb), for "did you mean";
 * a is compared case-insensitively (b is a known name, lower case).
 * Names longer than 63 bytes are compared on their first 63. */
int text_edit_distance(const char *a, size_t la, const char *b, size_t lb);
/* Which of names[0..n) the REPL command text[0..len) is (blanks, ':', the
 * name, then the end, a blank or a newline), or -1. */
int text_command_of(const char *text, size_t len, const char *const *names, int n);
/* Percent-encode s[0..n) as JavaScript's encodeURIComponent does a UTF-8
 * string: A-Z a-z 0-9 and - _ . ! ~ * ' ( ) kept, every other byte %XX
 * (upper-case hex).  Writes at most cap bytes of it to out (NUL-terminated
 * when cap > 0) and returns its whole length, as snprintf does. */
size_t text_percent_encode(const char *s, size_t n, char *out, size_t cap);

#endif
