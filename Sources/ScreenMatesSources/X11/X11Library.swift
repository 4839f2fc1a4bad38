import Glibc

/// libX11 and libXss (Debian's `libx11-6`, `libxss1`), loaded when an X11 source starts rather
/// than linked, so the same binary runs on a machine without any X library.
///
/// Only the calls the X11 source makes are looked up. A protocol error (a window closed between
/// two reads: `BadWindow`) would by Xlib's default end the process; the handler installed here
/// only counts it, and the read that caused it comes back empty.
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

    let openDisplay: OpenDisplay
    let closeDisplay: CloseDisplay
    let defaultRootWindow: DefaultRootWindow
    let internAtom: InternAtom
    let getWindowProperty: GetWindowProperty
    let free: Free
    let sync: Sync
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
            screenSaver: try dlopen("libXss.so.1", RTLD_NOW | RTLD_LOCAL).map { (xss) throws(FocusProbeError) in
                (
                    try symbol(xss, "XScreenSaverQueryExtension", as: QueryExtension.self),
                    try symbol(xss, "XScreenSaverAllocInfo", as: AllocInfo.self),
                    try symbol(xss, "XScreenSaverQueryInfo", as: QueryInfo.self)
                )
            })
        let setErrorHandler = try symbol(x11, "XSetErrorHandler", as: SetErrorHandler.self)
        _ = setErrorHandler { _, _ in 0 }
        return library
    }

    private init(
        openDisplay: OpenDisplay, closeDisplay: CloseDisplay, defaultRootWindow: DefaultRootWindow,
        internAtom: InternAtom, getWindowProperty: GetWindowProperty, free: Free, sync: Sync,
        screenSaver: (query: QueryExtension, alloc: AllocInfo, info: QueryInfo)?
    ) {
        self.openDisplay = openDisplay
        self.closeDisplay = closeDisplay
        self.defaultRootWindow = defaultRootWindow
        self.internAtom = internAtom
        self.getWindowProperty = getWindowProperty
        self.free = free
        self.sync = sync
        self.screenSaver = screenSaver
    }
}
