import Foundation

/// A node of sway's tree as its IPC reports it (`get_tree`, and the `container` of a window
/// event): only the fields the probe reads.
///
/// An application is named by its Wayland `app_id` (`foot`, `firefox`), or for an X11 client
/// under Xwayland by `window_properties.class` (`XTerm`); its `name` is the window's title,
/// read only to match a site, never stored.
struct SwayNode: Decodable, Equatable {
    struct WindowProperties: Decodable, Equatable {
        var windowClass: String?

        enum CodingKeys: String, CodingKey {
            case windowClass = "class"
        }
    }

    var id: Int
    var type: String
    var focused: Bool
    var name: String?
    var appID: String?
    var windowProperties: WindowProperties?
    var nodes: [SwayNode]
    var floatingNodes: [SwayNode]

    enum CodingKeys: String, CodingKey {
        case id, type, focused, name, nodes
        case appID = "app_id"
        case windowProperties = "window_properties"
        case floatingNodes = "floating_nodes"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        type = try container.decode(String.self, forKey: .type)
        focused = try container.decodeIfPresent(Bool.self, forKey: .focused) ?? false
        name = try container.decodeIfPresent(String.self, forKey: .name)
        appID = try container.decodeIfPresent(String.self, forKey: .appID)
        windowProperties = try container.decodeIfPresent(WindowProperties.self, forKey: .windowProperties)
        nodes = try container.decodeIfPresent([SwayNode].self, forKey: .nodes) ?? []
        floatingNodes = try container.decodeIfPresent([SwayNode].self, forKey: .floatingNodes) ?? []
    }

    /// The application's name: `app_id`, else the X11 class; `nil` for a node that is no
    /// window (a workspace, an output).
    var application: String? {
        if let appID, !appID.isEmpty { return appID }
        if let name = windowProperties?.windowClass, !name.isEmpty { return name }
        return nil
    }

    /// The node that has the focus: a window, or a workspace when an empty one is focused.
    var focusedNode: SwayNode? {
        if focused { return self }
        for child in nodes + floatingNodes {
            if let found = child.focusedNode { return found }
        }
        return nil
    }

    static func decode(_ payload: [UInt8], what: String) throws(FocusProbeError) -> SwayNode {
        do {
            return try JSONDecoder().decode(SwayNode.self, from: Data(payload))
        } catch {
            throw FocusProbeError("sway's \(what) could not be read: \(error).")
        }
    }
}

/// A `window` event: what changed (`focus`, `title`, `close`, …) and the window it concerns.
struct SwayWindowEvent: Decodable {
    var change: String
    var container: SwayNode
}
