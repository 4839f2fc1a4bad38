import Glibc

/// A private connection to the session bus (`$DBUS_SESSION_BUS_ADDRESS` of the environment it is
/// given), through libdbus (`DBusLibrary`): method calls with a reply, each waited for at most a
/// moment, their basic values read back. What the GNOME source needs; used from one task.
final class DBusConnection {
    /// A value of a reply, as far as the sources read them.
    enum Value: Equatable {
        case string(String)
        case unsigned(UInt64)
        case signed(Int64)
        case bool(Bool)
        case other(Character)

        var text: String? {
            if case .string(let text) = self { return text }
            return nil
        }

        var number: UInt64? {
            switch self {
            case .unsigned(let value): value
            case .signed(let value): value >= 0 ? UInt64(value) : nil
            default: nil
            }
        }
    }

    /// Why a call failed: the bus's own error name and message.
    struct Failure: Error, Equatable {
        let name: String
        let message: String

        /// Nobody owns the name called (the extension is not there, the desktop has gone).
        var nobodyThere: Bool {
            name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
        }

        /// The bus itself went away.
        var disconnected: Bool { name == "org.freedesktop.DBus.Error.Disconnected" }
    }

    /// The most bytes of a string read from the bus (an application id or a title is far shorter).
    static let longestText = 4096

    private let library: DBusLibrary
    private let connection: OpaquePointer
    /// What a call waits for its reply, at most.
    let timeoutMilliseconds: Int32

    /// Connects to the session bus the environment names.
    init(environment: [String: String], timeoutMilliseconds: Int32 = 1000) throws(FocusProbeError) {
        guard let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else {
            throw FocusProbeError("DBUS_SESSION_BUS_ADDRESS is not set: there is no session bus to ask.")
        }
        library = try DBusLibrary.shared()
        self.timeoutMilliseconds = timeoutMilliseconds
        let error = UnsafeMutableRawPointer.allocate(byteCount: DBusLibrary.structureBytes, alignment: 8)
        error.initializeMemory(as: UInt8.self, repeating: 0, count: DBusLibrary.structureBytes)
        defer { error.deallocate() }
        library.errorInit(error)
        guard let opened = library.openPrivate(address, error) else {
            let failure = Self.failure(error, library)
            throw FocusProbeError("The session bus (\(address)) cannot be reached: \(failure.message)")
        }
        library.setExitOnDisconnect(opened, 0)
        guard library.busRegister(opened, error) != 0 else {
            let failure = Self.failure(error, library)
            library.close(opened)
            library.unref(opened)
            throw FocusProbeError("The session bus (\(address)) refused this program: \(failure.message)")
        }
        connection = opened
    }

    deinit {
        library.close(connection)
        library.unref(connection)
    }

    /// Calls `method` with `arguments` (strings) and returns the reply's values (a variant's value
    /// in its place).
    func call(destination: String, path: String, interface: String, method: String, arguments: [String] = [])
        throws(Failure) -> [Value]
    {
        guard let message = library.newMethodCall(destination, path, interface, method) else {
            throw Failure(name: "org.freedesktop.DBus.Error.NoMemory", message: "no memory for a message")
        }
        defer { library.messageUnref(message) }
        if !arguments.isEmpty {
            let appender = UnsafeMutableRawPointer.allocate(byteCount: DBusLibrary.structureBytes, alignment: 8)
            appender.initializeMemory(as: UInt8.self, repeating: 0, count: DBusLibrary.structureBytes)
            defer { appender.deallocate() }
            library.more.iterInitAppend(message, appender)
            for argument in arguments {
                let appended = argument.withCString { text in
                    withUnsafePointer(to: text) { library.more.iterAppendBasic(appender, Int32(UInt8(ascii: "s")), $0) }
                }
                guard appended != 0 else {
                    throw Failure(name: "org.freedesktop.DBus.Error.NoMemory", message: "no memory for an argument")
                }
            }
        }
        let error = UnsafeMutableRawPointer.allocate(byteCount: DBusLibrary.structureBytes, alignment: 8)
        error.initializeMemory(as: UInt8.self, repeating: 0, count: DBusLibrary.structureBytes)
        defer { error.deallocate() }
        library.errorInit(error)
        guard let reply = library.sendWithReplyAndBlock(connection, message, timeoutMilliseconds, error) else {
            throw Self.failure(error, library)
        }
        defer { library.messageUnref(reply) }
        let iterator = UnsafeMutableRawPointer.allocate(byteCount: DBusLibrary.structureBytes, alignment: 8)
        iterator.initializeMemory(as: UInt8.self, repeating: 0, count: DBusLibrary.structureBytes)
        defer { iterator.deallocate() }
        guard library.iterInit(reply, iterator) != 0 else { return [] }
        var values: [Value] = []
        repeat {
            values.append(value(at: iterator))
        } while library.iterNext(iterator) != 0
        return values
    }

    /// This connection's unique name on the bus (`:1.42`): where calls to it go.
    var uniqueName: String { library.more.uniqueName(connection).map { String(cString: $0) } ?? "" }

    /// Whether the bus is still there.
    var isConnected: Bool { library.more.isConnected(connection) != 0 }

    /// Asks the bus to pass on the messages `rule` matches (`type='signal',…`).
    func addMatch(_ rule: String) throws(Failure) {
        let error = UnsafeMutableRawPointer.allocate(byteCount: DBusLibrary.structureBytes, alignment: 8)
        error.initializeMemory(as: UInt8.self, repeating: 0, count: DBusLibrary.structureBytes)
        defer { error.deallocate() }
        library.errorInit(error)
        library.more.addMatch(connection, rule, error)
        if error.load(as: UnsafePointer<CChar>?.self) != nil { throw Self.failure(error, library) }
    }

    /// A method call or a signal that came to this connection.
    struct Incoming: Equatable {
        let isSignal: Bool
        let interface: String
        let member: String
        let values: [Value]
    }

    /// The method calls and signals that have come since the last look, without waiting; each
    /// method call is answered at once with an empty reply (unless its sender wants none).
    func drain() -> [Incoming] {
        var incoming: [Incoming] = []
        _ = library.more.readWrite(connection, 0)
        while let message = library.more.popMessage(connection) {
            defer { library.messageUnref(message) }
            let type = library.more.messageType(message)
            // 1: a method call, 4: a signal (replies to calls of our own never wait here).
            guard type == 1 || type == 4 else { continue }
            if type == 1, library.more.noReply(message) == 0, let reply = library.more.newMethodReturn(message) {
                _ = library.more.send(connection, reply, nil)
                library.messageUnref(reply)
            }
            var values: [Value] = []
            let iterator = UnsafeMutableRawPointer.allocate(byteCount: DBusLibrary.structureBytes, alignment: 8)
            iterator.initializeMemory(as: UInt8.self, repeating: 0, count: DBusLibrary.structureBytes)
            defer { iterator.deallocate() }
            if library.iterInit(message, iterator) != 0 {
                repeat {
                    values.append(value(at: iterator))
                } while library.iterNext(iterator) != 0
            }
            incoming.append(
                Incoming(
                    isSignal: type == 4,
                    interface: library.more.interface(message).map { String(cString: $0) } ?? "",
                    member: library.more.member(message).map { String(cString: $0) } ?? "", values: values))
        }
        library.more.flush(connection)
        return incoming
    }

    private func value(at iterator: UnsafeMutableRawPointer) -> Value {
        let type = library.iterArgType(iterator)
        let slot = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        slot.initializeMemory(as: UInt8.self, repeating: 0, count: 8)
        defer { slot.deallocate() }
        switch UInt8(truncatingIfNeeded: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            library.iterGetBasic(iterator, slot)
            guard let pointer = slot.load(as: UnsafePointer<CChar>?.self) else { return .string("") }
            // What another program sent: at most `longestText` bytes are read, invalid UTF-8 repaired.
            let bytes = UnsafeRawBufferPointer(start: pointer, count: min(strlen(pointer), Self.longestText))
            return .string(String(decoding: bytes, as: UTF8.self))
        case UInt8(ascii: "t"):
            library.iterGetBasic(iterator, slot)
            return .unsigned(slot.load(as: UInt64.self))
        case UInt8(ascii: "x"):
            library.iterGetBasic(iterator, slot)
            return .signed(slot.load(as: Int64.self))
        case UInt8(ascii: "u"):
            library.iterGetBasic(iterator, slot)
            return .unsigned(UInt64(slot.load(as: UInt32.self)))
        case UInt8(ascii: "i"):
            library.iterGetBasic(iterator, slot)
            return .signed(Int64(slot.load(as: Int32.self)))
        case UInt8(ascii: "b"):
            library.iterGetBasic(iterator, slot)
            return .bool(slot.load(as: UInt32.self) != 0)
        case UInt8(ascii: "v"):
            let inner = UnsafeMutableRawPointer.allocate(byteCount: DBusLibrary.structureBytes, alignment: 8)
            inner.initializeMemory(as: UInt8.self, repeating: 0, count: DBusLibrary.structureBytes)
            defer { inner.deallocate() }
            library.iterRecurse(iterator, inner)
            return value(at: inner)
        default:
            return .other(Character(Unicode.Scalar(UInt8(truncatingIfNeeded: type))))
        }
    }

    /// What a filled `DBusError` says (and frees it).
    private static func failure(_ error: UnsafeMutableRawPointer, _ library: DBusLibrary) -> Failure {
        let name = error.load(as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? "unknown"
        let message =
            error.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: UnsafePointer<CChar>?.self)
            .map { String(cString: $0) } ?? name
        library.errorFree(error)
        return Failure(name: name, message: message)
    }
}
