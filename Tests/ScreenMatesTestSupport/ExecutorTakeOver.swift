import NIOCore
import NIOPosix

/// The test process runs its Swift tasks on SwiftNIO's event loops instead of Dispatch's global
/// queues, installed before `main` (`CScreenMatesTestBootstrap`).
///
/// Why: with Swift 6.3.1 on Linux, the whole-suite process sometimes stops running tasks at all
/// — a continuation resumed, a 30 s `Task.sleep` never woken, every thread idle — and stays so
/// for minutes (one CI run's PostgreSQL contract took 1,780 s instead of 80) or for ever (a
/// whole run once waited after a KWin test). The group-store contract reproduced it in most runs
/// on this machine (the process idle after its first seconds, tasks enqueued but not run, a
/// Dispatch poke through gdb changing nothing); with NIO's executor, 8 runs of 8 passed in 10 s.
/// The shipped binary is not affected by this choice: end-to-end tests run it as it ships.
///
/// Four loops, not one per core: tests block a thread now and then (SQLite's busy waits,
/// synchronous file work), and the loops also carry every PostgreSQL connection's I/O.
@_cdecl("screenmates_tests_take_over_executor")
public func takeOverExecutor() {
    NIOSingletons.groupLoopCountSuggestion = 4
    _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
}
