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

#endif
