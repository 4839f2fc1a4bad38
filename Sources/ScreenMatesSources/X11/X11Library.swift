import Glibc

/// libX11 and libXss (Debian's `libx11-6`, `libxss1`), loaded when an X11 source starts rather
/// than linked, so the same binary runs on a machine without any X library.
///
/// Only the calls the X11 source makes are looked up. A protocol error (a window closed between
/// two reads: `BadWindow`) would by Xlib's default end the process; the handler installed here
/// only counts it, and the read that caused it comes back empty. So would the X server going
/// away ("fatal IO error"): where libX11 has `XSetIOErrorExitHandler` (1.7 and later), the
/// connection's own handler marks it dead instead, and the probe says the source ended.
final class X11Library {
    typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    typealias CloseDisplay = @convention(c) (OpaquePointer?) -> Int32
    typealias DefaultRootWindow = @convention(c) (OpaquePointer?) -> UInt
    typealias InternAtom = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, Int32) -> UInt
    typealias GetWindowProperty =
        @convention(c) (
            OpaquePointer?, UInt, UInt, Int, Int, Int32, UInt, UnsafeMutablePointer<UInt>,
            UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UInt>, UnsafeMutablePointer<UInt>,
            UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
        ) -> Int32
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    typealias ErrorHandler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    typealias SetErrorHandler = @convention(c) (ErrorHandler?) -> ErrorHandler?
    typealias Sync = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias QueryExtension =
        @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Int32
    typealias AllocInfo = @convention(c) () -> UnsafeMutableRawPointer?
    typealias QueryInfo = @convention(c) (OpaquePointer?, UInt, UnsafeMutableRawPointer?) -> Int32
    typealias IconifyWindow = @convention(c) (OpaquePointer?, UInt, Int32) -> Int32
    typealias DefaultScreen = @convention(c) (OpaquePointer?) -> Int32
    typealias SendEvent = @convention(c) (OpaquePointer?, UInt, Int32, Int, UnsafeMutableRawPointer?) -> Int32
    typealias Flush = @convention(c) (OpaquePointer?) -> Int32
    typealias IOErrorHandler = @convention(c) (OpaquePointer?) -> Int32
    typealias SetIOErrorHandler = @convention(c) (IOErrorHandler?) -> IOErrorHandler?
    typealias IOErrorExitHandler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
    typealias SetIOErrorExitHandler =
        @convention(c) (OpaquePointer?, IOErrorExitHandler?, UnsafeMutableRawPointer?) -> Void

    let openDisplay: OpenDisplay
    let closeDisplay: CloseDisplay
    let defaultRootWindow: DefaultRootWindow
    let internAtom: InternAtom
    let getWindowProperty: GetWindowProperty
    let free: Free
    let sync: Sync
    /// What a challenge does to a window: iconify it, or ask the window manager to close it.
    let iconifyWindow: IconifyWindow
    let defaultScreen: DefaultScreen
    let sendEvent: SendEvent
    let flush: Flush
    /// Sets a display's handler for the server going away; `nil` before libX11 1.7.
    let setIOErrorExitHandler: SetIOErrorExitHandler?
    /// The XScreenSaver extension's calls; `nil` without libXss.
    let screenSaver: (query: QueryExtension, alloc: AllocInfo, info: QueryInfo)?

    /// Loads the libraries; the error names the Debian package that is missing.
    static func load() throws(FocusProbeError) -> X11Library {
        guard let x11 = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL) else {
            throw FocusProbeError(
                "libX11 is not installed (Debian: apt install libx11-6), so X11 windows cannot be read.")
        }
        func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String, as type: T.Type) throws(FocusProbeError)
            -> T
        {
            guard let pointer = dlsym(handle, name) else {
                throw FocusProbeError("\(name) is missing from the installed X library.")
            }
            return unsafeBitCast(pointer, to: type)
        }
        let library = X11Library(
            openDisplay: try symbol(x11, "XOpenDisplay", as: OpenDisplay.self),
            closeDisplay: try symbol(x11, "XCloseDisplay", as: CloseDisplay.self),
            defaultRootWindow: try symbol(x11, "XDefaultRootWindow", as: DefaultRootWindow.self),
            internAtom: try symbol(x11, "XInternAtom", as: InternAtom.self),
            getWindowProperty: try symbol(x11, "XGetWindowProperty", as: GetWindowProperty.self),
            free: try symbol(x11, "XFree", as: Free.self),
            sync: try symbol(x11, "XSync", as: Sync.self),
            iconifyWindow: try symbol(x11, "XIconifyWindow", as: IconifyWindow.self),
            defaultScreen: try symbol(x11, "XDefaultScreen", as: DefaultScreen.self),
            sendEvent: try symbol(x11, "XSendEvent", as: SendEvent.self),
            flush: try symbol(x11, "XFlush", as: Flush.self),
            setIOErrorExitHandler: dlsym(x11, "XSetIOErrorExitHandler").map {
                unsafeBitCast($0, to: SetIOErrorExitHandler.self)
            },
            screenSaver: try dlopen("libXss.so.1", RTLD_NOW | RTLD_LOCAL).map { (xss) throws(FocusProbeError) in
                (
                    try symbol(xss, "XScreenSaverQueryExtension", as: QueryExtension.self),
                    try symbol(xss, "XScreenSaverAllocInfo", as: AllocInfo.self),
                    try symbol(xss, "XScreenSaverQueryInfo", as: QueryInfo.self)
                )
            })
        let setErrorHandler = try symbol(x11, "XSetErrorHandler", as: SetErrorHandler.self)
        _ = setErrorHandler { _, _ in 0 }
        if library.setIOErrorExitHandler != nil {
            // Quiet: the exit handler decides, and the probe says it once in its own words.
            let setIOErrorHandler = try symbol(x11, "XSetIOErrorHandler", as: SetIOErrorHandler.self)
            _ = setIOErrorHandler { _ in 0 }
        }
        return library
    }

    private init(
        openDisplay: OpenDisplay, closeDisplay: CloseDisplay, defaultRootWindow: DefaultRootWindow,
        internAtom: InternAtom, getWindowProperty: GetWindowProperty, free: Free, sync: Sync,
        iconifyWindow: IconifyWindow, defaultScreen: DefaultScreen, sendEvent: SendEvent, flush: Flush,
        setIOErrorExitHandler: SetIOErrorExitHandler?,
        screenSaver: (query: QueryExtension, alloc: AllocInfo, info: QueryInfo)?
    ) {
        self.openDisplay = openDisplay
        self.closeDisplay = closeDisplay
        self.defaultRootWindow = defaultRootWindow
        self.internAtom = internAtom
        self.getWindowProperty = getWindowProperty
        self.free = free
        self.sync = sync
        self.iconifyWindow = iconifyWindow
        self.defaultScreen = defaultScreen
        self.sendEvent = sendEvent
        self.flush = flush
        self.setIOErrorExitHandler = setIOErrorExitHandler
        self.screenSaver = screenSaver
    }
}
