import GatehouseComposition
import GatehouseCore

/// A strict parser of options (`--config F`, `--config=F`), flags and positional arguments.
struct CommandLineArguments {
    /// An option a command accepts, with its line of help.
    struct Option {
        var name: String
        var valueName: String?
        var help: String
        var required = false
        var repeatable = false
        /// Why the command refuses this option; it is then not listed in the help.
        var refusal: String?

        /// `--config FILE`, or `--json` for a flag.
        var form: String { "--\(name)" + (valueName.map { " \($0)" } ?? "") }

        /// `--config FILE`, `[--attr KEY=VALUE]...` or `[--json]`, for a usage line.
        var synopsis: String { required ? form : "[\(form)]" + (repeatable ? "..." : "") }

        /// `  --config FILE      the configuration file`, for a command's help.
        var helpLine: String {
            let head = "  " + form
            let column = String(repeating: " ", count: 23)
            return head.count > 22 ? "\(head)\n\(column)\(help)" : head + column.dropFirst(head.count) + help
        }
    }

    /// What the user typed wrong; printed with the command's usage, exit status 2.
    struct UsageError: Error, Equatable {
        var message: String
    }

    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// Parses `arguments`; an optional positional is written in brackets (`[COMMAND]`).
    init(_ arguments: [String], options: [Option], positionalNames: [String], command: String)
        throws(UsageError)
    {
        let known = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
        let accepted = known.filter { $0.value.refusal == nil }.keys.sorted()
        var rest = arguments[...]
        var onlyPositionals = false
        while let argument = rest.popFirst() {
            if onlyPositionals || !argument.hasPrefix("--") {
                if argument.hasPrefix("-") && argument.count > 1 && !onlyPositionals {
                    throw UsageError(
                        message:
                            "unknown option '\(argument)' for '\(command)'; options start with --\(Self.hint(argument, among: accepted, prefix: "--"))"
                    )
                }
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            let split = Self.splitAtEquals(String(argument.dropFirst(2)))
            let name = split?.name ?? String(argument.dropFirst(2))
            let inlineValue = split?.value
            guard let option = known[name] else {
                throw UsageError(
                    message:
                        "unknown option '--\(name)' for '\(command)'\(Self.hint(name, among: accepted, prefix: "--"))"
                )
            }
            if let refusal = option.refusal {
                throw UsageError(message: "'\(command)' takes no option '--\(name)': \(refusal)")
            }
            if option.valueName != nil {
                if inlineValue == nil, rest.first?.hasPrefix("--") ?? true {
                    throw UsageError(message: "option '--\(name)' needs a value: \(option.form)")
                }
                let value = inlineValue ?? rest.removeFirst()
                if !option.repeatable, values[name] != nil {
                    throw UsageError(message: "option '--\(name)' was given twice; it takes one value")
                }
                values[name, default: []].append(value)
            } else if inlineValue != nil {
                throw UsageError(message: "option '--\(name)' is a flag and takes no value")
            } else {
                flags.insert(name)
            }
        }
        for option in options where option.required && values[option.name] == nil {
            throw UsageError(message: "missing \(option.synopsis) for '\(command)': \(option.help)")
        }
        if positionals.count > positionalNames.count {
            let stray = positionals[positionalNames.count...].map { "'\($0)'" }.joined(separator: ", ")
            let expected =
                positionalNames.isEmpty ? "no arguments" : "only \(positionalNames.joined(separator: " "))"
            throw UsageError(message: "unexpected argument \(stray) for '\(command)'; it takes \(expected)")
        }
        let required = positionalNames.filter { !$0.hasPrefix("[") }
        if positionals.count < required.count {
            throw UsageError(message: "missing \(required[positionals.count]) for '\(command)'")
        }
    }

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// `text` split at its first `=` scalar (a combining mark after it makes one `Character`).
    static func splitAtEquals(_ text: String) -> (name: String, value: String)? {
        guard let equals = text.unicodeScalars.firstIndex(of: "=") else { return nil }
        return (String(text[..<equals]), String(text[text.unicodeScalars.index(after: equals)...]))
    }

    /// ` (did you mean 'NAME'?)` for the candidate closest to `name`, or empty.
    static func hint(_ name: String, among names: [String], prefix: String = "") -> String {
        let bare = String(name.drop { $0 == "-" })
        let close =
            names.first { !bare.isEmpty && ($0.hasPrefix(bare) || bare.hasPrefix($0)) }
            ?? closestName(to: bare, among: names)
        return close.map { " (did you mean '\(prefix)\($0)'?)" } ?? ""
    }
}
