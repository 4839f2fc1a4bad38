#include "CScreenMatesTestBootstrap.h"

// Runs when the test process loads, before any Swift task exists: the only moment a global
// executor may be installed (see ExecutorTakeOver.swift for why the tests install one).
__attribute__((constructor)) static void screenmates_tests_bootstrap(void) {
    screenmates_tests_take_over_executor();
}
