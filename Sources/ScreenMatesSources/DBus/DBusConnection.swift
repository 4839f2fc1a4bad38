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

    /// Calls `method` and returns the reply's values (a variant's value in its place).
    func call(destination: String, path: String, interface: String, method: String) throws(Failure) -> [Value] {
        guard let message = library.newMethodCall(destination, path, interface, method) else {
            throw Failure(name: "org.freedesktop.DBus.Error.NoMemory", message: "no memory for a message")
        }
        defer { library.messageUnref(message) }
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

    private func value(at iterator: UnsafeMutableRawPointer) -> Value {
        let type = library.iterArgType(iterator)
        let slot = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        slot.initializeMemory(as: UInt8.self, repeating: 0, count: 8)
        defer { slot.deallocate() }
        switch UInt8(truncatingIfNeeded: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            library.iterGetBasic(iterator, slot)
            let pointer = slot.load(as: UnsafePointer<CChar>?.self)
            return .string(pointer.map { String(cString: $0) } ?? "")
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
