import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore

/// How the store runs its calls: with the schema ready, within the address's time, the server's
/// refusals and failures turned into `GroupStoreError`, and the rows read back checked.
extension PostgresGroupStore {
    /// Runs `body` with the schema ready, giving up after the address's timeout.
    func perform<T: Sendable>(
        _ context: OperationContext, _ body: @escaping @Sendable (PostgresClient) async throws -> T
    ) async throws(GroupStoreError) -> T {
        try await prepare()
        let client = self.client
        calls.add(1, ordering: .relaxed)
        do {
            return try await withDeadline(address.timeout, overdue: overdue) { try await body(client) }
        } catch {
            let transaction = error as? PostgresTransactionError
            let inner = transaction.flatMap { $0.beginError ?? $0.closureError ?? $0.commitError } ?? error
            if let error = inner as? PSQLError,
                error.serverInfo?[.sqlState] == GroupStoreError.RefusalState.claimWaiting
            {
                throw await claim(context)
            }
            let mapped = GroupStoreError.postgres(
                error, location: address.description, context: context, rootCertificate: address.rootCertificate)
            if mapped.isTransient { schemaReady.withLock { $0 = false } }
            throw mapped
        }
    }

    /// Files the claim of a user id from before identities (the server keeps it for the store's
    /// owner to approve) and says what the member waits for; the caller keeps its updates.
    private func claim(_ context: OperationContext) async -> GroupStoreError {
        guard let userID = context.userID ?? context.code.flatMap({ readers[$0] }) ?? keyring.reader(),
            let secret = keyring.secret(userID)
        else {
            return .identityRefused("This home holds no secret for the member it acts as; set up a profile first.")
        }
        let client = self.client
        let (id, hex) = (userID.value, secret.hex)
        do {
            // The claim's fingerprint (as the owner's list shows it) comes from the server's own
            // SHA-256 of the secret, which every call sends anyway.
            let rows = try await withDeadline(address.timeout, overdue: overdue) {
                try await client.writeRows(
                    """
                    SELECT screenmates.claim_identity(\(id), \(hex)),
                        encode(substr(sha256(convert_to(\(hex), 'UTF8')), 1, 4), 'hex')
                    """
                )
            }
            guard let (outcome, fingerprint) = try rows.first?.decode((String, String).self) else {
                throw UnreadableValue(what: "no answer to a claim")
            }
            if outcome == "bound" {
                return .unavailable(location: address.description, detail: "this member's identity was just confirmed")
            }
            return .awaitingApproval(
                location: address.description, userID: userID, role: address.user, fingerprint: fingerprint)
        } catch {
            return GroupStoreError.postgres(
                error, location: address.description, context: context, rootCertificate: address.rootCertificate)
        }
    }

    /// Reads rows that came back; a value that cannot be right is damage (`.unusable`).
    func decode<T>(_ what: String, _ body: () throws -> T) throws(GroupStoreError) -> T {
        do {
            return try body()
        } catch {
            throw .postgres(
                error, location: address.description, context: OperationContext(),
                rootCertificate: address.rootCertificate)
        }
    }

    /// The answer of a function that says whether the code named a group.
    func known(_ rows: [PostgresRow], _ what: String) throws(GroupStoreError) -> Bool {
        try decode(what) {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to \(what)") }
            return try row.decode(Bool.self)
        }
    }

    /// Whether rows whose first column is `known` say that the code named no group.
    func firstIsUnknown(_ rows: [PostgresRow]) throws(GroupStoreError) -> Bool {
        try decode("a group's rows") {
            guard let row = rows.first else { return false }
            return try row.decode(Bool.self, context: .default) == false
        }
    }
}
