#ifndef CSCREENMATES_TEST_BOOTSTRAP_H
#define CSCREENMATES_TEST_BOOTSTRAP_H

/// Implemented in ScreenMatesTestSupport (ExecutorTakeOver.swift): makes SwiftNIO's event loops
/// the test process's global concurrent executor. Called once, before `main`, by this target.
void screenmates_tests_take_over_executor(void);

#endif
