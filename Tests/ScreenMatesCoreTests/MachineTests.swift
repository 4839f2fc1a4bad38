import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

/// A member's machines: the id each home draws, and the names, from the host's name or typed.
@Suite struct MachineTests {
    /// Host names as machines have them, and as they should not.
    private static let hostPieces = [
        "ana", "Ana", "laptop", "DESKTOP", "-", ".", "_", " ", "'", "é", "😀", "\u{1B}[31m", "\n", "0", "42", "..",
        "--", "ThinkPad X1", "ana's MacBook Pro", "work.example.org",
    ]
    private static let hostGen = Gen<String?>.element(of: hostPieces).map { $0! }.array(of: 0...20).map { $0.joined() }

    @Test func aDrawnIdIsAnIdAndTwoDrawsDiffer() {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<100).map { _ in MachineID.random(using: &generator) }
        for id in ids { #expect((try? MachineID(validating: id.value)) == id) }
        #expect(Set(ids).count == 100)
    }

    @Test func anIdIsThirtyTwoLowercaseHexDigitsAndNothingElse() {
        #expect((try? MachineID(validating: String(repeating: "0a", count: 16))) != nil)
        for wrong in [
            "", "first", String(repeating: "A", count: 32), String(repeating: "a", count: 31),
            String(repeating: "a", count: 33), String(repeating: "g", count: 32), String(repeating: "é", count: 32),
        ] {
            #expect(throws: MachineError.self, "\(wrong)") { try MachineID(validating: wrong) }
        }
    }

    @Test func anyHostNameMakesANameAMachineMayHave() async {
        await propertyCheck(count: 300, input: Self.hostGen) { host in
            let name = MachineName.fromHostName(host)
            #expect((try? MachineName(validating: name.value)) == name, "\(host)")
            #expect(!name.value.hasPrefix("-") && !name.value.hasSuffix("-") && !name.value.hasPrefix("."))
        }
        #expect(MachineName.fromHostName("ana's MacBook Pro").value == "ana-s-MacBook-Pro")
        #expect(MachineName.fromHostName("work.example.org").value == "work.example.org")
        #expect(MachineName.fromHostName("😀").value == "machine")
        #expect(MachineName.fromHostName(String(repeating: "x", count: 80)).value.count == 32)
    }

    @Test func aNameIsRefusedWithWhatIsWrongWithIt() {
        #expect(throws: MachineError.emptyName) { try MachineName(validating: "") }
        #expect(throws: MachineError.nameTooLong(33)) { try MachineName(validating: String(repeating: "a", count: 33)) }
        #expect(throws: MachineError.nameCharacters(["space", "'é'"])) {
            try MachineName(validating: "my café machine")
        }
        #expect(MachineError.nameCharacters(["' '"]).message.contains("letters A-Z and a-z, digits"))
    }

    @Test func aNameTakenByAnotherMachineGetsANumberWhateverTheCase() async {
        let names = Gen<String?>.element(of: [
            "laptop", "LAPTOP", "laptop-2", "Laptop-3", "desk", String(repeating: "x", count: 32),
        ])
        .map { try! MachineName(validating: $0!) }.array(of: 0...8)
        await propertyCheck(
            count: 300, input: names, Gen<String?>.element(of: ["laptop", "desk", String(repeating: "x", count: 32)])
        ) {
            taken, wanted in
            let name = try! MachineName(validating: wanted!)
            let given = name.unique(among: taken)
            #expect(!taken.contains { $0.key == given.key }, "\(taken) \(given)")
            #expect(given.value.count <= MachineName.longest)
            if !taken.contains(where: { $0.key == name.key }) { #expect(given == name) }
        }
        let laptop = try! MachineName(validating: "laptop")
        #expect(laptop.unique(among: [try! MachineName(validating: "Laptop")]).value == "laptop-2")
    }
}
