import Foundation
import ScreenMatesMonitor

/// `--source x11`: the focused window's application on an X11 desktop, read through libX11 —
/// the root window's `_NET_ACTIVE_WINDOW`, that window's `WM_CLASS` (its class: `firefox`,
/// `XTerm`) and title (`_NET_WM_NAME`, only to match a site) — and the idle time from the
/// XScreenSaver extension (libXss), which also says when the screen saver is on.
///
/// One connection is kept open; each sample is a few round trips to the X server, no process
/// spawned. Without the extension the probe follows the focus only (and says so). An X server
/// that goes away ends the source (`sourceEnded`), where libX11 lets a program live on.
public struct X11Probe: FocusProbe {
    public let sourceName = "x11"
    public let following: String
    private let connection: Connection
    private let name: String
    /// The window the last sample found focused.
    private var focused: UInt?

    /// Whether the XScreenSaver extension answers: without it, focused time counts as active.
    public var knowsIdle: Bool { connection.info != nil }

    /// Connects to `display` (default `$DISPLAY`).
    public init(display: String? = nil) throws(FocusProbeError) {
        let library = try X11Library.load()
        let name = display ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        guard !name.isEmpty else {
            throw FocusProbeError("DISPLAY is not set: there is no X11 display to follow.")
        }
        guard let handle = name.withCString({ library.openDisplay($0) }) else {
            throw FocusProbeError("Cannot open the X11 display \(name) (is the X server running, and may you use it?).")
        }
        connection = Connection(library: library, display: handle)
        self.name = name
        following =
            "the focused window on X11 display \(name)"
            + (connection.info == nil ? " (no XScreenSaver extension: focused time counts as active)" : "")
    }

    public mutating func sample(wallClock: Date) throws(FocusProbeError) -> FocusSample {
        let idle = connection.idle()
        let window = connection.activeWindow()
        focused = window
        if connection.serverGone.pointee != 0 {
            throw FocusProbeError("The X server of display \(name) went away.", sourceEnded: true)
        }
        guard let window else {
            return FocusSample(app: nil, idleSeconds: idle?.seconds, screenOff: idle?.screenOff ?? false)
        }
        let classes = connection.strings(window, connection.wmClass, type: connection.string)
        let title =
            connection.strings(window, connection.netWMName, type: connection.utf8).first
            ?? connection.strings(window, connection.wmName, type: 0).first ?? ""
        return FocusSample(
            app: classes.count > 1 ? classes[1] : classes.first, title: title, idleSeconds: idle?.seconds,
            screenOff: idle?.screenOff ?? false)
    }

    /// Minimizes the focused window (the window manager iconifies it, ICCCM's `WM_CHANGE_STATE`)
    /// or asks the window manager to close it (EWMH's `_NET_CLOSE_WINDOW`: the application gets
    /// `WM_DELETE_WINDOW`, as from its close button).
    public mutating func act(_ act: WindowAct) throws(FocusProbeError) -> Bool {
        guard let window = focused else { return true }
        switch act {
        case .minimize:
            _ = connection.library.iconifyWindow(
                connection.display, window, connection.library.defaultScreen(connection.display))
        case .close:
            connection.closeRequest(window)
        }
        _ = connection.library.flush(connection.display)
        if connection.serverGone.pointee != 0 {
            throw FocusProbeError("The X server of display \(name) went away.", sourceEnded: true)
        }
        return true
    }

    /// The open display; closed when the probe goes away.
    final class Connection {
        let library: X11Library
        let display: OpaquePointer
        let root: UInt
        let activeAtom: UInt
        let wmClass: UInt
        let netWMName: UInt
        let wmName: UInt
        let string: UInt
        let utf8: UInt
        let info: UnsafeMutableRawPointer?
        /// Set to 1 by the exit handler when the connection to the server is lost.
        let serverGone = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

        init(library: X11Library, display: OpaquePointer) {
            self.library = library
            self.display = display
            serverGone.initialize(to: 0)
            library.setIOErrorExitHandler?(
                display, { _, flag in flag?.assumingMemoryBound(to: Int32.self).pointee = 1 }, serverGone)
            root = library.defaultRootWindow(display)
            func atom(_ name: String) -> UInt { name.withCString { library.internAtom(display, $0, 0) } }
            activeAtom = atom("_NET_ACTIVE_WINDOW")
            wmClass = atom("WM_CLASS")
            netWMName = atom("_NET_WM_NAME")
            wmName = atom("WM_NAME")
            string = atom("STRING")
            utf8 = atom("UTF8_STRING")
            var event: Int32 = 0
            var error: Int32 = 0
            if let saver = library.screenSaver, saver.query(display, &event, &error) != 0 {
                info = saver.alloc()
            } else {
                info = nil
            }
        }

        deinit {
            if let info { _ = library.free(info) }
            _ = library.closeDisplay(display)
            serverGone.deallocate()
        }

        /// The focused client window, as the window manager publishes it.
        func activeWindow() -> UInt? {
            // 33 is XA_WINDOW.
            guard let bytes = property(root, activeAtom, type: 33), bytes.count >= 8 else {
                return nil
            }
            let window = bytes.withUnsafeBytes { $0.load(as: UInt.self) }
            return window == 0 ? nil : window
        }

        /// Sends the root window a `_NET_CLOSE_WINDOW` client message for `window`, as a pager
        /// does. The event is Xlib's 192-byte `XEvent` union as an `XClientMessageEvent`: type,
        /// serial, send_event, display, window, message_type, format, then five longs.
        func closeRequest(_ window: UInt) {
            let closeAtom = "_NET_CLOSE_WINDOW".withCString { library.internAtom(display, $0, 0) }
            let event = UnsafeMutableRawPointer.allocate(byteCount: 192, alignment: 8)
            defer { event.deallocate() }
            event.initializeMemory(as: UInt8.self, repeating: 0, count: 192)
            event.storeBytes(of: Int32(33), toByteOffset: 0, as: Int32.self)  // ClientMessage
            event.storeBytes(of: Int32(1), toByteOffset: 16, as: Int32.self)  // send_event
            event.storeBytes(
                of: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display))), toByteOffset: 24, as: UInt.self)
            event.storeBytes(of: window, toByteOffset: 32, as: UInt.self)
            event.storeBytes(of: closeAtom, toByteOffset: 40, as: UInt.self)
            event.storeBytes(of: Int32(32), toByteOffset: 48, as: Int32.self)  // format
            event.storeBytes(of: 0, toByteOffset: 56, as: Int.self)  // CurrentTime
            event.storeBytes(of: 2, toByteOffset: 64, as: Int.self)  // source: a pager
            // SubstructureRedirectMask | SubstructureNotifyMask: the window manager's to handle.
            _ = library.sendEvent(display, root, 0, (1 << 20) | (1 << 19), event)
        }

        /// A text property's zero-separated strings.
        func strings(_ window: UInt, _ atom: UInt, type: UInt) -> [String] {
            guard let bytes = property(window, atom, type: type) else { return [] }
            return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }

        /// Seconds since the last input, and whether the screen saver is on.
        func idle() -> (seconds: Double, screenOff: Bool)? {
            guard let saver = library.screenSaver, let info, saver.info(display, root, info) != 0 else { return nil }
            // XScreenSaverInfo: Window window; int state; int kind; unsigned long til_or_since,
            // idle, eventMask. state 1 is ScreenSaverOn.
            let state = info.load(fromByteOffset: 8, as: Int32.self)
            let milliseconds = info.load(fromByteOffset: 24, as: UInt.self)
            return (Double(milliseconds) / 1000, state == 1)
        }

        /// The property's bytes (format-32 items are C longs), or `nil` (none, or the window
        /// is gone: the error handler swallowed `BadWindow`).
        private func property(_ window: UInt, _ atom: UInt, type: UInt) -> [UInt8]? {
            var actualType: UInt = 0
            var format: Int32 = 0
            var count: UInt = 0
            var after: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            let status = library.getWindowProperty(
                display, window, atom, 0, 1024, 0, type, &actualType, &format, &count, &after, &data)
            defer { if let data { _ = library.free(data) } }
            guard status == 0, let data, count > 0 else { return nil }
            let size = format == 32 ? MemoryLayout<UInt>.size : Int(format / 8)
            return Array(UnsafeBufferPointer(start: data, count: Int(count) * size))
        }
    }
}
