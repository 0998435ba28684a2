/// The help texts of `gatehouse` and its subcommands.
enum Help {
    static let overview = """
        gatehouse - ask a configured gate whether a request may pass, and load through it

        Usage:
          gatehouse                          run the demo on the bundled example configuration
          gatehouse check    --config FILE [options] KEY
          gatehouse load     --config FILE [options] [--output FILE] KEY
          gatehouse store    --config FILE [options] [--input FILE] KEY   (the resource on stdin)
          gatehouse remove   --config FILE [options] KEY
          gatehouse list     --config FILE [options] PREFIX
          gatehouse validate [--json] FILE   check a configuration and every rules file it names
          gatehouse explain  [--json] FILE   describe each service: its loader, cache and gatekeepers
          gatehouse test     [--json] CASES  decide a table of cases, compare with what they expect
          gatehouse help [COMMAND]           or: gatehouse COMMAND --help

        Exit status: 0 allowed / ok, 1 error, 2 usage, 3 denied (test: 1 when a case fails).
        Results go to standard output; errors and denials (gatekeeper and reason) to standard error.
        With --json, one JSON object is printed to standard output instead.
        """

    static let requestOptions = """
          --config FILE      the configuration file (JSON)
          --service NAME     the service; may be left out when the file has one service
          --subject NAME     who asks (default: no subject, the app itself)
          --action NAME      what they want to do (default: read)
          --attr KEY=VALUE   a request attribute; repeat for more
          --at INSTANT       decide as if the clock read this ISO-8601 instant (2026-11-30T10:00:00Z,
                             2026-11-30T11:00:00.5+01:00); it must exist: no Feb 30, no hour 24
          --decision-log FILE
                             append one JSON line per decision to FILE (replaces the configuration's
                             decisionLog path, keeping its mask; or adds a log)
          --json             print one JSON object instead of text
          --help             show this help
        """

    static let check = """
        gatehouse check - decide whether a request would be allowed, without loading anything

        Usage: gatehouse check --config FILE [--service S] [--subject U] [--action A] [--attr k=v]... [--at ISO-8601] [--decision-log FILE] [--json] KEY

        Options:
        \(requestOptions)

        Prints whether the request is allowed; the deciding gatekeeper and its rule (file:line) when a
        rules file decided. With --json: the request, the outcome and the explained verdict, every
        gatekeeper's step in order.

        Exit status: 0 allowed, 3 denied, 1 configuration error, 2 usage error.
        Example: gatehouse check --config Examples/demo/gatehouse.json --subject alice --at 2026-11-30T10:00:00Z avatars/alice.png
        """

    static let load = """
        gatehouse load - load a resource through the gate: the loader is reached only if every gatekeeper allows

        Usage: gatehouse load --config FILE [--service S] [--subject U] [--action A] [--attr k=v]... [--at ISO-8601] [--decision-log FILE] [--output FILE] [--json] KEY

        Options:
        \(requestOptions)
          --output FILE      write the resource to FILE instead of standard output

        Exit status: 0 loaded, 3 denied, 1 error (configuration, loader, output), 2 usage error.
        Example: gatehouse load --config Examples/demo/gatehouse.json --subject alice --at 2026-11-30T10:00:00Z avatars/alice.txt
        """

    static let store = """
        gatehouse store - write a resource through the gate (action write): the loader is reached only if allowed

        Usage: gatehouse store --config FILE [--service S] [--subject U] [--attr k=v]... [--at ISO-8601] [--decision-log FILE] [--input FILE] [--json] KEY

        Reads the resource from standard input, or from --input FILE: at most 64 MiB (67108864
        bytes); a larger input, or an endless one such as /dev/zero, stops there and nothing is
        stored (exit status 1).

        Options:
        \(requestOptionsWithoutAction)
          --input FILE       read the resource from FILE instead of standard input

        Exit status: 0 stored, 3 denied, 1 error (configuration, loader, input over 64 MiB), 2 usage error
        (also an input that cannot be read or is a folder).
        """

    static let remove = """
        gatehouse remove - delete a resource through the gate (action delete): the loader is reached only if allowed

        Usage: gatehouse remove --config FILE [--service S] [--subject U] [--attr k=v]... [--at ISO-8601] [--decision-log FILE] [--json] KEY

        Options:
        \(requestOptionsWithoutAction)

        Exit status: 0 removed, 3 denied, 1 error (configuration, loader), 2 usage error.
        """

    static let list = """
        gatehouse list - list the keys under a folder that the subject may read, one a line

        Usage: gatehouse list --config FILE [--service S] [--subject U] [--attr k=v]... [--at ISO-8601] [--decision-log FILE] [--json] PREFIX

        PREFIX names a folder: "docs" or "docs/"; "" or "/" is the root. The listing itself is asked
        as action list on the folder; then each key is asked as action read, and a key that may not
        be read is left out, unseen (it is in no output and no error).

        Options:
        \(requestOptionsWithoutAction)

        Exit status: 0 listed (even when nothing may be read), 3 listing denied, 1 error, 2 usage error.
        """

    static var requestOptionsWithoutAction: String {
        requestOptions.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("--action NAME") }.joined(separator: "\n")
    }

    static let validate = """
        gatehouse validate - check a configuration file and report every problem with its place

        Usage: gatehouse validate [--json] FILE

        Also reads and parses every rules file the configuration names (gatekeepers, shadow
        gatekeepers, and inside allOf, anyOf and not): a problem in one is reported at its
        gatekeeper's place with the file and line, such as
        gatehouse.json: services.avatars.gatekeepers[2]: avatars.rules:3: ...

        Exit status: 0 valid, 1 invalid, 2 usage error.
        """

    static let explain = """
        gatehouse explain - describe each service of a configuration: its gatekeepers in order, the cache, the loader

        Usage: gatehouse explain [--json] FILE

        Exit status: 0 ok, 1 invalid configuration, 2 usage error.
        """

    static let test = """
        gatehouse test - decide every case of a table as check would, and compare with what each expects

        Usage: gatehouse test [--json] CASES

        CASES is a JSON table; "config" is relative to the table's folder:
          {"config": "gatehouse.json", "cases": [
            {"name": "alice reads her avatar", "subject": "alice", "resource": "avatars/alice.txt",
             "at": "2026-11-30T10:00:00Z", "expect": "allow"}]}
        A case has "name", "resource" and "expect" ("allow" or "deny"), and may have "service"
        (needed when the configuration has several), "subject", "action" (default read),
        "attributes" (an object of strings), "at" (an ISO-8601 instant, as --at) and "gatekeeper"
        (the one expected to decide: for a deny the one that refused, for an allow the last one;
        "gate" is read as well, its older spelling).
        A gatekeeper that fails (a rules file missing or malformed) fails the case.

        Prints "pass  NAME" or "FAIL  NAME: expected ..., got ..." per case, then "N passed, M failed".

        Exit status: 0 every case holds, 1 a case fails or the configuration is invalid,
        2 the table cannot be read or is malformed (each problem named by its place), or a usage error.
        Example: gatehouse test Examples/demo/gatehouse.tests.json
        """

    static let demo = """
        gatehouse demo - a short story on the bundled example configuration (also: gatehouse with no arguments)

        Usage: gatehouse demo
        """

    static func text(for command: String) -> String? {
        switch command {
        case "check": check
        case "load": load
        case "store": store
        case "remove": remove
        case "list": list
        case "validate": validate
        case "explain": explain
        case "test": test
        case "demo": demo
        default: nil
        }
    }
}
