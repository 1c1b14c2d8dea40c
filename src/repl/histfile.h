/* histfile.h — the history file, in nnpad's own format so that every
 * input comes back exactly (a readline timestamp file reads a comment
 * "#1 first layer" as a timestamp and splits the entry around it).
 *
 * The file starts with the line "#nnpad history 2"; every other line is
 * one entry with '\' written "\\", a newline "\n", a carriage return
 * "\r" and a leading '#' "\#", so no entry line starts with '#'.  A
 * last line without its newline (a write cut short) is ignored.  A file
 * without the first line is readline's format (nnpad before this one). */
#ifndef NN_REPL_HISTFILE_H
#define NN_REPL_HISTFILE_H
#include <stddef.h>

#define REPL_HIST_MAGIC "#nnpad history 2"

/* Append one entry (creating the file, mode 0600): 0 or an errno. */
int repl_hist_append(const char *path, const char *entry);
/* Read every entry, oldest first, into *v (malloc'd strings in a malloc'd
 * array, n of them): 0, an errno (ENOENT: no file yet), or EILSEQ for a
 * file in readline's format. */
int repl_hist_read(const char *path, char ***v, size_t *n);
/* Replace the file with these entries (util/afile.h: the old file stays
 * if the write fails): 0, or -1 with err set. */
int repl_hist_write(const char *path, char *const *v, size_t n, char *err, size_t cap);
void repl_hist_free(char **v, size_t n);

#endif
