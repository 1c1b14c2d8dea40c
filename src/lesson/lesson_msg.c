/* lesson_msg.c — every message of the lesson runner, in English and Korean
 * (printf formats: both languages take the same arguments in the same
 * order).  The Korean is written for students, not translated word by
 * word; "이(가)" style particles stand where a name of any ending follows. */
#include "lesson/lesson_int.h"

static const char *const msgs[M_COUNT][2] = {
    [M_STEP] = { "── %s · step %d of %d ──", "── %s · %d/%d단계 ──" },
    [M_DEMO_NEXT] = { "(:next to go on, :back to go back)", "(:next 다음 단계, :back 이전 단계)" },
    [M_TEXT_NEXT] = { "(:next to go on)", "(:next 로 다음 단계로 갑니다)" },
    [M_ASK] = { "(type your answer; :hint for a hint, :skip to skip, :play to explore first)",
                "(답을 입력하세요. :hint 힌트, :skip 건너뛰기, :play 먼저 자유롭게 해 보기)" },
    [M_ASK_CHOICE] = { "(answer with a letter; :hint for a hint)", "(글자 하나로 답하세요. :hint 힌트)" },
    [M_CORRECT] = { "✓ correct!", "✓ 맞았습니다!" },
    [M_WRONG_HINT] = { "✗ not yet: %s.\n  hint: %s", "✗ 아직 아닙니다: %s.\n  힌트: %s" },
    [M_WRONG_NOHINT] = { "✗ not yet: %s. Try again, or :skip.", "✗ 아직 아닙니다: %s. 다시 해 보거나 :skip 하세요." },
    [M_OFFER] = { "✗ not yet: %s. You could type:\n    %s", "✗ 아직 아닙니다: %s. 이렇게 입력해 보세요:\n    %s" },
    [M_NO_HINT] = { "this step has no hint", "이 단계에는 힌트가 없습니다" },
    [M_NO_LESSON] = { "no lesson is running (:lessons lists them, :lesson N starts one)",
                      "진행 중인 레슨이 없습니다 (:lessons 로 목록을 보고 :lesson N 으로 시작하세요)" },
    [M_SKIPPED] = { "skipped; the answer, typed for you:", "건너뜁니다. 답을 대신 입력했습니다:" },
    [M_FIRST_STEP] = { "this is the first step", "첫 단계입니다" },
    [M_PLAY] = { "free play: type anything, nothing is checked; :next brings you back to the lesson",
                 "자유 탐색: 무엇이든 입력해 보세요. 채점하지 않습니다. :next 를 입력하면 레슨으로 돌아갑니다" },
    [M_PLAY_BACK] = { "back to the lesson", "레슨으로 돌아왔습니다" },
    [M_NOT_PLAYING] = { "you are in the lesson already", "이미 레슨 중입니다" },
    [M_DONE] = { "lesson done: %s. :lessons lists the lessons; :lesson N starts the next.", "레슨을 마쳤습니다: %s. 다음 레슨은 :lessons 에서 고르세요." },
    [M_QUIT] = { "lesson paused at step %d of %d; :lesson %s picks it up again",
                 "%d/%d단계에서 레슨을 멈췄습니다. :lesson %s 로 이어서 할 수 있습니다" },
    [M_LIST_HEAD] = { "lessons (%s):", "레슨 목록 (%s):" },
    [M_LIST_NONE] = { "no lessons found (looked in: %s)", "레슨을 찾지 못했습니다 (찾아본 곳: %s)" },
    [M_LIST_NEW] = { "new", "새 레슨" },
    [M_LIST_DONE] = { "done", "완료" },
    [M_LIST_AT] = { "at step %d of %d", "%d/%d단계" },
    [M_WHY_FORBID] = { "the step asks you to do it without %s", "이 단계는 %s 없이 풀어야 합니다" },
    [M_WHY_REQUIRE] = { "the step asks you to use %s", "이 단계는 %s을(를) 써서 풀어야 합니다" },
    [M_LIST_HOW] = { ":lesson N starts one or picks it up where you left it", ":lesson N 으로 시작하거나, 멈춘 곳부터 이어서 합니다" },
    [M_UNKNOWN] = { "no lesson '%s' (:lessons lists them)", "'%s' 레슨이 없습니다 (:lessons 로 목록을 보세요)" },
    [M_RESUME] = { "picking up at step %d (the earlier steps' code ran again, quietly)",
                   "%d단계부터 이어서 합니다 (앞 단계의 코드는 조용히 다시 실행했습니다)" },
    [M_RESTART] = { "you finished this lesson before; starting it again", "이미 마친 레슨입니다. 처음부터 다시 시작합니다" },
    [M_NEEDS_GPU] = { "note: this step is meant for a GPU and there is none here (%s); it runs on the CPU",
                      "참고: 이 단계는 GPU용인데 이 컴퓨터에는 GPU가 없습니다 (%s). CPU에서 실행합니다" },
    [M_ANSWER_FIRST] = { "this step waits for your answer: type it, or :hint, or :skip",
                         "이 단계는 답을 기다리고 있습니다. 답을 입력하거나 :hint, :skip 을 쓰세요" },
    [M_NOT_A_CHOICE] = { "answer with one of the letters %s", "다음 글자 중 하나로 답하세요: %s" },
    [M_LANG] = { "language: English", "언어: 한국어" },
    [M_BAD_LANG] = { "unknown language '%s'; :lang en or :lang ko", "모르는 언어입니다: '%s'. :lang en 또는 :lang ko" },
    [M_SAVE_FAILED] = { "note: progress not saved (%s)", "참고: 진행 상황을 저장하지 못했습니다 (%s)" },
    [M_NO_DIR] = { "nowhere", "없음" },
    [M_AUTO_TYPES] = { "auto> %s", "자동> %s" },
    [M_AUTO_OK] = { "lesson %s: every step passed", "레슨 %s: 모든 단계를 통과했습니다" },
    [M_AUTO_FAIL] = { "lesson %s: %d step(s) failed", "레슨 %s: %d개 단계가 실패했습니다" },
    [M_WHY_ERROR] = { "the input gave an error", "입력에서 오류가 났습니다" },
    [M_WHY_VALUE] = { "the value is not the one asked for", "기대한 값이 아닙니다" },
    [M_WHY_SHAPE] = { "its shape is %s, the step asks for %s", "모양이 %s입니다. 이 단계는 %s 모양을 원합니다" },
    [M_WHY_DTYPE] = { "its dtype is %s, the step asks for %s", "dtype이 %s입니다. 이 단계는 %s를 원합니다" },
    [M_WHY_NOVAR] = { "there is no variable %s yet", "아직 변수 %s이(가) 없습니다" },
    [M_WHY_VARFALSE] = { "%s is not what the step asks for yet", "%s의 값이 아직 맞지 않습니다" },
    [M_WHY_EQUIV] = { "for some values of %s it gives a different result than expected",
                      "%s에 어떤 값을 넣으면 기대한 결과와 다르게 나옵니다" },
    [M_WHY_FIGURE] = { "no %s figure was drawn", "%s 그림이 그려지지 않았습니다" },
    [M_WHY_CHOICE] = { "that is not the right choice", "정답이 아닙니다" },
    [M_WHY_NOVALUE] = { "the input has no value to check (type an expression)", "확인할 값이 없습니다 (식을 입력하세요)" },
    [M_SKIP_CHOICE] = { "the answer was %s", "정답은 %s입니다" },
    [M_REPLAY] = { "(step %d's code)", "(%d단계의 코드)" },
    [M_LESSON_N] = { "lesson %d", "레슨 %d" },
    [M_FIGURE_MISSING] = { "the demonstration drew no figure", "시연 코드가 그림을 그리지 않았습니다" },
    [M_DEMO_NO_ERROR] = { "the code was meant to give an error (@expect error) and did not",
                          "이 코드는 오류가 나야 하는데 (@expect error) 나지 않았습니다" },
    [M_DEMO_FAILED] = { "the demonstration's code gave an error", "시연 코드에서 오류가 났습니다" },
};

const char *lesson_msg(int lang, lesson_msg_t m)
{
    if (m < 0 || m >= M_COUNT) return "?";
    const char *s = msgs[m][lang == LESSON_KO ? 1 : 0];
    return s ? s : msgs[m][0];
}
