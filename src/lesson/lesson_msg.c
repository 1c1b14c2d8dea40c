/* lesson_msg.c — every message of the lesson runner, in English; the
 * Korean is in po/ko.po with every other message (util/i18n.h), written for
 * students, not word by word, with no particle templates (a particle in
 * parentheses after a name): a sentence is rephrased so that no particle
 * follows a name of any ending (tests/po-complete.sh checks). */
#include "lesson/lesson_int.h"
#include "util/i18n.h"

static const char *const msgs[M_COUNT] = {
    [M_STEP] = N_("── %s · step %d of %d ──"),
    [M_DEMO_NEXT] = N_("(:next to go on, :back to go back)"),
    [M_TEXT_NEXT] = N_("(:next to go on)"),
    [M_ASK] = N_("(type your answer; :hint for a hint, :skip to skip, :play to explore first)"),
    [M_ASK_CHOICE] = N_("(answer with a letter; :hint for a hint)"),
    [M_CORRECT] = N_("✓ correct!"),
    [M_WRONG_HINT] = N_("✗ not yet: %s.\n  hint: %s"),
    [M_WRONG_NOHINT] = N_("✗ not yet: %s. Try again, or :skip."),
    [M_OFFER] = N_("✗ not yet: %s. You could type:\n    %s"),
    [M_NO_HINT] = N_("this step has no hint"),
    [M_NO_LESSON] = N_("no lesson is running (:lessons lists them, :lesson N starts one)"),
    [M_SKIPPED] = N_("skipped; the answer, typed for you:"),
    [M_FIRST_STEP] = N_("this is the first step"),
    [M_PLAY] = N_("free play: type anything, nothing is checked; :next brings you back to the lesson"),
    [M_PLAY_BACK] = N_("back to the lesson"),
    [M_NOT_PLAYING] = N_("you are in the lesson already"),
    [M_DONE] = N_("lesson done: %s. :lessons lists the lessons; :lesson N starts the next."),
    [M_QUIT] = N_("lesson paused at step %d of %d; :lesson %s picks it up again"),
    [M_LIST_HEAD] = N_("lessons (%s):"),
    [M_LIST_NONE] = N_("no lessons found (looked in: %s)"),
    [M_LIST_NEW] = N_("new"),
    [M_LIST_DONE] = N_("done"),
    [M_LIST_AT] = N_("at step %d of %d"),
    [M_ASSIGNED] = N_("(%.*s is set; this step checks the value of what you type next: an expression)"),
    [M_WHY_FORBID] = N_("the step asks you to do it without %s"),
    [M_WHY_REQUIRE] = N_("the step asks you to use %s"),
    [M_LIST_HOW] = N_(":lesson N starts one or picks it up where you left it"),
    [M_UNKNOWN] = N_("no lesson '%s' (:lessons lists them)"),
    [M_RESUME] = N_("picking up at step %d (the earlier steps' code ran again, quietly)"),
    [M_RESTART] = N_("you finished this lesson before; starting it again"),
    [M_NEEDS_GPU] = N_("note: this step is meant for a GPU and there is none here (%s); it runs on the CPU"),
    [M_ANSWER_FIRST] = N_("this step waits for your answer: type it, or :hint, or :skip"),
    [M_NOT_A_CHOICE] = N_("answer with one of the letters %s"),
    [M_LANG] = N_("language: English"),
    [M_BAD_LANG] = N_("unknown language '%s'; :lang en or :lang ko"),
    [M_SAVE_FAILED] = N_("note: progress not saved (%s)"),
    [M_NO_DIR] = N_("nowhere"),
    [M_AUTO_TYPES] = N_("auto> %s"),
    [M_AUTO_OK] = N_("lesson %s: every step passed"),
    [M_AUTO_FAIL] = N_("lesson %s: %d step(s) failed"),
    [M_WHY_ERROR] = N_("the input gave an error"),
    [M_WHY_VALUE] = N_("the value is not the one asked for"),
    [M_WHY_SHAPE] = N_("its shape is %s, the step asks for %s"),
    [M_WHY_DTYPE] = N_("its dtype is %s, the step asks for %s"),
    [M_WHY_NOVAR] = N_("there is no variable %s yet"),
    [M_WHY_VARFALSE] = N_("%s is not what the step asks for yet"),
    [M_WHY_EQUIV] = N_("for some values of %s it gives a different result than expected"),
    [M_WHY_FIGURE] = N_("no %s figure was drawn"),
    [M_WHY_CHOICE] = N_("that is not the right choice"),
    [M_WHY_NOVALUE] = N_("the input has no value to check (type an expression)"),
    [M_SKIP_CHOICE] = N_("the answer was %s"),
    [M_REPLAY] = N_("(step %d's code)"),
    [M_LESSON_N] = N_("lesson %d"),
    [M_FIGURE_MISSING] = N_("the demonstration drew no figure"),
    [M_FREE_ERROR] = N_("(not counted: an input that fails is not an answer; look around as much as you like)"),
    [M_FREE_SHAPE] = N_("(not counted: %s)"),
    [M_FREE_VAR] = N_("(not counted: this step asks you to make the variable %s)"),
    [M_FREE_FIGURE] = N_("(not counted: this step asks for a figure, %s)"),
    [M_HINT_SHAPE_CALL] = N_("hint: .shape is not a function: drop the (), as in %.*s.shape"),
    [M_BACK_DONE] = N_("(you answered this step before: :next goes on)"),
    [M_DEMO_NO_ERROR] = N_("the code was meant to give an error (@expect error) and did not"),
    [M_DEMO_FAILED] = N_("the demonstration's code gave an error"),
};

const char *lesson_msg(int lang, lesson_msg_t m)
{
    if (m < 0 || m >= M_COUNT) return "?";
    /* the lesson's language is the messages' (lesson_set_lang sets both) */
    return lang == LESSON_KO ? _(msgs[m]) : msgs[m];
}
