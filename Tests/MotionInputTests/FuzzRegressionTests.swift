import Foundation
import Testing
import MotionGestures
@testable import MotionInput

/// Every input that ever made a fuzz target (scripts/fuzz) crash or break an invariant, replayed
/// through the same harness: each must now run to its end. Add new findings here (base64 of the
/// file libFuzzer left in .build-fuzz/findings/TARGET/), with what they found.
private let findings: [(target: String, found: String, base64: String)] = [
    ("libinput", "a device key without ':' ('    name') put the scanner past the end of the line: range trap",
     "IyBsaWJpbnB1dCByZWNvcmQKdmVyc2lvbjogMQpuZGV2aWNlczogMQpsaWJpbnB1dDoKICB2ZXJzaW9uOiAiMS4yMi4xIgogIGdpdDogInVua25vd24iCnN5c3RlbToKICBvczoiImRlYmlhbjoxMiIKICBrZXJuZWw6ICI2LjEuMCIKICBkbWk6ICJkbWk6dW5rbm93biIKZGV2aWNlczoKLSBub2RlOiAvZGV2L2lucHV0L2V2ZW50NwogIGV2ZGV2OgogICAgIyBOYW1lOiBoYW5kLW1hZGUgdG91Y2hwYWQKICAgIG5hbWUKICAgICAgMDogWzAsIDEsIDIsIDNdICMgRVZfU1lOCiAgICAgIDE6IFszMzBdICMgRVZfS0VZCiAgICAgIDM6IFswLCAxLCA0NywgNTMsIDU0LCA1N10gIyBFVl9BQlMKICAgIGFic2lmZm86CiAgICAgIDA6IFswLCAxMDAwLCAwLCAwLCAxMHwBICAgICAgMTogWzAsIDEwMDAsIDAsIDAsIDEwXQogICAgICA0NzogWzAsIDQsIDAsIDAsIDBdCiAgICAgIDUzOiBbMCwgMTAwMCwgMCwgMCwgMTBdCiAgICAgIDU0OiBbMCwgMTAwMCwgMCwgMCwgMTBdCiAgICAgIDU3OiBbMCwgNjU1MzUsIDAsIDAsIDBdCiAgICBwcm9wZXJ0aWVzOiBbMF0KICBldmVudHM6CiAgLSBldmRldjoKICAgIC0gWyAgMCwgICAgICAwLCAgIDMsICA0NywgICAgICAgMF0KICAgIC0gWyAgMCwgICAgICAwLCAgIDMsICA1NywgICAgICAyMF0KICAgIC0gWyAgMCwgICAgICAwLCAgIDMsICA1MywgICAgIDQwMF0KICAgIC0gWyAgMCwgICAgICAwLCAgIDMsICA1NCwgICAgIDMwMF0KICAgIC0gWyAgMCwgIDMyMDAwLCAgIDMsICA1MywgICAgIDMwMF0KICAgIC0gWyAgMCwgIDMyMDAwLCAgIDMsICA0NywgICAgICAgMV0KICAgIC0gWyAgMCwgIDMyMDAwLCAgIDMsICA1MywgICAgIDcwMF0KICAgIC0gWyAgMCwgIDMyMDAwLCAgIDAsICAgMCwgICAgICAgMF0KICAtIGV2ZGV2OgogICAgLSBbICAwLCAgNDgwMDAsICAgMywgIDQ3LCAgICAgICAwXQogICAgLSBbICAwLCAgNDgwMDAsICAgMywgIDU3LCAgICAgIC0xXQogICAgLSBbICAwLCAgNDgwMDAsICAgMywgIDQ3LCAgICAgICAxXQogICAgLSBbICAwLCAgNDgwMDAsICAgMywgIDU3LCAgICAgIC0xXQogICAgLSBbICAwLCAgNDgwMDAsKCAgMCwgICAwLCAgICAgICAwXQo="),
    ("protocol-b", "a tracking id moving to an earlier slot in one frame went down there before it lifted: one id down twice",
     "oaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGh+JUAAKGhoaGhoaGhoaGhoaGhgaGhoaGhoaGhuh8AAAAEuqGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGBoaGhoaGhoaG6HwAAAAS6oaGhoaGhoaGhoaGhoaGhoWhoaGhoaGhoaGhoaGhooaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaFoaGhoaGhoaGhoaGhoaKGhoaGhoaGhoaGhoaGhoaGhuh8AAAAEHw=="),
]

@Suite struct FuzzRegressionTests {
    @Test(arguments: findings.indices)
    func findingRunsToItsEnd(index: Int) throws {
        let finding = findings[index]
        let bytes = try #require(Data(base64Encoded: finding.base64), "\(finding.found)")
        try FuzzHarness.run(finding.target, Array(bytes))
    }

    /// The harness itself runs in the normal suite, on bytes that reach every generator branch.
    @Test(arguments: FuzzHarness.targets)
    func harnessRunsOnFixedBytes(target: String) throws {
        for seed in 0..<8 {
            try FuzzHarness.run(target, (0..<512).map { UInt8(truncatingIfNeeded: $0 &* (seed * 2 + 1) &+ seed) })
        }
    }

    /// A broken invariant was a fatalError: one finding aborted the whole test run. It is
    /// thrown now, and fails only the test that met it.
    @Test func aBrokenInvariantIsThrownNotATrap() throws {
        final class Broken: FrameSource {
            var sent = false
            func nextFrame() throws -> Frame? {
                defer { sent = true }
                return sent ? nil : Frame(t: 0, events: [p(0, 7, .move, 1, 1)])
            }
        }
        #expect(throws: FuzzHarness.Finding.self) { try FuzzHarness.readChecked(Broken()) }
        // Input errors are no finding; a finding inside an ignored stretch still goes up.
        #expect(try FuzzHarness.ignoringInputErrors { throw InputError(file: "x", "bad") } as Int? == nil)
        #expect(throws: FuzzHarness.Finding.self) { try FuzzHarness.ignoringInputErrors { try FuzzHarness.readChecked(Broken()) } }
    }

    @Test func deviceKeyWithoutColonReadsAsEmpty() throws {
        let dir = TempDir()
        let path = dir.write("nocolon.yml", """
            # libinput record
            version: 1
            devices:
            - node: /dev/input/event7
              evdev:
                name
                absinfo:
                  53: [0, 700, 0, 0, 10]
                  54: [0, 500, 0, 0, 10]
              events:
              - evdev:
                - [  0,      0,   3,  57,    5]
                - [  0,      0,   3,  53,    6]
                - [  0,      0,   3,  54,    7]
                - [  0,      0,   0,   0,    0]

            """)
        let source = try #require(try openEventFile(path: path) as? LibinputRecordingReader)
        #expect(source.device.name == "")
        #expect(try source.readAll().map(\.events) == [[p(0, 5, .down, 6, 7)], [p(0, 5, .cancel, 6, 7)]])
    }
}
