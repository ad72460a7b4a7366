"""The OpenAPI document against the server: the document must be valid OpenAPI 3.1, and a bounded
schemathesis run (fixed seed) over the tenant, operator and phone-agent routes must find nothing:
no 5xx, and no status, header or body the document does not describe.

Usage: python .ci/contract.py PATH/TO/pigeon [--max-examples N]
Run by .ci/run from the virtualenv it makes (.ci/requirements.txt).
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ADMIN = "svc_admin_contract_check_token"
SEED = "20261123"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, token=None, body=None):
    req = urllib.request.Request(base + path, method=method)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, data, timeout=10) as r:
        return json.loads(r.read() or b"null")


def validate(document):
    from openapi_spec_validator import OpenAPIV31SpecValidator

    errors = list(OpenAPIV31SpecValidator(document).iter_errors())
    for e in errors[:20]:
        print("  /" + "/".join(str(p) for p in e.path) + ": " + e.message.splitlines()[0])
    return not errors


def main():
    binary = sys.argv[1]
    max_examples = sys.argv[sys.argv.index("--max-examples") + 1] if "--max-examples" in sys.argv else "50"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data = tempfile.mkdtemp(prefix="pigeon-contract-")
    log = open(os.path.join(data, "server.log"), "w")
    env = dict(os.environ, PIGEON_ADMIN_TOKEN=ADMIN, PIGEON_DATA_DIR=os.path.join(data, "store"),
               PIGEON_LOG="warn")
    server = subprocess.Popen([binary, "serve", "--addr", f"127.0.0.1:{port}"], env=env,
                              stdout=subprocess.DEVNULL, stderr=log)
    try:
        for _ in range(100):
            try:
                call(base, "GET", "/readyz")
                break
            except OSError:
                time.sleep(0.1)
        document = json.loads(urllib.request.urlopen(base + "/openapi.json", timeout=10).read())
        print("== /openapi.json is valid OpenAPI 3.1?")
        if not validate(document):
            print("no: the document is not valid OpenAPI 3.1")
            return 1
        print("yes")

        tenant = call(base, "POST", "/admin/v1/tenants", ADMIN, {"name": "contract", "plan": "scale"})["data"]
        call(base, "PATCH", f"/admin/v1/tenants/{tenant['id']}", ADMIN,
             {"quiet_hours": {"enabled": False}})
        call(base, "POST", "/admin/v1/phones", ADMIN,
             {"tenant_id": tenant["id"], "number": "+15550100001", "driver": "sim", "daily_limit": 100000})
        # The agent's own tenant has a backlog, so that its long polls answer at once.
        busy = call(base, "POST", "/admin/v1/tenants", ADMIN, {"name": "agent", "plan": "scale"})["data"]
        call(base, "PATCH", f"/admin/v1/tenants/{busy['id']}", ADMIN, {"quiet_hours": {"enabled": False}})
        agent = call(base, "POST", "/admin/v1/phones", ADMIN,
                     {"tenant_id": busy["id"], "number": "+15550100002", "driver": "agent",
                      "daily_limit": 100000})["data"]
        call(base, "GET", "/phone/v1/jobs", agent["agent_token"])  # a poll brings the phone online
        for i in range(500):
            call(base, "POST", "/v1/messages", busy["keys"]["live"]["key"],
                 {"to": f"+1415555{i:04d}", "body": "backlog"})
        runs = [
            ("tenant", "^/v1/", tenant["keys"]["live"]["key"]),
            ("operator", "^/admin/v1/", ADMIN),
            ("phone agent", "^/phone/v1/", agent["agent_token"]),
        ]
        failed = []
        for name, paths, token in runs:
            print(f"== schemathesis: {name} routes ({paths}), seed {SEED}, {max_examples} examples each")
            rc = subprocess.call([
                os.path.join(os.path.dirname(sys.executable), "schemathesis"), "run", base + "/openapi.json",
                "--include-path-regex", paths, "-H", f"Authorization: Bearer {token}",
                # The event log's long poll holds each generated call up to its `wait` (30 s):
                # fifty of them would take the stage's time; tests/api/events.rs covers it.
                "--exclude-path", "/v1/events",
                # Every check but positive_data_acceptance: some rules are not expressible in the
                # schema language (exactly one of body and template, an IANA zone, a template that
                # exists, a public webhook URL), so a schema-valid body may rightly be refused.
                "--checks", "all", "--exclude-checks", "positive_data_acceptance",
                "--seed", SEED, "--max-examples", max_examples, "--max-response-time", "35",
                # One worker: with two, CPython 3.11's compile() in schemathesis's threads once
                # failed with "AST constructor recursion depth mismatch", an error of the tool.
                "--phases", "examples,coverage,fuzzing", "--workers", "1",
                "--request-timeout", "40", "--no-color",
            ])
            if rc != 0:
                failed.append(name)
        if failed:
            print("schemathesis found problems on the " + ", ".join(failed) + " routes")
            return 1
        return 0
    finally:
        server.terminate()
        server.wait(timeout=40)
        log.close()


if __name__ == "__main__":
    sys.exit(main())
