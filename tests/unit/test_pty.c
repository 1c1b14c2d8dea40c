/* test_pty.c — the REPL in a real terminal (a pty): Ctrl-C interrupts a
 * running `while 1 { }` and the session goes on with its variables; Ctrl-C
 * while typing cancels the line; `:limit 1MB` then `zeros(1000000)` is an
 * error, not an exit; Ctrl-C during fit keeps the weights and the history. */
#define _GNU_SOURCE
#include "tap.h"
#include <pty.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <poll.h>
#include <sys/wait.h>
#include <time.h>

static int fd;
static char screen[1 << 16];
static size_t slen;

static void drain(int ms)
{
    struct pollfd p = { fd, POLLIN, 0 };
    while (poll(&p, 1, ms) > 0) {
        ssize_t n = read(fd, screen + slen, sizeof screen - 1 - slen);
        if (n <= 0) break;
        slen += (size_t)n;
        screen[slen] = 0;
        ms = ms > 50 ? 50 : ms;
    }
}

/* Wait until `what` appears after position `from` (or timeout). */
static int wait_for(const char *what, size_t from, int ms)
{
    for (int t = 0; t < ms; t += 50) {
        drain(50);
        if (slen > from && strstr(screen + from, what)) return 1;
    }
    return 0;
}

static void type(const char *s) { ssize_t r = write(fd, s, strlen(s)); (void)r; }

int main(void)
{
    const char *nnpad = getenv("NNPAD");
    if (!nnpad) nnpad = "./nnpad";
    pid_t pid = forkpty(&fd, NULL, NULL, NULL);
    if (pid < 0) { tap_skip("no pty available"); return 0; }
    if (pid == 0) {
        setenv("TERM", "dumb", 1);
        execl(nnpad, nnpad, (char *)NULL);
        _exit(127);
    }
    tap_ok(wait_for(">>> ", 0, 30000), "the REPL shows a prompt in a terminal");
    size_t mark = slen;
    type("x = 41\n");
    type("while 1 { }\n");
    drain(300);
    mark = slen;
    type("\x03");
    tap_ok(wait_for("interrupted", mark, 30000), "Ctrl-C interrupts `while 1 { }` with an error");
    mark = slen;
    type("x + 1\n");
    tap_ok(wait_for("42", mark, 30000), "the session goes on and keeps x");
    mark = slen;
    type("y = 12345");
    drain(200);
    type("\x03");
    drain(200);
    type("y\n");
    tap_ok(wait_for("not defined", mark, 30000), "Ctrl-C while typing cancels the line (y was never assigned)");
    /* Ctrl-C during fit stops between steps: the weights reached and the
     * history so far are kept, and so is the session */
    mark = slen;
    type("seed(0)\n");
    type("x, y = moons(1000, shuffle=0)\n");
    type("m = sequential(dense(2, 16, activation=\"tanh\"), dense(16, 1, activation=\"sigmoid\"))\n");
    type("w0 = m.layers[0].W + 0\n");
    type("h = fit(m, x, y, loss=\"binary_crossentropy\", epochs=1000000, batch_size=1, verbose=0)\n");
    drain(800);
    mark = slen;
    type("\x03");
    tap_ok(wait_for("stopped by Ctrl-C", mark, 60000), "Ctrl-C stops fit between steps and says so");
    mark = slen;
    type("h\n");
    tap_ok(wait_for("(stopped by Ctrl-C)", mark, 60000), "fit still returns its history after Ctrl-C");
    mark = slen;
    type("if sum(m.layers[0].W != w0) > 0 and x[0, 0] == 1 { print(\"weights-kept\") }\n");
    tap_ok(wait_for("weights-kept", mark, 30000), "after Ctrl-C in fit the model keeps the weights it reached and x is there");
    mark = slen;
    type(":limit 1MB\n");
    drain(200);
    type("z = zeros(1000000)\n");
    tap_ok(wait_for("memory limit", mark, 30000), "`:limit 1MB` then `zeros(1000000)` is a memory-limit error");
    mark = slen;
    type("x * 2\n");
    tap_ok(wait_for("82", mark, 30000), "the session still works after the memory error");
    type(":quit\n");
    int status = 0;
    for (int i = 0; i < 50; i++) {
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        usleep(100000);
        if (i == 49) { kill(pid, SIGKILL); waitpid(pid, &status, 0); }
    }
    tap_ok(WIFEXITED(status), ":quit ends the REPL normally");
    tap_done();
    return 0;
}
