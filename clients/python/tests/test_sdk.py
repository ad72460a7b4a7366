"""The generated Python SDK against a real pigeon: the operator makes a tenant and a sim phone, the
tenant sends, reads the text delivered, lists it, and gets a typed error for a bad number.

Run by `clients/generate --test` (PIGEON names the executable; PYTHONPATH holds clients/python).
"""

import os
import socket
import subprocess
import tempfile
import time
import unittest

from pigeon_client import AuthenticatedClient
from pigeon_client.api.messages import messages_get, messages_list, messages_send
from pigeon_client.api.operations import operations_readyz
from pigeon_client.api.operator import operator_create_phone, operator_create_tenant, operator_patch_tenant
from pigeon_client.models import (
    CreatePhone,
    CreateTenant,
    ErrorBody,
    PatchTenantBody,
    QuietHoursPatchBody,
    SendBody,
    SimBody,
)

ADMIN = "svc_admin_python_sdk_test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SdkTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = tempfile.TemporaryDirectory(prefix="pigeon-python-sdk-")
        port = free_port()
        env = dict(os.environ, PIGEON_ADMIN_TOKEN=ADMIN, PIGEON_DATA_DIR=cls.data.name + "/store", PIGEON_LOG="warn")
        cls.server = subprocess.Popen(
            [os.environ.get("PIGEON", "target/debug/pigeon"), "serve", "--addr", f"127.0.0.1:{port}"],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        cls.base = f"http://127.0.0.1:{port}"
        with AuthenticatedClient(base_url=cls.base, token="none", timeout=2.0) as probe:
            for _ in range(200):
                try:
                    if operations_readyz.sync_detailed(client=probe).status_code == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.05)
            else:
                raise RuntimeError("pigeon did not become ready")

    @classmethod
    def tearDownClass(cls):
        cls.server.kill()
        cls.server.wait()
        cls.data.cleanup()

    def setUp(self):
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.get_httpx_client().close()

    def client(self, token: str) -> AuthenticatedClient:
        """A client for this node with `token`, closed when the test ends."""
        c = AuthenticatedClient(base_url=self.base, token=token)
        self.clients.append(c)
        return c

    def test_operator_and_tenant_flow(self):
        operator = self.client(ADMIN)
        created = operator_create_tenant.sync(client=operator, body=CreateTenant(name="sdk", plan="scale"))
        tenant = created.data
        # Quiet hours could hold the text at some hours of the day; this test must pass at any hour.
        patched = operator_patch_tenant.sync(
            tenant.id, client=operator, body=PatchTenantBody(quiet_hours=QuietHoursPatchBody(enabled=False))
        )
        self.assertFalse(patched.data.quiet_hours.enabled)
        phone = operator_create_phone.sync(
            client=operator,
            body=CreatePhone(tenant_id=tenant.id, number="+15550100001", driver="sim", sim=SimBody(latency_ms=0)),
        )
        self.assertEqual(phone.data.number, "+15550100001")

        client = self.client(tenant.keys.live.key)
        send = SendBody(to="+15551234567", body="hello from python")
        accepted = messages_send.sync(client=client, body=send, idempotency_key="python-sdk-1")
        message_id = accepted.data.message_id
        self.assertEqual(accepted.data.status, "queued")
        # The same Idempotency-Key answers the first 202 again.
        again = messages_send.sync(client=client, body=send, idempotency_key="python-sdk-1")
        self.assertEqual(again.data.message_id, message_id)

        status = None
        for _ in range(200):
            status = messages_get.sync(message_id, client=client).data.status
            if status == "delivered":
                break
            time.sleep(0.05)
        self.assertEqual(status, "delivered")

        listed = messages_list.sync(client=client, to="+15551234567")
        self.assertEqual([m.message_id for m in listed.data], [message_id])

        error = messages_send.sync(client=client, body=SendBody(to="12345", body="hi"))
        self.assertIsInstance(error, ErrorBody)
        self.assertEqual(error.code, "INVALID_PHONE_NUMBER")

    def test_a_wrong_key_is_a_typed_401(self):
        client = self.client("svc_live_not_a_key")
        answer = messages_send.sync_detailed(client=client, body=SendBody(to="+15551234567", body="hi"))
        self.assertEqual(answer.status_code, 401)
        self.assertIsInstance(answer.parsed, ErrorBody)
        self.assertEqual(answer.parsed.code, "INVALID_API_KEY")


if __name__ == "__main__":
    unittest.main()
