#!/usr/bin/env python3
"""OPA's data API, served by the real Rego interpreter regopy, on 127.0.0.1 for tests.

    python opa_data_server.py POLICY.rego [MORE.rego ...]

Listens on 127.0.0.1 with an ephemeral port and prints the port, alone on a line, on stdout once
it accepts connections. Serves `POST /v1/data/<path>` with a body `{"input": ...}` the way OPA
does: `{"result": <the document data.<path with dots>>}`, or `{}` when the document is
undefined. A malformed request gets 400, an evaluation error 500, both with OPA's
`{"code": ..., "message": ...}`. Stops when its standard input closes (the test that started it
ended) or on SIGTERM. Needs `pip install regopy` (Tests/Interop/README.md).
"""
import json
import re
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from regopy import Interpreter

PATH = re.compile(r"^/v1/data/([A-Za-z_][A-Za-z0-9_]*(?:/[A-Za-z_][A-Za-z0-9_]*)*)$")
MAX_BODY = 1 << 20


def load_interpreter(files):
    interpreter = Interpreter()
    for name in files:
        with open(name, encoding="utf-8") as handle:
            interpreter.add_module(name, handle.read())
    return interpreter


class DataAPI(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as OPA
    interpreter = None
    lock = threading.Lock()  # one evaluation at a time: the interpreter is not shared safely

    def setup(self):
        super().setup()
        # As OPA (Go) does: no Nagle delay between the head and the body of an answer, which
        # would otherwise wait for the client's delayed acknowledgement (40 ms on Linux).
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format, *args):  # quiet: the test reads stdout
        pass

    def answer(self, status, document):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self.close_connection = True
            return self.answer(413, {"code": "invalid_parameter", "message": "request body too large"})
        raw = self.rfile.read(length)
        match = PATH.match(self.path)
        if not match:
            return self.answer(404, {"code": "resource_not_found", "message": f"no data API path {self.path}"})
        try:
            request = json.loads(raw) if raw else {}
            if not isinstance(request, dict):
                raise ValueError("the body must be a JSON object")
        except ValueError as error:
            return self.answer(400, {"code": "invalid_parameter", "message": str(error)})
        query = "x = data." + match.group(1).replace("/", ".")
        try:
            with self.lock:
                if "input" in request:
                    self.interpreter.set_input_term(json.dumps(request["input"]))
                else:
                    self.interpreter.set_input_term("{}")
                output = str(self.interpreter.query(query))
            if output.strip() == "undefined":
                return self.answer(200, {})
            result = json.loads(output)["bindings"]["x"]
        except Exception as error:  # an evaluation error, as OPA reports one
            return self.answer(500, {"code": "internal_error", "message": str(error)})
        self.answer(200, {"result": result})

    def do_GET(self):
        self.answer(405, {"code": "method_not_allowed", "message": "POST /v1/data/<path>"})


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    DataAPI.interpreter = load_interpreter(sys.argv[1:])
    server = ThreadingHTTPServer(("127.0.0.1", 0), DataAPI)
    server.daemon_threads = True

    def stop_when_stdin_closes():
        sys.stdin.read()
        server.shutdown()

    threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
