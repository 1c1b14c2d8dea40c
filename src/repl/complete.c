/* complete.c — what Tab completes: commands, their words, builtins, the
 * session's variables, constants and keywords.  One implementation, two
 * callers: the terminal's readline (repl_tty.c) and the web page's console
 * (repl_web.c, nnpad_complete). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <ctype.h>
#include <string.h>

#include "repl/repl_int.h"
#include "lang/session.h"

/* Characters that end a word for completion: blanks, operators, brackets.
 * ':' is one so that slices (x[1:n) complete; a command's ':' is recognised
 * by position.  '.' is not, so "model.W" reaches the session whole. */
#define WORD_BREAKS " \t\n\"'`@$><=;|&{}()[],+-*/%^!~:"

/* The command on this line ("precision" in ":precision f"), or NULL when
 * the line is not a command; *cmd_start: where its ':' is (or would be). */
static const repl_cmd_t *line_command(const char *b, int *cmd_start)
{
    int i = 0;
    while (b[i] && isspace((unsigned char)b[i]))
        i++;
    *cmd_start = i;
    if (b[i] != ':')
        return NULL;
    int j = i + 1;
    while (isalnum((unsigned char)b[j]) || b[j] == '_' || b[j] == '-')
        j++;
    return repl_cmd_find(b + i + 1, (size_t)(j - i - 1));
}

const char *repl_complete_breaks(const char *line)
{
    int cs;
    const repl_cmd_t *c = line_command(line, &cs);
    /* file names may hold '-', '+' and the like: break only at blanks there */
    return c && c->arg == REPL_ARG_FILE ? " \t" : WORD_BREAKS;
}

int repl_complete_start(const char *line, int cursor)
{
    const char *breaks = repl_complete_breaks(line);
    int i = cursor;
    while (i > 0 && !strchr(breaks, line[i - 1]))
        i--;
    return i;
}

struct filter { const char *text; size_t n; void (*cb)(const char *, void *); void *ctx; };

static void add(struct filter *f, const char *s)
{
    if (strncmp(s, f->text, f->n) == 0)
        f->cb(s, f->ctx);
}

static void session_cb(const char *name, void *ctx) { add(ctx, name); }

static void commands(struct filter *f)
{
    for (const repl_cmd_t *c = repl_cmds; c->name; c++) {
        add(f, c->name);
        if (c->aliases)
            for (const char *const *a = c->aliases; *a; a++)
                if (strlen(*a) > 1)   /* ":q" would only get in the way */
                    add(f, *a);
    }
}

repl_complete_t repl_complete(repl_t *r, const char *line, int start, const char *text,
                              void (*cb)(const char *cand, void *ctx), void *ctx)
{
    struct filter f = { text, strlen(text), cb, ctx };
    int cs;
    const repl_cmd_t *c = line_command(line, &cs);
    if (line[cs] == ':' && start == cs + 1) {
        commands(&f);                               /* ":pre<TAB>" */
        return REPL_COMPLETE_WORD;
    }
    if (line[cs] == ':') {
        if (!c)
            return REPL_COMPLETE_NONE;
        switch (c->arg) {
        case REPL_ARG_WORDS:
            for (const char *const *w = c->words; *w; w++)
                add(&f, *w);
            return REPL_COMPLETE_WORD;
        case REPL_ARG_FILE:
            return REPL_COMPLETE_FILE;
        case REPL_ARG_HELP:
            if (start > 0 && line[start - 1] == ':') {
                commands(&f);                       /* ":help :pre<TAB>" */
                return REPL_COMPLETE_WORD;
            }
            /* builtin names */
            __attribute__((fallthrough));
        case REPL_ARG_EXPR:
            session_complete(r->s, text, session_cb, &f);
            return REPL_COMPLETE_NAME;
        default:
            return REPL_COMPLETE_NONE;
        }
    }
    /* names: no space after, since "(" or "." usually follows */
    session_complete(r->s, text, session_cb, &f);
    return REPL_COMPLETE_NAME;
}
