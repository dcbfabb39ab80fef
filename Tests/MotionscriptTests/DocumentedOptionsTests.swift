import Foundation
import Testing
import MotionActions
import MotionPluginHost
import MotionScenarios
import MotionTestSupport

/// `--help`, docs/reference.md and docs/control.md say the same thing: every option a command's
/// `--help` lists is in the command's synopsis in docs/reference.md ("Commands"), every option that
/// synopsis names is in `--help`, every `ctl` word is a command of the control protocol
/// (docs/control.md), and the Defaults table states the defaults the code uses (read from the
/// constants where the test can reach them, from `--help` where only the command line holds them).
@Suite(.timeLimit(.minutes(5))) struct DocumentedOptionsTests {
    static let commands = ["run", "daemon", "test", "record", "devices", "plot", "init", "check"]

    @Test func everyOptionInHelpIsInTheReferenceAndBack() throws {
        let synopsis = try Self.referenceSynopsis()
        #expect(Set(synopsis.keys) == Set(Self.commands + ["ctl"]), "commands in docs/reference.md: \(synopsis.keys.sorted())")
        for command in Self.commands {
            let help = try Self.helpOptions([command])
            let documented = Self.options(in: synopsis[command] ?? "")
            #expect(help.subtracting(documented).isEmpty,
                    "\(command): in --help, not in docs/reference.md: \(help.subtracting(documented).sorted())")
            #expect(documented.subtracting(help).isEmpty,
                    "\(command): in docs/reference.md, not in --help: \(documented.subtracting(help).sorted())")
        }
    }

    @Test func everyCtlWordAndItsOptionsAreDocumented() throws {
        let ctlHelp = try runMotionscript(["ctl", "--help"]).stdout
        let words = Self.subcommands(in: ctlHelp)
        #expect(words.count >= 11, "\(words)")
        // The reference's ctl synopsis: `ctl [--socket PATH] WORD [options] | WORD … | …`.
        let line = try #require(try Self.referenceSynopsis()["ctl"])
        #expect(line.hasPrefix("[--socket PATH] "), "\(line)")
        let segments = line.dropFirst("[--socket PATH] ".count).components(separatedBy: " | ")
        let documented = Dictionary(segments.map { segment in
            (String(segment.split(separator: " ").first ?? ""), Self.options(in: segment))
        }, uniquingKeysWith: { $0.union($1) })
        #expect(Set(documented.keys) == Set(words), "ctl words: --help \(words), docs/reference.md \(documented.keys.sorted())")
        for word in words {
            var help = try Self.helpOptions(["ctl", word])
            // Every word takes --socket (the connection's options); the synopsis says it once, before the word.
            #expect(help.remove("--socket") != nil, "ctl \(word) --help has no --socket")
            let inDocs = documented[word] ?? []
            #expect(help == inDocs, "ctl \(word): --help \(help.sorted()), docs/reference.md \(inDocs.sorted())")
        }
        // Each word is a command of the protocol (`hello` is the protocol's own, no ctl word).
        let protocolCommands = try Self.controlCommands()
        #expect(protocolCommands.subtracting(["hello"]) == Set(words),
                "docs/control.md's commands \(protocolCommands.sorted()) against ctl's words \(words)")
        // The overview names them all.
        for word in words { #expect(ctlHelp.contains(" \(word)"), "ctl --help's overview lacks \(word)") }
    }

    @Test func theDefaultsTableStatesTheCodesDefaults() throws {
        let table = try Self.defaultsTable()
        let timeout = try #require(table["`--timeout`"], "no --timeout row in \(table.keys.sorted())")
        let memory = try #require(table["`--memory`"], "no --memory row")
        // run: its --help's default (the command's own value, no constant outside the command).
        let runHelp = try runMotionscript(["run", "--help"]).stdout
        #expect(Self.helpDefault(of: "--timeout", in: runHelp) == "0.0")
        #expect(Self.helpDefault(of: "--memory", in: runHelp) == "0")
        #expect(timeout.contains("`run`: none"), "\(timeout)")
        #expect(memory.contains("`run`: none"), "\(memory)")
        // test and daemon: the constants their commands default to, and --help showing the same.
        let testHelp = try runMotionscript(["test", "--help"]).stdout
        let daemonHelp = try runMotionscript(["daemon", "--help"]).stdout
        #expect(Self.helpDefault(of: "--timeout", in: testHelp) == "\(ScenarioOptions.defaultTimeout)")
        #expect(Self.helpDefault(of: "--memory", in: testHelp) == "\(ScenarioOptions.defaultMemoryLimit >> 20)")
        #expect(Self.helpDefault(of: "--timeout", in: daemonHelp) == "\(PluginLimits.defaultTimeout)")
        #expect(Self.helpDefault(of: "--memory", in: daemonHelp) == "\(PluginLimits.defaultMemoryMiB)")
        #expect(timeout.contains("`test`: \(Self.seconds(ScenarioOptions.defaultTimeout)) per scenario"), "\(timeout)")
        #expect(timeout.contains("`daemon`: \(Self.seconds(PluginLimits.defaultTimeout)) per call"), "\(timeout)")
        #expect(memory.contains("`test`: \(ScenarioOptions.defaultMemoryLimit >> 20) MiB"), "\(memory)")
        #expect(memory.contains("`daemon`: \(PluginLimits.defaultMemoryMiB) MiB per plugin"), "\(memory)")
        let testRow = try #require(table["`test --timeout` / `--jobs`"], "no test --timeout / --jobs row")
        #expect(testRow.hasPrefix("\(Self.seconds(ScenarioOptions.defaultTimeout)) / cores"), "\(testRow)")
        // The daemon's flight recorder and ctl's --last: only the command line holds them.
        #expect(Self.helpDefault(of: "--flight-recorder", in: daemonHelp) == "60.0")
        #expect(table["`--flight-recorder`"]?.hasPrefix("60 s per device") == true, "\(table["`--flight-recorder`"] ?? "")")
        for word in ["record", "scenario"] {
            let help = try runMotionscript(["ctl", word, "--help"]).stdout
            #expect(Self.helpDefault(of: "--last", in: help) == "60.0", "ctl \(word)")
        }
        #expect(table["`ctl record --last`, `ctl scenario --last`"]?.hasPrefix("60 s") == true)
        #expect(table["`--watch` debounce"]?.hasPrefix("\(Int((QuietTime.standard * 1000).rounded())) ms") == true,
                "\(table["`--watch` debounce"] ?? "")")
        #expect(table["`--uinput`"]?.hasPrefix("`\(UinputDevice.defaultPath)`") == true)
        #expect(Self.helpDefault(of: "--uinput", in: runHelp) == UinputDevice.defaultPath)
        // Every row that names an option names one that exists.
        let allOptions = try Self.commands.reduce(into: Set<String>()) { $0.formUnion(try Self.helpOptions([$1])) }
        for key in table.keys {
            for option in Self.options(in: key) {
                #expect(allOptions.contains(option) || option == "--last", "Defaults row \(key): no command has \(option)")
            }
        }
    }

    /// Every option README.md shows on a `motionscript COMMAND` (or `motionscript ctl WORD`) line
    /// is one that command's --help lists: the README shows a few, all real.
    @Test func theReadmesOptionsExist() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let ctlWords = Set(Self.subcommands(in: try runMotionscript(["ctl", "--help"]).stdout))
        var helps: [[String]: Set<String>] = [:]
        var checked = 0
        for line in readme.split(separator: "\n") {
            var rest = Substring(line)
            while let start = rest.range(of: "motionscript ") {
                // The command line up to a comment, the end of a code span or the next command.
                var tail = rest[start.upperBound...]
                if let end = tail.firstIndex(where: { $0 == "#" || $0 == "`" || $0 == "(" }) { tail = tail[..<end] }
                rest = rest[start.upperBound...]
                let words = tail.split(separator: " ").map(String.init)
                guard let command = words.first, Self.commands.contains(command) || command == "ctl" else { continue }
                var arguments = [command]
                if command == "ctl", words.count > 1, ctlWords.contains(words[1]) { arguments.append(words[1]) }
                let options = Self.options(in: words.dropFirst().joined(separator: " ")).subtracting(["--"])
                guard !options.isEmpty else { continue }
                if helps[arguments] == nil { helps[arguments] = try Self.helpOptions(arguments) }
                let unknown = options.subtracting(helps[arguments]!)
                #expect(unknown.isEmpty, "README.md: \(line): \(unknown.sorted()) not in `motionscript \(arguments.joined(separator: " ")) --help`")
                checked += 1
            }
        }
        #expect(checked >= 10, "README.md: only \(checked) command lines with options found")
    }

    /// An option whose default the parser prints (`(default: 60.0)`) does not say it in words too.
    @Test func helpShowsEachDefaultOnceInEveryCommand() throws {
        let ctlWords = Self.subcommands(in: try runMotionscript(["ctl", "--help"]).stdout)
        for arguments in Self.commands.map({ [$0] }) + ctlWords.map({ ["ctl", $0] }) {
            let help = try runMotionscript(arguments + ["--help"]).stdout
            for (option, text) in Self.optionTexts(in: help) where text.hasSuffix(")") && text.contains("(default: ") {
                let mentions = text.lowercased().components(separatedBy: "default").count - 1
                #expect(mentions == 1, "\(arguments) \(option): \(text)")
            }
        }
    }

    // MARK: - Reading --help and the docs

    /// Options in the OPTIONS section of `motionscript ARGUMENTS --help` (the option column: lines
    /// indented by two spaces), without --help and --version, which every command has.
    static func helpOptions(_ arguments: [String]) throws -> Set<String> {
        let help = try runMotionscript(arguments + ["--help"])
        #expect(help.status == 0, "\(arguments) --help: \(help.stderr)")
        var inOptions = false
        var found = Set<String>()
        for line in help.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix(":"), !line.hasPrefix(" ") { inOptions = line == "OPTIONS:"; continue }
            guard inOptions, line.hasPrefix("  -") else { continue }
            // The option column ends at two spaces (or the line's end when the help starts below).
            let column = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            found.formUnion(options(in: column))
        }
        return found.subtracting(["--help", "-h", "--version"])
    }

    /// Option names in a piece of text: `--name` or `-x`, not `--` alone.
    static func options(in text: some StringProtocol) -> Set<String> {
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == "-") }
        return Set(words.map { String($0) }.filter { (word: String) -> Bool in
            let letters = word.drop(while: { $0 == "-" })
            let dashes = word.count - letters.count
            return (dashes == 2 && letters.count >= 2 || dashes == 1 && letters.count == 1)
                && letters.first?.isLetter == true
        })
    }

    /// docs/reference.md's synopsis (the first code block under "## Commands"), by command: each
    /// `motionscript COMMAND` line with its continuation lines, comments dropped.
    static func referenceSynopsis() throws -> [String: String] {
        let reference = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/reference.md"), encoding: .utf8)
        let commands = try #require(reference.range(of: "## Commands\n"))
        let rest = reference[commands.upperBound...]
        let open = try #require(rest.range(of: "```\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```\n"))
        var synopsis: [String: String] = [:]
        var current = ""
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n") {
            let comment = line.range(of: "  #")?.lowerBound ?? line.endIndex
            let text = line[..<comment].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("motionscript ") {
                let words = text.split(separator: " ", maxSplits: 2)
                current = String(words[1])
                let tail = words.count > 2 ? String(words[2]) : ""
                synopsis[current] = synopsis[current].map { $0 + " " + tail } ?? tail
            } else if !current.isEmpty {
                synopsis[current]! += " " + text
            }
        }
        return synopsis
    }

    /// The commands of docs/control.md's "Commands" table (`enable` / `disable` is two).
    static func controlCommands() throws -> Set<String> {
        let control = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/control.md"), encoding: .utf8)
        let start = try #require(control.range(of: "## Commands\n"))
        let section = control[start.upperBound...]
        var names = Set<String>()
        var inTable = false
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| command |") { inTable = true; continue }
            guard inTable else { continue }
            guard line.hasPrefix("|") else { break }
            let cell = line.split(separator: "|", omittingEmptySubsequences: false)[1]
            for match in cell.matches(of: /`([a-z]+)`/) { names.insert(String(match.output.1)) }
        }
        return names
    }

    /// docs/reference.md's Defaults table: the `what` cell to the `default` cell.
    static func defaultsTable() throws -> [String: String] {
        let reference = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/reference.md"), encoding: .utf8)
        let start = try #require(reference.range(of: "## Defaults\n"))
        var rows: [String: String] = [:]
        var inTable = false
        for line in reference[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| what | default |") { inTable = true; continue }
            guard inTable else { continue }
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, !cells[1].hasPrefix("---") else { continue }
            rows[cells[1]] = cells[2].replacingOccurrences(of: "**", with: "")  // bold is emphasis, not content
        }
        return rows
    }

    /// The subcommands a parent's --help lists (two spaces, a word).
    static func subcommands(in help: String) -> [String] {
        var inSection = false
        var words: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix(":"), !line.hasPrefix(" ") { inSection = line == "SUBCOMMANDS:"; continue }
            if inSection, line.isEmpty { break }
            guard inSection, line.hasPrefix("  "), !line.hasPrefix("   "),
                  let word = line.dropFirst(2).split(separator: " ").first else { continue }
            words.append(String(word))
        }
        return words
    }

    /// Each option line of OPTIONS with its help, its lines joined: ("--last <last>", "How many … (default: 60.0)").
    static func optionTexts(in help: String) -> [(option: String, text: String)] {
        var inOptions = false
        var texts: [(option: String, text: String)] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix(":"), !line.hasPrefix(" ") { inOptions = line == "OPTIONS:"; continue }
            guard inOptions else { continue }
            if line.hasPrefix("  -") {
                let parts = line.dropFirst(2).components(separatedBy: "  ")
                let text = parts.dropFirst().joined(separator: " ").trimmingCharacters(in: .whitespaces)
                texts.append((parts[0], text))
            } else if line.hasPrefix("   "), !texts.isEmpty {
                let more = line.trimmingCharacters(in: .whitespaces)
                texts[texts.count - 1].text += texts[texts.count - 1].text.isEmpty ? more : " " + more
            }
        }
        return texts
    }

    /// The value of `(default: X)` at the end of an option's help.
    static func helpDefault(of option: String, in help: String) -> String? {
        let names = { (column: String) in column.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) }
        guard let text = optionTexts(in: help).first(where: { names($0.option).contains(option) })?.text,
              let match = text.matches(of: /\(default: ([^)]*)\)$/).last else { return nil }
        return String(match.output.1)
    }

    /// Seconds as the table writes them: `1 s`, `10 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
