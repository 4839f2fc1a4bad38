import Glibc

/// libdbus (Debian's `libdbus-1-3`, on every desktop that has a session bus), loaded when a
/// source that talks D-Bus starts rather than linked, so the same binary runs where there is none
/// — as X11's libraries are (`X11Library`).
///
/// Only the calls `DBusConnection` makes are looked up. libdbus's structures that callers keep on
/// their side (`DBusError`, `DBusMessageIter`) are given as zeroed buffers larger than either is.
final class DBusLibrary: Sendable {
    typealias ErrorInit = @convention(c) (UnsafeMutableRawPointer) -> Void
    typealias ErrorFree = @convention(c) (UnsafeMutableRawPointer) -> Void
    typealias BusGetPrivate = @convention(c) (Int32, UnsafeMutableRawPointer) -> OpaquePointer?
    typealias OpenPrivate = @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer) -> OpaquePointer?
    typealias BusRegister = @convention(c) (OpaquePointer, UnsafeMutableRawPointer) -> UInt32
    typealias ConnectionClose = @convention(c) (OpaquePointer) -> Void
    typealias ConnectionUnref = @convention(c) (OpaquePointer) -> Void
    typealias SetExitOnDisconnect = @convention(c) (OpaquePointer, UInt32) -> Void
    typealias NewMethodCall =
        @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>) ->
        OpaquePointer?
    typealias SendWithReplyAndBlock =
        @convention(c) (OpaquePointer, OpaquePointer, Int32, UnsafeMutableRawPointer) -> OpaquePointer?
    typealias MessageUnref = @convention(c) (OpaquePointer) -> Void
    typealias IterInit = @convention(c) (OpaquePointer, UnsafeMutableRawPointer) -> UInt32
    typealias IterArgType = @convention(c) (UnsafeMutableRawPointer) -> Int32
    typealias IterGetBasic = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> Void
    typealias IterNext = @convention(c) (UnsafeMutableRawPointer) -> UInt32
    typealias IterRecurse = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> Void
    typealias IterInitAppend = @convention(c) (OpaquePointer, UnsafeMutableRawPointer) -> Void
    typealias IterAppendBasic = @convention(c) (UnsafeMutableRawPointer, Int32, UnsafeRawPointer) -> UInt32
    typealias AddMatch = @convention(c) (OpaquePointer, UnsafePointer<CChar>, UnsafeMutableRawPointer?) -> Void
    typealias ReadWrite = @convention(c) (OpaquePointer, Int32) -> UInt32
    typealias PopMessage = @convention(c) (OpaquePointer) -> OpaquePointer?
    typealias MessageType = @convention(c) (OpaquePointer) -> Int32
    typealias MessageText = @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
    typealias MessageFlag = @convention(c) (OpaquePointer) -> UInt32
    typealias NewMethodReturn = @convention(c) (OpaquePointer) -> OpaquePointer?
    typealias Send = @convention(c) (OpaquePointer, OpaquePointer, UnsafeMutablePointer<UInt32>?) -> UInt32
    typealias Flush = @convention(c) (OpaquePointer) -> Void
    typealias UniqueName = @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
    typealias IsConnected = @convention(c) (OpaquePointer) -> UInt32

    let errorInit: ErrorInit
    let errorFree: ErrorFree
    let busGetPrivate: BusGetPrivate
    let openPrivate: OpenPrivate
    let busRegister: BusRegister
    let close: ConnectionClose
    let unref: ConnectionUnref
    let setExitOnDisconnect: SetExitOnDisconnect
    let newMethodCall: NewMethodCall
    let sendWithReplyAndBlock: SendWithReplyAndBlock
    let messageUnref: MessageUnref
    let iterInit: IterInit
    let iterArgType: IterArgType
    let iterGetBasic: IterGetBasic
    let iterNext: IterNext
    let iterRecurse: IterRecurse
    let more: More

    /// The calls for listening: match rules, incoming messages, replies.
    struct More: Sendable {
        let iterInitAppend: IterInitAppend
        let iterAppendBasic: IterAppendBasic
        let addMatch: AddMatch
        let readWrite: ReadWrite
        let popMessage: PopMessage
        let messageType: MessageType
        let member: MessageText
        let interface: MessageText
        let noReply: MessageFlag
        let newMethodReturn: NewMethodReturn
        let send: Send
        let flush: Flush
        let uniqueName: UniqueName
        let isConnected: IsConnected
    }

    /// Room for a `DBusError` (32 bytes on 64-bit) or a `DBusMessageIter` (72).
    static let structureBytes = 128

    /// The library, loaded once; the error names the Debian package that is missing.
    static func shared() throws(FocusProbeError) -> DBusLibrary {
        switch loaded {
        case .success(let library): return library
        case .failure(let error): throw error
        }
    }

    private static let loaded: Result<DBusLibrary, FocusProbeError> = Result { () throws(FocusProbeError) in
        try load()
    }

    private static func load() throws(FocusProbeError) -> DBusLibrary {
        guard let handle = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL) else {
            throw FocusProbeError(
                "libdbus is not installed (Debian: apt install libdbus-1-3), so the desktop's session bus cannot be read."
            )
        }
        func symbol<T>(_ name: String, as type: T.Type) throws(FocusProbeError) -> T {
            guard let pointer = dlsym(handle, name) else {
                throw FocusProbeError("\(name) is missing from the installed libdbus.")
            }
            return unsafeBitCast(pointer, to: type)
        }
        return DBusLibrary(
            errorInit: try symbol("dbus_error_init", as: ErrorInit.self),
            errorFree: try symbol("dbus_error_free", as: ErrorFree.self),
            busGetPrivate: try symbol("dbus_bus_get_private", as: BusGetPrivate.self),
            openPrivate: try symbol("dbus_connection_open_private", as: OpenPrivate.self),
            busRegister: try symbol("dbus_bus_register", as: BusRegister.self),
            close: try symbol("dbus_connection_close", as: ConnectionClose.self),
            unref: try symbol("dbus_connection_unref", as: ConnectionUnref.self),
            setExitOnDisconnect: try symbol("dbus_connection_set_exit_on_disconnect", as: SetExitOnDisconnect.self),
            newMethodCall: try symbol("dbus_message_new_method_call", as: NewMethodCall.self),
            sendWithReplyAndBlock: try symbol(
                "dbus_connection_send_with_reply_and_block", as: SendWithReplyAndBlock.self),
            messageUnref: try symbol("dbus_message_unref", as: MessageUnref.self),
            iterInit: try symbol("dbus_message_iter_init", as: IterInit.self),
            iterArgType: try symbol("dbus_message_iter_get_arg_type", as: IterArgType.self),
            iterGetBasic: try symbol("dbus_message_iter_get_basic", as: IterGetBasic.self),
            iterNext: try symbol("dbus_message_iter_next", as: IterNext.self),
            iterRecurse: try symbol("dbus_message_iter_recurse", as: IterRecurse.self),
            more: More(
                iterInitAppend: try symbol("dbus_message_iter_init_append", as: IterInitAppend.self),
                iterAppendBasic: try symbol("dbus_message_iter_append_basic", as: IterAppendBasic.self),
                addMatch: try symbol("dbus_bus_add_match", as: AddMatch.self),
                readWrite: try symbol("dbus_connection_read_write", as: ReadWrite.self),
                popMessage: try symbol("dbus_connection_pop_message", as: PopMessage.self),
                messageType: try symbol("dbus_message_get_type", as: MessageType.self),
                member: try symbol("dbus_message_get_member", as: MessageText.self),
                interface: try symbol("dbus_message_get_interface", as: MessageText.self),
                noReply: try symbol("dbus_message_get_no_reply", as: MessageFlag.self),
                newMethodReturn: try symbol("dbus_message_new_method_return", as: NewMethodReturn.self),
                send: try symbol("dbus_connection_send", as: Send.self),
                flush: try symbol("dbus_connection_flush", as: Flush.self),
                uniqueName: try symbol("dbus_bus_get_unique_name", as: UniqueName.self),
                isConnected: try symbol("dbus_connection_get_is_connected", as: IsConnected.self)))
    }

    private init(
        errorInit: ErrorInit, errorFree: ErrorFree, busGetPrivate: BusGetPrivate, openPrivate: OpenPrivate,
        busRegister: BusRegister, close: ConnectionClose, unref: ConnectionUnref,
        setExitOnDisconnect: SetExitOnDisconnect, newMethodCall: NewMethodCall,
        sendWithReplyAndBlock: SendWithReplyAndBlock, messageUnref: MessageUnref, iterInit: IterInit,
        iterArgType: IterArgType, iterGetBasic: IterGetBasic, iterNext: IterNext, iterRecurse: IterRecurse,
        more: More
    ) {
        self.errorInit = errorInit
        self.errorFree = errorFree
        self.busGetPrivate = busGetPrivate
        self.openPrivate = openPrivate
        self.busRegister = busRegister
        self.close = close
        self.unref = unref
        self.setExitOnDisconnect = setExitOnDisconnect
        self.newMethodCall = newMethodCall
        self.sendWithReplyAndBlock = sendWithReplyAndBlock
        self.messageUnref = messageUnref
        self.iterInit = iterInit
        self.iterArgType = iterArgType
        self.iterGetBasic = iterGetBasic
        self.iterNext = iterNext
        self.iterRecurse = iterRecurse
        self.more = more
    }
}
