import CNcursesw
import Glibc
import ScreenMatesCore
import ScreenMatesUI
import ScreenMatesWatch

/// Why the dashboard cannot use this terminal, with what to do about it.
public enum TerminalError: ExplainedError, Hashable, Sendable {
    case notATerminal
    case noTerminalType
    case unknownTerminal(String)
    /// The terminal type cannot move the cursor (`dumb`, an editor's shell buffer).
    case cannotAddressCursor(String)

    public var message: String {
        switch self {
        case .notATerminal:
            return "The dashboard needs a terminal, but standard input or output is not one. "
                + "Run it in a terminal, or use `screenmates status` (add --json for scripts)."
        case .noTerminalType:
            return "The TERM environment variable is not set, so the terminal type is unknown. "
                + "Set it (for example TERM=xterm-256color), or use `screenmates status`."
        case .unknownTerminal(let name):
            return "The terminal type \"\(name)\" (from TERM) is not in the terminfo database. "
                + "Install its terminfo entry (Debian: ncurses-term) or set TERM=xterm-256color."
        case .cannotAddressCursor(let name):
            return "The terminal type \"\(name)\" (from TERM) cannot move the cursor, so the dashboard cannot draw. "
                + "Run it in a terminal emulator (TERM=xterm-256color), or use `screenmates status` (add --json for scripts)."
        }
    }
}

/// The ncurses screen: the only place that talks to ncurses. It writes frames (only the cells
/// that changed), reads keys, waits for input or a wake-up without spinning, handles resize,
/// Ctrl-Z and the signals that end the program, and always puts the terminal back.
///
/// Not thread-safe, like ncurses itself: one owner, on the main thread.
public final class Terminal {
    /// How to draw: the colour theme and whether to use colour and Unicode at all. Colour is
    /// used only where the terminal has it, and Unicode only where the locale is UTF-8, whatever
    /// these say.
    public struct Options: Sendable {
        public var theme: Theme
        public var useColor: Bool
        /// Use ASCII even where the locale is UTF-8.
        public var forceASCII: Bool

        public init(theme: Theme, useColor: Bool, forceASCII: Bool = false) {
            self.theme = theme
            self.useColor = useColor
            self.forceASCII = forceASCII
        }
    }

    /// How a signal asks the program to end, with the conventional exit status.
    public enum Ending: Sendable, Equatable {
        case interrupted
        case terminated
        case hungUp

        public var exitStatus: Int32 {
            switch self {
            case .interrupted: 130
            case .terminated: 143
            case .hungUp: 129
            }
        }
    }

    /// What happened while waiting.
    public struct Events {
        public var keys: [KeyInput] = []
        public var ending: Ending?
        /// The screen changed size or came back from a suspend: redraw everything.
        public var needsFullRedraw = false
        /// The program was suspended and resumed (time may have passed).
        public var resumed = false
    }

    public let glyphs: Glyphs
    public private(set) var width: Int
    public private(set) var height: Int
    public let wake: WakePipe

    private let screen: OpaquePointer
    private let input: UnsafeMutablePointer<FILE>
    private let output: UnsafeMutablePointer<FILE>
    private var palette: ColorPalette
    private let useColor: Bool
    private var displayed = DisplayedFrame()
    private var running = true

    /// Checks that there is a usable terminal before anything else starts.
    public static func preflight() throws(TerminalError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        guard let term = getenv("TERM").map({ String(cString: $0) }), !term.isEmpty else { throw .noTerminalType }
        var status: Int32 = 0
        if setupterm(term, STDOUT_FILENO, &status) != OK { throw .unknownTerminal(term) }
        // Without cursor addressing (`cup`) ncurses would draw nothing readable.
        let addressable = sm_tigetstr("cup") != nil
        sm_release_setupterm()
        guard addressable else { throw .cannotAddressCursor(term) }
    }

    /// Whether the locale's character set is UTF-8 (otherwise the ASCII glyphs are used).
    public static func localeIsUTF8() -> Bool {
        setlocale(LC_ALL, "")
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased().replacingOccurrences(of: "-", with: "")
        return name == "UTF8"
    }

    public init(options: Options) throws(TerminalError) {
        try Self.preflight()
        let utf8 = Self.localeIsUTF8()
        glyphs = utf8 && !options.forceASCII ? .unicode : .ascii
        wake = WakePipe()
        TerminalSignals.install(wakeFD: wake.writeFD)
        TerminalRestorer.captureOriginalSettings()
        TerminalRestorer.installCrashHandlers()
        guard let output = fdopen(dup(STDOUT_FILENO), "w"), let input = fdopen(dup(STDIN_FILENO), "r") else {
            TerminalSignals.uninstall()
            throw .notATerminal
        }
        guard let screen = newterm(nil, output, input) else {
            fclose(output)
            fclose(input)
            TerminalSignals.uninstall()
            throw .unknownTerminal(getenv("TERM").map { String(cString: $0) } ?? "")
        }
        self.screen = screen
        self.input = input
        self.output = output
        set_term(screen)
        cbreak()
        noecho()
        nonl()
        intrflush(sm_stdscr(), false)
        keypad(sm_stdscr(), true)
        nodelay(sm_stdscr(), true)
        leaveok(sm_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        palette = ColorPalette(theme: options.theme, useColor: options.useColor)
        useColor = options.useColor
        width = Int(sm_cols())
        height = Int(sm_lines())
        TerminalRestorer.captureRestoreSequence()
        TerminalRestorer.setActive(true)
    }

    deinit { stop() }

    /// Writes the cells of `frame` that differ from the last frame written; nothing at all when
    /// none do. Returns the number of runs written.
    @discardableResult
    public func draw(_ frame: Frame) -> Int {
        guard running else { return 0 }
        let runs = displayed.runs(toShow: frame)
        guard !runs.isEmpty else { return 0 }
        let window = sm_stdscr()
        for run in runs {
            let (attrs, pair) = palette.resolve(run.style)
            var wide = run.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
            let count = Int32(wide.count)
            wide.append(0)
            _ = sm_put_wide(Int32(run.y), Int32(run.x), wide, count, attrs, pair)
        }
        wnoutrefresh(window)
        doupdate()
        return runs.count
    }

    /// Rings the terminal bell (a terminal without one flashes instead).
    public func bell() {
        guard running else { return }
        beep()
    }

    /// Writes an escape sequence that draws nothing (a desktop notification, OSC 9 / OSC 777)
    /// through the same stream as the frames, after them, so it never lands inside one.
    public func writeSequence(_ sequence: String) {
        guard running else { return }
        fputs(sequence, output)
        fflush(output)
    }

    /// Forgets what the screen shows, so the next `draw` clears the terminal and writes every
    /// cell: for `r` / Ctrl-L, after another program wrote over the dashboard (drawing only the
    /// changed cells would leave its output on screen).
    public func invalidate() {
        guard running else { return }
        clearok(sm_curscr(), true)
        displayed.forget()
    }

    /// Draws with `theme` from the next frame on, every cell written again (a theme chosen on
    /// the settings screen applies at once).
    public func setTheme(_ theme: Theme) {
        guard running else { return }
        palette = ColorPalette(theme: theme, useColor: useColor)
        invalidate()
    }

    /// Waits until a key, a wake-up, a signal or the timeout (`nil`: no timeout), then returns
    /// what happened. Blocks in `poll`, so an idle dashboard uses no CPU.
    /// `extraDescriptors` are other descriptors worth waking for (a file watcher); the caller
    /// reads them itself.
    public func waitForEvents(timeout seconds: Double?, extraDescriptors: [Int32] = []) -> Events {
        var fds = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
        ]
        fds += extraDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let milliseconds = seconds.map { Int32(min(max(0, $0) * 1000, 3_600_000).rounded(.up)) } ?? -1
        _ = poll(&fds, nfds_t(fds.count), milliseconds)
        wake.drain()
        var events = Events()
        handleSignals(into: &events)
        if events.ending == nil { events.keys = readKeys(into: &events) }
        return events
    }

    /// Leaves curses mode, restores the terminal and puts the default signal actions back, so
    /// that Ctrl-C or SIGTERM from now on ends the program as usual. A signal that arrived
    /// while the screen was up and was not yet taken stays in `TerminalSignals.take()`. Safe to
    /// call more than once.
    public func stop() {
        guard running else { return }
        running = false
        TerminalRestorer.setActive(false)
        endwin()
        delscreen(screen)
        fclose(input)
        fclose(output)
        // Only now: a Ctrl-C before this point must not kill the program with the screen still
        // in curses mode. From now on no handler writes to the wake pipe, which may close next.
        TerminalSignals.uninstall()
    }

    private func readKeys(into events: inout Events) -> [KeyInput] {
        var keys: [KeyInput] = []
        var value: wint_t = 0
        while true {
            let status = wget_wch(sm_stdscr(), &value)
            if status == ERR { break }
            guard let key = KeyDecoder.decode(UInt32(value), isFunctionKey: status == sm_key_code_yes()) else {
                continue
            }
            if key == .resize {
                updateSize()
                events.needsFullRedraw = true
            }
            keys.append(key)
        }
        return keys
    }

    private func handleSignals(into events: inout Events) {
        let pending = TerminalSignals.take()
        if pending.contains(.interrupt) { events.ending = .interrupted }
        if pending.contains(.terminate) { events.ending = .terminated }
        if pending.contains(.hangUp) { events.ending = .hungUp }
        if events.ending != nil { return }
        if pending.contains(.suspend) {
            suspend()
            events.resumed = true
            events.needsFullRedraw = true
        }
        if pending.contains(.resumed) {
            events.resumed = true
            events.needsFullRedraw = true
        }
        if pending.contains(.resize) || events.needsFullRedraw {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 {
                resizeterm(Int32(size.ws_row), Int32(size.ws_col))
            }
            updateSize()
            events.needsFullRedraw = true
            events.keys.append(.resize)
        }
        if events.needsFullRedraw { invalidate() }
    }

    /// Ctrl-Z: give the terminal back to the shell, stop, and take it again on `fg`.
    private func suspend() {
        TerminalRestorer.setActive(false)
        endwin()
        TerminalSignals.stopProcess()
        reset_prog_mode()
        TerminalRestorer.setActive(true)
        displayed.forget()
    }

    private func updateSize() {
        width = Int(sm_cols())
        height = Int(sm_lines())
    }
}
