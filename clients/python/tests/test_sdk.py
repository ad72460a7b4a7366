"""The Python SDK against a real pigeon, as an integrator would use it: the operator (through the
generated layer) makes a tenant and a sim phone; the tenant sends through `Pigeon`, reads typed
answers, pages through lists, gets typed errors, is retried past a 429, follows its events, and
verifies a webhook pigeon signed.

Run by `clients/generate --test` (PIGEON names the executable; PYTHONPATH holds clients/python).
"""

import hashlib
import http.server
import os
import socket
import subprocess
import tempfile
import threading
import time
import unittest

import httpx

from pigeon_client import Pigeon, PigeonError, verify_webhook
from pigeon_client.generated import AuthenticatedClient
from pigeon_client.generated.api.operations import operations_readyz
from pigeon_client.generated.api.operator import (
    operator_create_phone,
    operator_create_tenant,
    operator_patch_tenant,
)
from pigeon_client.generated.models import (
    Accepted,
    CreatePhone,
    CreateTenant,
    MessageView,
    PatchTenantBody,
    QuietHoursPatchBody,
    SimBody,
)

ADMIN = "svc_admin_python_sdk_test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Receiver:
    """A webhook receiver on loopback: keeps each request's raw body and headers."""

    def __init__(self):
        got = self.got = []
        arrived = self.arrived = threading.Event()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                got.append((body, dict(self.headers.items())))
                arrived.set()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self):
        if not self.arrived.wait(20):
            raise AssertionError("no webhook arrived")
        self.arrived.clear()
        return self.got[-1]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class SdkTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = tempfile.TemporaryDirectory(prefix="pigeon-python-sdk-")
        port = free_port()
        env = dict(
            os.environ,
            PIGEON_ADMIN_TOKEN=ADMIN,
            PIGEON_DATA_DIR=cls.data.name + "/store",
            PIGEON_LOG="warn",
            PIGEON_WEBHOOK_ALLOW_PRIVATE="true",
        )
        env.pop("PIGEON_DATABASE_URL", None)
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

    def tenant(self, plan: str = "scale"):
        """A tenant with quiet hours off (this test passes at any hour) and a sim phone; its
        live key."""
        with AuthenticatedClient(base_url=self.base, token=ADMIN) as operator:
            tenant = operator_create_tenant.sync(client=operator, body=CreateTenant(name="sdk", plan=plan)).data
            operator_patch_tenant.sync(
                tenant.id, client=operator, body=PatchTenantBody(quiet_hours=QuietHoursPatchBody(enabled=False))
            )
            operator_create_phone.sync(
                client=operator,
                body=CreatePhone(tenant_id=tenant.id, number="+15550100001", driver="sim", sim=SimBody(latency_ms=0)),
            )
        return tenant.keys.live.key

    def pigeon(self, key: str, **kw) -> Pigeon:
        p = Pigeon(key, base_url=self.base, **kw)
        self.addCleanup(p.close)
        return p

    def wait_delivered(self, p: Pigeon, message_id: str) -> MessageView:
        for _ in range(200):
            m = p.messages.get(message_id)
            if m.status == "delivered":
                return m
            time.sleep(0.05)
        self.fail(f"{message_id} was not delivered")

    def test_send_get_and_list_every_page(self):
        p = self.pigeon(self.tenant())
        accepted = p.messages.send(to="+15551234567", body="hello from python", metadata={"order": "1234"})
        self.assertIsInstance(accepted, Accepted)
        self.assertEqual(accepted.status, "queued")
        m = self.wait_delivered(p, accepted.message_id)
        self.assertEqual((m.to, m.body), ("+15551234567", "hello from python"))

        # The same Idempotency-Key answers the first 202 again.
        again = p.messages.send(to="+15551234567", body="hello from python", idempotency_key="py-1")
        repeat = p.messages.send(to="+15551234567", body="hello from python", idempotency_key="py-1")
        self.assertEqual(repeat.message_id, again.message_id)

        # Three more, listed two to a page: the iterator walks every page.
        ids = [accepted.message_id, again.message_id] + [
            p.messages.send(to="+15551234568", body=f"n{i}").message_id for i in range(3)
        ]
        listed = [m.message_id for m in p.messages.list(limit=2)]
        self.assertEqual(listed, ids)
        self.assertEqual([m.message_id for m in p.messages.list(to="+15551234568", limit=2)], ids[2:])
        self.assertEqual([m.message_id for m in p.messages.list(order="desc", limit=2)], ids[::-1])

        # Contacts and templates have the same shape.
        c = p.contacts.create("+15551234567", name="Ada")
        self.assertEqual(p.contacts.update(c.id, name="Ada L.").name, "Ada L.")
        self.assertEqual([x.name for x in p.contacts.list()], ["Ada L."])
        self.assertTrue(p.contacts.delete(c.id).deleted)
        t = p.templates.create("code", "Your code is {{code}}")
        self.assertEqual(p.templates.get(t.id).body, "Your code is {{code}}")

        # The events of the first message, in order, read to the end of the log.
        events = [e.event for e in p.events.list(types=["message.sent", "message.delivered"]) if e["message_id"] == m.message_id]
        self.assertEqual(events, ["message.sent", "message.delivered"])

    def test_media_goes_up_and_comes_back_by_key_and_by_link(self):
        p = self.pigeon(self.tenant())
        png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
        m = p.media.upload(png, "image/png", filename="cat.png")
        self.assertEqual((m.content_type, m.size, m.filename), ("image/png", len(png), "cat.png"))
        self.assertEqual(m.sha256, hashlib.sha256(png).hexdigest())
        self.assertEqual(p.media.get(m.media_id).sha256, m.sha256)
        self.assertEqual(p.media.content(m.media_id), png)
        # The link needs no key.
        self.assertEqual(httpx.get(m.url).content, png)
        with self.assertRaises(PigeonError) as bad:
            p.media.upload(b"not a png", "image/png")
        self.assertEqual((bad.exception.status, bad.exception.code), (400, "INVALID_MEDIA"))

    def test_errors_are_typed(self):
        p = self.pigeon(self.tenant())
        with self.assertRaises(PigeonError) as bad:
            p.messages.send(to="12345", body="hi")
        e = bad.exception
        self.assertEqual((e.status, e.code), (400, "INVALID_PHONE_NUMBER"))
        self.assertTrue(e.error and e.request_id)
        with self.assertRaises(PigeonError) as missing:
            p.messages.get("01KAAAAAAAAAAAAAAAAAAAAAAA")
        self.assertEqual((missing.exception.status, missing.exception.code), (404, "NOT_FOUND"))
        with self.assertRaises(PigeonError) as wrong:
            list(self.pigeon("svc_live_not_a_key").messages.list())
        self.assertEqual((wrong.exception.status, wrong.exception.code), (401, "INVALID_API_KEY"))

        # No answer at all: tried again (a read is safe to repeat), then raised, never a TypeError.
        waits = []
        closed = Pigeon("svc_live_x", base_url=f"http://127.0.0.1:{free_port()}", sleep=waits.append)
        with self.assertRaises(PigeonError) as down:
            closed.messages.get("01KAAAAAAAAAAAAAAAAAAAAAAA")
        self.assertEqual((down.exception.status, down.exception.code), (None, "CONNECTION_FAILED"))
        self.assertEqual(waits, [1.0, 2.0])

    def test_a_429_is_waited_out_as_retry_after_says(self):
        key = self.tenant()
        with httpx.Client(base_url=self.base, headers={"Authorization": f"Bearer {key}"}) as raw:
            r = raw.post("/v1/api-keys", json={"name": "slow", "rate_limit": 60})
            self.assertEqual(r.status_code, 201, r.text)
            slow = r.json()["data"]["key"]
        # The whole minute's burst, spent.
        with httpx.Client(base_url=self.base, headers={"Authorization": f"Bearer {slow}"}) as raw:
            while raw.get("/v1/messages").status_code != 429:
                pass
        strict = self.pigeon(slow, retries=False)
        with self.assertRaises(PigeonError) as limited:
            strict.messages.send(to="+15551234567", body="hi")
        self.assertEqual((limited.exception.status, limited.exception.code), (429, "RATE_LIMIT_EXCEEDED"))
        self.assertGreaterEqual(limited.exception.retry_after, 1)

        waits = []

        def sleep(s):
            waits.append(s)
            time.sleep(s)

        patient = self.pigeon(slow, sleep=sleep)
        accepted = patient.messages.send(to="+15551234567", body="hi")
        self.assertEqual(accepted.status, "queued")
        self.assertEqual(len(waits), 1)
        self.assertGreaterEqual(waits[0], 1)

    def test_a_webhook_pigeon_signed_verifies_and_a_changed_one_does_not(self):
        p = self.pigeon(self.tenant())
        rx = Receiver()
        self.addCleanup(rx.close)
        w = p.webhooks.create(rx.url, ["message.delivered"])
        self.assertTrue(w.secret.startswith("whsec_"))
        sent = p.webhooks.test(w.id)
        body, headers = rx.wait()
        event = verify_webhook(body, headers, w.secret)
        self.assertEqual((event.event, event.event_id), ("webhook.test", sent.event_id))
        for changed in (body.replace(b"webhook.test", b"webhook.tesT"), body + b" "):
            with self.assertRaises(PigeonError) as refused:
                verify_webhook(changed, headers, w.secret)
            self.assertEqual(refused.exception.code, "INVALID_SIGNATURE")
        with self.assertRaises(PigeonError) as replayed:
            verify_webhook(body, headers, w.secret, now=time.time() + 600)
        self.assertEqual(replayed.exception.code, "INVALID_SIGNATURE")

        # A secret of the tenant's own is checked by the spec's x-service-signature.
        own = p.webhooks.create(rx.url, ["message.delivered"], secret="a-secret-of-our-own-choosing")
        p.webhooks.test(own.id)
        body, headers = rx.wait()
        self.assertEqual(verify_webhook(body, headers, "a-secret-of-our-own-choosing").event, "webhook.test")
        with self.assertRaises(PigeonError):
            verify_webhook(body, headers, "another-secret-entirely")

        # Edited through the front: turned off, then listed so.
        self.assertFalse(p.webhooks.update(w.id, enabled=False).enabled)
        self.assertEqual([x.enabled for x in p.webhooks.list() if x.id == w.id], [False])


if __name__ == "__main__":
    unittest.main()
