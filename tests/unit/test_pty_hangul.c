/* test_pty_hangul.c — Hangul typed at the REPL in a real terminal (a pty,
 * TERM=xterm), under LANG=C.UTF-8, under LANG=ko_KR.UTF-8 and
 * LC_ALL=ko_KR.UTF-8 (a locale a fresh Debian does not have installed)
 * and with LANG unset: readline
 * must edit by character.  A syllable at the start of a line is kept
 * (`한x = 3` is a syntax error, never `x = 3`); Backspace deletes one
 * character, not one byte; Ctrl-B moves over a syllable and text inserted
 * there lands between two; after Ctrl-U the prompt is redrawn alone.
 *
 * What the terminal shows is checked on a small screen model: the pty's
 * output is played onto a grid of cells (UTF-8 text, wcwidth columns, the
 * cursor moves and erasures readline sends to an xterm), and the line the
 * cursor is on must read exactly the prompt and what was typed, with the
 * cursor at its end. */
#define _GNU_SOURCE
#include "tap.h"
#include <pty.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <poll.h>
#include <locale.h>
#include <wchar.h>
#include <sys/wait.h>

static int fd;
static char out[1 << 17];
static size_t olen, played;

/* ---- the screen model ---- */

#define ROWS 400
#define COLS 100
static char cell[ROWS][COLS][8];   /* UTF-8 of the glyph; "" empty; "\1" the right half of a wide one */
static int row, col;

static void clear_cells(int r, int from, int to)
{
    for (int c = from; c < to && c < COLS; c++) cell[r][c][0] = 0;
}

static void newline(void)
{
    if (++row == ROWS) {   /* scroll */
        memmove(cell[0], cell[1], sizeof cell - sizeof cell[0]);
        memset(cell[ROWS - 1], 0, sizeof cell[0]);
        row = ROWS - 1;
    }
}

static void put_glyph(const char *s, int len)
{
    wchar_t wc;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    int w = mbrtowc(&wc, s, (size_t)len, &st) == (size_t)len ? wcwidth(wc) : 1;
    if (w < 0) w = 1;
    if (w == 0) return;   /* a combining mark: not typed here */
    if (col + w > COLS) { col = 0; newline(); }
    memcpy(cell[row][col], s, (size_t)len);
    cell[row][col][len] = 0;
    if (w == 2) strcpy(cell[row][col + 1], "\1");
    col += w;
}

static void play(void)
{
    while (played < olen) {
        const unsigned char *p = (const unsigned char *)out + played;
        size_t left = olen - played;
        if (p[0] == 0x1b) {
            if (left < 2) return;
            if (p[1] != '[') { played += 2; continue; }
            size_t k = 2;
            while (k < left && (p[k] < 0x40 || p[k] > 0x7e)) k++;
            if (k == left) return;   /* the rest has not come yet */
            int n = p[2] >= '0' && p[2] <= '9' ? atoi((const char *)p + 2) : 0;
            int n1 = n ? n : 1;
            switch (p[k]) {
            case 'C': col += n1; if (col >= COLS) col = COLS - 1; break;
            case 'D': col -= n1; if (col < 0) col = 0; break;
            case 'A': row -= n1; if (row < 0) row = 0; break;
            case 'B': row += n1; if (row >= ROWS) row = ROWS - 1; break;
            case 'G': col = n1 - 1; break;
            case 'K':
                if (n == 0) clear_cells(row, col, COLS);
                else if (n == 1) clear_cells(row, 0, col + 1);
                else clear_cells(row, 0, COLS);
                break;
            case 'J': clear_cells(row, col, COLS); for (int r = row + 1; r < ROWS; r++) clear_cells(r, 0, COLS); break;
            case 'P':
                memmove(cell[row][col], cell[row][col + n1 > COLS ? COLS : col + n1], (size_t)(COLS - col - n1 > 0 ? COLS - col - n1 : 0) * 8);
                clear_cells(row, COLS - n1, COLS);
                break;
            case '@':
                if (col + n1 < COLS) memmove(cell[row][col + n1], cell[row][col], (size_t)(COLS - col - n1) * 8);
                clear_cells(row, col, col + n1);
                break;
            default: break;   /* colours, modes */
            }
            played += k + 1;
            continue;
        }
        if (p[0] == '\r') { col = 0; played++; continue; }
        if (p[0] == '\n') { newline(); played++; continue; }
        if (p[0] == '\b') { if (col > 0) col--; played++; continue; }
        if (p[0] < 0x20 || p[0] == 0x7f) { played++; continue; }
        int len = p[0] < 0x80 ? 1 : (p[0] >> 5) == 6 ? 2 : (p[0] >> 4) == 14 ? 3 : 4;
        if ((size_t)len > left) return;
        put_glyph((const char *)p, len);
        played += (size_t)len;
    }
}

/* The cursor's line as text (trailing blanks dropped), and the cursor's
 * column in it. */
static const char *cursor_line(void)
{
    static char line[COLS * 8 + 1];
    size_t k = 0;
    for (int c = 0; c < COLS; c++) {
        const char *g = cell[row][c];
        if (g[0] == 1) continue;
        const char *t = g[0] ? g : " ";
        size_t l = strlen(t);
        memcpy(line + k, t, l);
        k += l;
    }
    while (k > 0 && line[k - 1] == ' ') k--;
    line[k] = 0;
    return line;
}

static int text_cols(const char *s)
{
    wchar_t wc;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    int n = 0;
    size_t len = strlen(s), r;
    for (size_t i = 0; i < len; i += r) {
        r = mbrtowc(&wc, s + i, len - i, &st);
        if (r == 0 || r > len - i) return -1;
        n += wcwidth(wc);
    }
    return n;
}

/* ---- the pty ---- */

static void drain(int ms)
{
    struct pollfd p = { fd, POLLIN, 0 };
    while (poll(&p, 1, ms) > 0) {
        ssize_t n = read(fd, out + olen, sizeof out - 1 - olen);
        if (n <= 0) break;
        olen += (size_t)n;
        out[olen] = 0;
        ms = ms > 100 ? 100 : ms;
    }
    play();
}

static int wait_for(const char *what, size_t from, int ms)
{
    for (int t = 0; t < ms; t += 50) {
        drain(50);
        if (olen > from && strstr(out + from, what)) return 1;
        if (olen + 1 >= sizeof out) return 0;
    }
    return 0;
}

static void type(const char *s) { ssize_t r = write(fd, s, strlen(s)); (void)r; drain(300); }

/* The line the cursor is on reads prompt + text, with the cursor at its end. */
static void screen_is(const char *prompt, const char *text, const char *what, const char *env)
{
    char want[1024];
    snprintf(want, sizeof want, "%s%s", prompt, text);
    size_t wl = strlen(want);
    while (wl > 0 && want[wl - 1] == ' ') want[--wl] = 0;
    const char *got = cursor_line();
    int ok = !strcmp(got, want) && col == text_cols(prompt) + text_cols(text);
    tap_ok(ok, "%s (%s): the line shows '%s', cursor at column %d", what, env, got, col);
    if (!ok) tap_diag("wanted '%s', cursor at column %d", want, text_cols(prompt) + text_cols(text));
}

static void one_env(const char *nnpad, const char *lang, const char *lc_all, const char *env)
{
    memset(cell, 0, sizeof cell);
    row = col = 0;
    olen = played = 0;
    out[0] = 0;
    struct winsize ws = { .ws_row = 24, .ws_col = COLS };
    char state[] = "/tmp/nnpad-pty-hangul-XXXXXX";
    if (!mkdtemp(state)) { tap_skip_one("no temporary folder", "%s", env); return; }
    pid_t pid = forkpty(&fd, NULL, NULL, &ws);
    if (pid < 0) { tap_skip_one("no pty available", "%s", env); return; }
    if (pid == 0) {
        setenv("TERM", "xterm", 1);
        setenv("NNPAD_TEST", "1", 1);   /* no bracketed paste */
        setenv("XDG_STATE_HOME", state, 1);
        setenv("INPUTRC", "/dev/null", 1);
        if (lc_all) setenv("LC_ALL", lc_all, 1);
        else unsetenv("LC_ALL");
        unsetenv("LC_CTYPE");
        unsetenv("LC_MESSAGES");
        unsetenv("LANGUAGE");
        if (lang) setenv("LANG", lang, 1);
        else unsetenv("LANG");
        execl(nnpad, nnpad, (char *)NULL);
        _exit(127);
    }
    int up = wait_for(">>> ", 0, 30000);
    tap_ok(up, "the REPL shows a prompt (%s)", env);
    if (!up) { kill(pid, SIGKILL); waitpid(pid, NULL, 0); return; }
    drain(200);
    /* The prompt the screen must show: the banner's settings ("nnpad 0.1 —
     * fp32 · cpu · eager   (:help") without the blanks around the dots,
     * then " >>> " (taken from the banner, not from the screen: a wrong
     * redraw must not set what is expected of the next one). */
    char prompt[256] = "";
    const char *b = strstr(out, "\xe2\x80\x94 "), *be = b ? strstr(b, "  ") : NULL;
    size_t k = 0;
    for (const char *q = b ? b + 4 : NULL; q && q < be && k < 200; q++) {
        if (*q == ' ' && (!strncmp(q + 1, "\xc2\xb7", 2) || (q >= b + 6 && !strncmp(q - 2, "\xc2\xb7", 2)))) continue;
        prompt[k++] = *q;
    }
    snprintf(prompt + k, sizeof prompt - k, " >>> ");
    screen_is(prompt, "", "the prompt as first drawn", env);

    /* a syllable at the start of the line */
    type("\xed\x95\x9c" "x = 3");                       /* 한x = 3 */
    screen_is(prompt, "\xed\x95\x9cx = 3", "Hangul at the start of a line", env);
    size_t mark = olen;
    type("\r");
    /* the message is in the language LANG asks for (ko_KR: Korean): its
     * quoted parts are the same in both */
    tap_ok(wait_for("'\xed\x95\x9c'", mark, 20000),
           "`\xed\x95\x9cx = 3` is a syntax error at the syllable (%s)", env);
    mark = olen;
    type("x\r");
    tap_ok(wait_for("'x'", mark, 20000), "x was never assigned (%s)", env);

    /* Backspace deletes one character */
    type("y = 17\xed\x95\x9c");
    screen_is(prompt, "y = 17\xed\x95\x9c", "Hangul typed after text", env);
    type("\x7f");
    screen_is(prompt, "y = 17", "Backspace deletes the syllable", env);
    mark = olen;
    type("\r");
    type("y + 1\r");
    tap_ok(wait_for("18", mark, 20000) && !strstr(out + mark, "invalid byte"),
           "after Backspace the line is `y = 17`, no invalid byte left (%s)", env);

    /* in the middle: Ctrl-B over one syllable, insert, Backspace, insert */
    type("s = \"\xea\xb0\x80\xeb\x82\x98\"");             /* s = "가나" */
    type("\x02\x02");                                     /* before 나 */
    type("\xeb\x8b\xa4");                                 /* 다 */
    type("\x7f");
    type("\xeb\x9d\xbc");                                 /* 라 */
    type("\x05");                                         /* to the end */
    screen_is(prompt, "s = \"\xea\xb0\x80\xeb\x9d\xbc\xeb\x82\x98\"", "Hangul inserted between two syllables", env);
    mark = olen;
    type("\r");
    type("print(s)\r");
    tap_ok(wait_for("\xea\xb0\x80\xeb\x9d\xbc\xeb\x82\x98\r\n", mark, 20000), "the string is 가라나 (%s)", env);

    /* Ctrl-U: the prompt alone, then what is typed after it */
    type("z = \"\xed\x95\x9c\xea\xb8\x80\"");            /* z = "한글" */
    type("\x15");
    screen_is(prompt, "", "after Ctrl-U the prompt stands alone", env);
    type("w = 5");
    screen_is(prompt, "w = 5", "text typed after Ctrl-U follows the prompt", env);
    mark = olen;
    type("\r");
    type("w * 3 + 0 * len(\"\")\r");
    type("z\r");
    tap_ok(wait_for("'z'", mark, 20000), "Ctrl-U dropped the line (%s)", env);

    type(":quit\r");
    int status = 0;
    for (int i = 0; i < 50; i++) {
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        usleep(100000);
        if (i == 49) { kill(pid, SIGKILL); waitpid(pid, &status, 0); }
    }
    tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, ":quit ends the REPL (%s)", env);
    close(fd);
    tap_rmdir(state);
}

int main(void)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "C.utf8")) {
        tap_skip("no C.UTF-8 locale here to read the screen with");
        tap_done();
        return 0;
    }
    const char *nnpad = getenv("NNPAD");
    if (!nnpad) nnpad = "./nnpad";
    one_env(nnpad, "C.UTF-8", NULL, "LANG=C.UTF-8");
    one_env(nnpad, "ko_KR.UTF-8", NULL, "LANG=ko_KR.UTF-8, not installed");
    one_env(nnpad, NULL, NULL, "LANG unset");
    one_env(nnpad, NULL, "ko_KR.UTF-8", "LC_ALL=ko_KR.UTF-8, not installed");
    tap_done();
    return 0;
}
