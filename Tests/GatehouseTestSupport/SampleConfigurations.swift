/// Configurations shared by the tests of assembly and of the command.
public enum SampleConfigurations {
    /// Nine mistakes, as a newcomer makes them, each to be reported in one pass: a typo in a
    /// top-level key, a bad cache limit, an unknown loader type, an unknown key, a time zone and
    /// a time, a flag of the wrong type and an unknown value, and a misspelt policy type in a
    /// second service.
    public static let nineMistakes = """
        { "services": {
            "docs": {
              "loader": { "type": "dsk", "root": "data" },
              "cache": { "countLimit": 0 },
              "gatekeepers": [
                { "type": "allowList", "resources": ["docs/*"], "subjcts": ["alice"] },
                { "type": "timeWindow", "timeZone": "Europe/Berln", "days": ["mon"], "from": "9am", "to": "17:00" },
                { "type": "file", "path": "docs.rules", "requireEnd": "yes", "whenInvalid": "keepLastGod" }
              ] },
            "reports": {
              "loader": { "type": "memory", "resources": {} },
              "gatekeepers": [ { "type": "alowList", "subjects": ["bob"] } ] } },
          "decisionLg": { "path": "decisions.jsonl" } }
        """
}
