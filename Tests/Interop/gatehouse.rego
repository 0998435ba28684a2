# The rules of gatehouse.rules (beside this file) in Rego v1, for the interop test: a real Rego
# engine serving OPA's data API must make the decisions FilePolicy makes on those rules.
# The decision document is data.gatehouse: {"allow": true|false, "reason": "..."}.
package gatehouse

default allow := false

allow if {
	allows
	not denies
}

reason := "a deny rule matches" if denies

reason := "no rule allows it" if {
	not allows
	not denies
}

# group owners dana; group editors erin frank @owners; group viewers gina @editors
owners := {"dana"}

editors := {"erin", "frank"} | owners

viewers := {"gina"} | editors

# A placeholder's value: present, a string, not empty, no "/".
usable(value) if {
	is_string(value)
	value != ""
	not contains(value, "/")
}

# allow @viewers read docs/*
allows if {
	input.subject in viewers
	input.action == "read"
	startswith(input.resource, "docs/")
}

# allow @editors write docs/*
allows if {
	input.subject in editors
	input.action == "write"
	startswith(input.resource, "docs/")
}

# allow * write docs/* if owner={subject}
allows if {
	input.action == "write"
	startswith(input.resource, "docs/")
	usable(input.subject)
	input.attributes.owner == input.subject
}

# allow * * users/{subject}/*
allows if {
	usable(input.subject)
	startswith(input.resource, concat("", ["users/", input.subject, "/"]))
}

# allow * read public/*
allows if {
	input.action == "read"
	startswith(input.resource, "public/")
}

# allow @viewers read tenants/{tenant}/*
allows if {
	input.subject in viewers
	input.action == "read"
	usable(input.attributes.tenant)
	startswith(input.resource, concat("", ["tenants/", input.attributes.tenant, "/"]))
}

# allow @owners read exports/*
allows if {
	input.subject in owners
	input.action == "read"
	startswith(input.resource, "exports/")
}

# deny * * exports/* if device=unmanaged
denies if {
	startswith(input.resource, "exports/")
	input.attributes.device == "unmanaged"
}

# deny * * docs/*/private-*
denies if regex.match(`^docs/(.|\n)*/private-`, input.resource)
